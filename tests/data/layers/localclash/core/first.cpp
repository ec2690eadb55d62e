// The layer check's own test data (never compiled): a file-local helper and a constant...
namespace flashdeck {
namespace {

int twice(int x)
{
    return 2 * x;
}

} // namespace
} // namespace flashdeck

namespace flashdeck {
namespace {
const char *const kUsage = "first";
} // namespace
} // namespace flashdeck

// The layer check's own test data (never compiled): a file-local helper...
namespace flashdeck {
namespace {

int twice(int x)
{
    return 2 * x;
}

} // namespace
} // namespace flashdeck

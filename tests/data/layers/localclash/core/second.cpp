// ...and another of the same name in a second file of the layer: in one unity batch, the two
// would overload each other.
namespace flashdeck {
namespace {

double twice(double x)
{
    return 2 * x;
}

} // namespace
} // namespace flashdeck

namespace flashdeck {
namespace {
[[maybe_unused]] constexpr const char *kUsage = "second";
} // namespace
} // namespace flashdeck

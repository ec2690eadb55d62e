// The JSON files Flashdeck reads that a person may edit or a disk may damage: the recipe
// (resources/recipes, or one given with --recipe) and the host inventory (hosts.json). Any bytes
// get a value or a message saying what is wrong — never a crash, never a silent half-load.

#include "backend/fleet/inventory.h"
#include "backend/recipe/recipe.h"
#include "tests/fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck;
    const QByteArray input = fuzz::bytes(data, size);

    const auto recipe = recipe::Recipe::fromJson(input, QStringLiteral("fuzz.json"));
    if (recipe) {
        for (const recipe::RecipeProfile &p : recipe.value().profiles) {
            FUZZ_CHECK(recipe.value().profile(p.id) != nullptr);
        }
    } else {
        FUZZ_CHECK(!recipe.message().isEmpty());
    }

    const auto hosts = fleet::Inventory::parse(input, QStringLiteral("hosts.json"));
    if (hosts) {
        for (const fleet::HostEntry &h : hosts.value()) {
            FUZZ_CHECK(fleet::HostEntry::validateName(h.name).isOk()); // a bad name is refused, not loaded
        }
    } else {
        FUZZ_CHECK(!hosts.message().isEmpty());
    }
    return 0;
}

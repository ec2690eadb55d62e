// amd-smi `metric --json` and rocm-smi `--json` (host contract §2, AMD nodes).

#include "backend/probe/amdsmi.h"
#include "tests/fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck::probe;
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    for (const auto &parsed : {parseAmdSmiMetric(input), parseRocmSmi(input)}) {
        if (!parsed) {
            FUZZ_CHECK(!parsed.message().isEmpty());
        }
    }
    return 0;
}

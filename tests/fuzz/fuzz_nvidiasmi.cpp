// nvidia-smi's two outputs (host contract §2): the `-q -x` XML of pre-flight and the
// `--query-gpu … --format=csv,noheader,nounits` sample lines. Seeds: tests/data/nvidia-smi-h200x2.

#include "backend/probe/nvidiasmi.h"
#include "tests/fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck::probe;
    const QByteArray input = flashdeck::fuzz::bytes(data, size);

    const auto driver = parseNvidiaSmiXml(input);
    if (driver) {
        for (const NvidiaGpu &gpu : driver.value().gpus) {
            FUZZ_CHECK(gpu.memoryTotalMiB >= 0);
        }
    } else {
        FUZZ_CHECK(!driver.message().isEmpty()); // every refusal says why
    }

    for (const QByteArray &line : input.split('\n')) {
        (void)splitCsvRow(line);
        const auto sample = parseGpuSample(line);
        if (!sample) {
            FUZZ_CHECK(!sample.message().isEmpty());
        }
    }
    const QList<QByteArray> words = input.split(' ');
    if (words.size() >= 2) {
        const QString a = QString::fromUtf8(words[0]);
        const QString b = QString::fromUtf8(words[1]);
        const int ab = compareVersions(a, b);
        const int ba = compareVersions(b, a);
        FUZZ_CHECK((ab < 0) == (ba > 0) && (ab == 0) == (ba == 0)); // an order, whatever the text
    }
    return 0;
}

// SGLang's `/metrics` (Prometheus text format 0.0.4), `/get_load` JSON and the decode log line
// the server snapshot is read from; and an answer of Prometheus' HTTP API (the fleet source).

#include "backend/metrics/prometheustext.h"
#include "backend/metrics/serversnapshot.h"
#include "backend/prometheus/promresponse.h"
#include "tests/fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck::metrics;
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    const PromScrape scrape = parsePrometheusText(input);
    (void)snapshotFromMetrics(scrape, 1000);
    (void)snapshotFromLoads(input, 1000);
    (void)flashdeck::prom::parsePromResponse(input, 200);
    for (const QByteArray &line : input.split('\n')) {
        (void)snapshotFromDecodeLine(line, 1000);
    }
    return 0;
}

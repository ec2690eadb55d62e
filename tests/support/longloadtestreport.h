#pragma once

#include "backend/chat/loadtest.h"

namespace flashdeck::test {

/**
 * A load test's longest state for the window: a run the server stopped, with its reason, notes
 * (short replies, the two counts) and errors, each a sentence that must wrap on a laptop's screen.
 */
inline chat::LoadTestReport longLoadTestReport()
{
    chat::LoadTestReport report;
    report.config.concurrency = 64;
    report.config.durationS = 60;
    report.elapsedS = 12.5;
    report.completed = 3;
    report.failed = 61;
    report.shortReplies = 3;
    report.serverTokensPerSecond = 1200;
    report.tokensPerSecond = 30;
    report.aborted = QStringLiteral("Stopped: the server refused the API key 64 times in a row (HTTP 401 "
                                    "\"Unauthorized\"); the key Flashdeck holds for this host is not the one the "
                                    "server was started with. Recover it from the deployment, then run again.");
    report.errors << QStringLiteral("61 × The server closed the stream before its [DONE] (the server restarted or "
                                    "closed the connection): the request's tokens up to there are counted.");
    return report;
}

} // namespace flashdeck::test

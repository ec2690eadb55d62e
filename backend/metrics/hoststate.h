#pragma once

#include <QString>

namespace flashdeck::metrics {

/** Whether Flashdeck reaches a host (the fleet's first column). */
enum class HostState {
    Connecting, // not yet connected, or connecting again
    Up, // connected: every other reading comes through this
    Unreachable, // lost, retrying
    Failed, // refused for good (host key, login): the operator must act
    /**
     * Prometheus' view only: every exporter it scrapes there answers `up == 0`. That is the
     * exporters (down, or blocked), not the host: it may serve well (issue 43 saw SSH reach it
     * while this read "unreachable").
     */
    Unscraped,
};

/** "connecting", "up", "unreachable", "failed", "unscraped": `flashdeck status --json`'s words, and the window's. */
QString hostStateName(HostState state);
/** hostStateName() in the language Flashdeck speaks: for people; the name is for JSON. */
QString hostStateText(HostState state);
/** Away: nothing else about the host is known now. */
bool isAway(HostState state);

/** What the server's /health says (host contract: 200 ready, 503 while loading). */
enum class ServerHealth {
    Unknown, // no server to ask, or not asked yet
    Ok, // 200
    Starting, // 503, or Uvicorn not up yet
    Down, // nothing answers on the port
};

/** "ok", "starting", "down"; empty when Unknown (shown as unknown, exported as null). */
QString serverHealthName(ServerHealth health);
/** serverHealthName() in the language Flashdeck speaks. */
QString serverHealthText(ServerHealth health);

} // namespace flashdeck::metrics

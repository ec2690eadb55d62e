#pragma once

#include "backend/expose/gatewayoptions.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <variant>

namespace flashdeck::cli {

struct CliContext;

/** `flashdeck expose`'s command line, read and checked before anything connects. */
struct ExposeRequest
{
    QString host;
    expose::GatewayOptions options;
    bool preview = false;
    /** --check: prove the placed gateway from this machine instead of placing one. */
    bool check = false;
    /** --connect ADDR:PORT: where --check reaches the gateway (empty: the recorded address). */
    QString connectHost;
    int connectPort = 0;
    bool json = false;
    /** The operator's files (--tls-cert/--tls-key), read here; the key is a secret. */
    QString certificateFile;
    QByteArray certificatePem;
    QString keyFile;
    QByteArray keyPem;

    static QString usage();
    /** The request, or the exit code after saying on stderr what is wrong (usage: 2). */
    static std::variant<ExposeRequest, int> read(const QStringList &args, CliContext &c);
};

} // namespace flashdeck::cli

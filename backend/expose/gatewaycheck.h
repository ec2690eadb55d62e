#pragma once

#include "backend/expose/gatewayrecord.h"
#include "backend/expose/gatewayrequest.h"
#include "backend/recipe/step.h"

#include <QObject>

#include <functional>

namespace flashdeck::expose {

/**
 * `expose --check`: proves from the operator's machine, as a colleague would see it and not
 * through SSH, what the deployment page asks of an exposed server (F30, F31, F33): TLS with the
 * recorded public-key pin, 401 without the key, 200 with it, a remote image URL refused, the
 * server's own port not serving from outside, and 429 past the rate (last: it spends the
 * client's rate). Each check is a step record, as `deploy` prints them.
 */
class GatewayCheck final : public QObject
{
    Q_OBJECT

public:
    /** `host`/`port`: where to reach the gateway (the record's address and port, or --connect's). */
    GatewayCheck(GatewayRecord record, QString apiKey, QString host, int port, QObject *parent = nullptr);

    void start();

Q_SIGNALS:
    void step(const flashdeck::recipe::StepRecord &record);
    /** Every step passed. */
    void finished(bool passed);

private:
    using Answered = std::function<void(const GatewayRequest::Answer &answer)>;
    /** To the gateway (TLS), or with `port` to that port of its address in plain HTTP. */
    void send(const QByteArray &path, const QByteArray &body, bool withKey, const Answered &answered, int port = 0);
    void report(const QString &id, const QString &title, bool pass, const QString &expected, const QString &seen,
                const QString &fix = {});
    void checkTls();
    void checkKey();
    void checkMedia();
    void checkServerPort();
    void checkRate();
    QString url() const;

    GatewayRecord m_record;
    QString m_key;
    QString m_host;
    int m_port = 0;
    bool m_passed = true;
};

} // namespace flashdeck::expose

#include "backend/applog/logging.h"
#include "backend/security/redactor.h"

#include <QFile>
#include <QLoggingCategory>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

using flashdeck::security::Redactor;
namespace fdlog = flashdeck::applog;

Q_LOGGING_CATEGORY(lcSshTest, "flashdeck.ssh")

class TestLogging : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void everySink_isRedacted();
    void levels_fromSpec_filterPerSubsystem();
    void qtMessages_areForwardedToTheirSubsystem();
    void badSpec_warnsAndFallsBackToInfo();
    void unwritableLogDir_fallsBackToStderrWithWarning();
    void beforeSetup_loggersDiscard();
};

namespace {
struct Capture
{
    std::ostringstream stream;
    std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(stream);
};
} // namespace

void TestLogging::everySink_isRedacted()
{
    QTemporaryDir dir;
    Redactor redactor;
    QVERIFY(redactor.addSecret(QStringLiteral("sk-live-0123456789")));
    Capture capture;
    fdlog::LogOptions options;
    options.directory = dir.path();
    options.extraSinks = {capture.sink};
    {
        fdlog::Logging logging(redactor, options);
        QVERIFY(logging.warning().isEmpty());
        fdlog::chat().info("sending with key sk-live-0123456789 and header Bearer abc.def");
        fdlog::ssh().warn("image data:image/png;base64,AAAABBBB");
        logging.flush();

        QFile file(logging.logFile());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray written = file.readAll();
        QVERIFY2(written.contains("[chat]"), written.constData());
        QVERIFY(!written.contains("sk-live-0123456789"));
        QVERIFY(!written.contains("abc.def"));
        QVERIFY(!written.contains("AAAABBBB"));
        QVERIFY(written.contains("Bearer [REDACTED]"));
        QCOMPARE(file.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    }
    const std::string captured = capture.stream.str();
    QVERIFY(captured.find("sk-live") == std::string::npos);
    QVERIFY(captured.find("with key [REDACTED]") != std::string::npos);
}

void TestLogging::levels_fromSpec_filterPerSubsystem()
{
    Redactor redactor;
    Capture capture;
    fdlog::LogOptions options;
    options.levels = QStringLiteral("ssh=debug,deploy=error");
    options.extraSinks = {capture.sink};
    fdlog::Logging logging(redactor, options);
    QVERIFY(logging.warning().isEmpty());
    fdlog::ssh().debug("ssh-debug-line");
    fdlog::deploy().warn("deploy-warn-line");
    fdlog::metrics().debug("metrics-debug-line");
    fdlog::metrics().info("metrics-info-line");
    logging.flush();
    const std::string out = capture.stream.str();
    QVERIFY(out.find("ssh-debug-line") != std::string::npos);
    QVERIFY(out.find("deploy-warn-line") == std::string::npos);
    QVERIFY(out.find("metrics-debug-line") == std::string::npos);
    QVERIFY(out.find("metrics-info-line") != std::string::npos);
}

void TestLogging::qtMessages_areForwardedToTheirSubsystem()
{
    Redactor redactor;
    Capture capture;
    fdlog::LogOptions options;
    options.levels = QStringLiteral("debug");
    options.extraSinks = {capture.sink};
    {
        fdlog::Logging logging(redactor, options);
        qCWarning(lcSshTest) << "kex failed, password=hunter22";
        qWarning("plain qt warning");
        logging.flush();
    }
    const std::string out = capture.stream.str();
    QVERIFY2(out.find("[ssh] kex failed, password=[REDACTED]") != std::string::npos, out.c_str());
    QVERIFY2(out.find("[qt] plain qt warning") != std::string::npos, out.c_str());
    QVERIFY(out.find("hunter22") == std::string::npos);
}

void TestLogging::badSpec_warnsAndFallsBackToInfo()
{
    Redactor redactor;
    Capture capture;
    fdlog::LogOptions options;
    options.levels = QStringLiteral("ssh=chatty");
    options.extraSinks = {capture.sink};
    fdlog::Logging logging(redactor, options);
    QVERIFY(logging.warning().contains(QStringLiteral("chatty")));
    fdlog::ssh().debug("hidden");
    fdlog::ssh().info("shown");
    logging.flush();
    const std::string out = capture.stream.str();
    QVERIFY(out.find("hidden") == std::string::npos);
    QVERIFY(out.find("shown") != std::string::npos);
}

void TestLogging::unwritableLogDir_fallsBackToStderrWithWarning()
{
    QTemporaryDir dir;
    QFile blocker(dir.path() + QStringLiteral("/notadir"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    Redactor redactor;
    fdlog::LogOptions options;
    options.directory = blocker.fileName() + QStringLiteral("/logs");
    fdlog::Logging logging(redactor, options);
    QVERIFY(logging.logFile().isEmpty());
    QVERIFY2(logging.warning().contains(QStringLiteral("Cannot create the log folder")), qPrintable(logging.warning()));
}

void TestLogging::beforeSetup_loggersDiscard()
{
    // No Logging alive: calls must be safe and print nothing unredacted anywhere.
    fdlog::ssh().error("password=should-not-appear");
    QVERIFY(fdlog::ssh().sinks().size() == 1);
}

QTEST_GUILESS_MAIN(TestLogging)
#include "tst_logging.moc"

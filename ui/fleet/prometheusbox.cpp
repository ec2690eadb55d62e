#include "ui/fleet/prometheusbox.h"

#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/prometheus/promconfig.h"
#include "backend/prometheus/promfleetsource.h"
#include "backend/security/secretstore.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace flashdeck::ui {

namespace {

/** "10.0.0.5=gpu1, node-7:9400=gpu7" ⇄ the label-value → inventory-name map. */
QString namesText(const QMap<QString, QString> &names)
{
    QStringList parts;
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        parts.append(it.key() + QLatin1Char('=') + it.value());
    }
    return parts.join(QStringLiteral(", "));
}

QMap<QString, QString> namesFrom(const QString &text)
{
    QMap<QString, QString> out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        if (eq > 0) {
            out.insert(part.left(eq).trimmed(), part.mid(eq + 1).trimmed());
        }
    }
    return out;
}

} // namespace

PrometheusBox::PrometheusBox(Settings &settings, fleet::FleetWatcher &fleet, QWidget *parent)
    : QGroupBox(tr("Fleet data source"), parent)
    , m_settings(settings)
    , m_fleet(fleet)
    , m_source(new QComboBox(this))
    , m_url(new QLineEdit(this))
    , m_through(new QLineEdit(this))
    , m_label(new QLineEdit(this))
    , m_names(new QLineEdit(this))
    , m_ca(new QLineEdit(this))
    , m_auth(new QComboBox(this))
    , m_user(new QLineEdit(this))
    , m_secret(new QLineEdit(this))
    , m_apply(new QPushButton(tr("Apply"), this))
    , m_state(new QLabel(this))
{
    setObjectName(QStringLiteral("prometheusBox"));
    const prom::PromConfig c = prom::PromConfig::fromSettings(settings);
    fillFields(c);
    nameFields();
    layOutFields();

    connect(m_source, &QComboBox::currentIndexChanged, this, &PrometheusBox::enableFields);
    connect(m_auth, &QComboBox::currentIndexChanged, this, &PrometheusBox::enableFields);
    connect(m_apply, &QPushButton::clicked, this, &PrometheusBox::apply);
    connect(&m_fleet, &fleet::FleetWatcher::prometheusRefreshed, this, &PrometheusBox::showState);
    enableFields();
    showState();
}

void PrometheusBox::fillFields(const prom::PromConfig &c)
{
    m_source->addItem(tr("Each host over SSH"), QStringLiteral("ssh"));
    m_source->addItem(tr("Prometheus (SSH for hosts it does not know)"), QStringLiteral("prometheus"));
    m_source->setCurrentIndex(c.source == prom::FleetSource::Prometheus ? 1 : 0);
    m_url->setText(c.url.toString());
    m_url->setPlaceholderText(QStringLiteral("http://prometheus.internal:9090"));
    m_through->setText(c.throughHost);
    m_through->setPlaceholderText(tr("directly; or an inventory host to tunnel through"));
    m_label->setText(c.hostLabel);
    m_label->setToolTip(tr("The label that names a host in your series: instance (its port is dropped), "
                           "Hostname (dcgm-exporter), hostname (AMD's exporter) or your own."));
    m_names->setText(namesText(c.hostNames));
    m_names->setPlaceholderText(tr("label value=inventory name, … (only where they differ)"));
    m_ca->setText(c.caFile);
    m_ca->setPlaceholderText(tr("the system's certificates"));
    m_auth->addItem(tr("None"), QStringLiteral("none"));
    m_auth->addItem(tr("Bearer token"), QStringLiteral("bearer"));
    m_auth->addItem(tr("User and password"), QStringLiteral("basic"));
    m_auth->setCurrentIndex(m_auth->findData(prom::promAuthName(c.auth)));
    m_user->setText(c.user);
    m_user->setPlaceholderText(tr("user (for a password)"));
    m_secret->setEchoMode(QLineEdit::Password);
    m_secret->setPlaceholderText(tr("kept in the keyring; leave empty to keep the saved one"));
}

void PrometheusBox::nameFields()
{
    m_source->setObjectName(QStringLiteral("prometheusSource"));
    m_url->setObjectName(QStringLiteral("prometheusUrl"));
    m_through->setObjectName(QStringLiteral("prometheusThrough"));
    m_label->setObjectName(QStringLiteral("prometheusHostLabel"));
    m_names->setObjectName(QStringLiteral("prometheusHostNames"));
    m_ca->setObjectName(QStringLiteral("prometheusCaFile"));
    m_auth->setObjectName(QStringLiteral("prometheusAuth"));
    m_user->setObjectName(QStringLiteral("prometheusUser"));
    m_secret->setObjectName(QStringLiteral("prometheusSecret"));
    m_apply->setObjectName(QStringLiteral("prometheusApply"));
    m_state->setObjectName(QStringLiteral("prometheusState"));
    m_state->setWordWrap(true);
}

void PrometheusBox::layOutFields()
{
    auto *form = new QFormLayout(this);
    form->addRow(tr("Figures from:"), m_source);
    form->addRow(tr("Prometheus URL:"), m_url);
    form->addRow(tr("Reached:"), m_through);
    form->addRow(tr("Host label:"), m_label);
    form->addRow(tr("Host names:"), m_names);
    form->addRow(tr("CA file:"), m_ca);
    auto *authRow = new QHBoxLayout;
    authRow->addWidget(m_auth);
    authRow->addWidget(m_user, 1);
    authRow->addWidget(m_secret, 1);
    form->addRow(tr("Sign in:"), authRow);
    auto *applyRow = new QHBoxLayout;
    applyRow->addWidget(m_apply);
    applyRow->addWidget(m_state, 1);
    form->addRow(QString(), applyRow);
}

void PrometheusBox::enableFields()
{
    const bool on = m_source->currentData().toString() == QLatin1String("prometheus");
    for (QWidget *w : std::initializer_list<QWidget *>{m_url, m_through, m_label, m_names, m_ca, m_auth}) {
        w->setEnabled(on);
    }
    const QString auth = m_auth->currentData().toString();
    m_user->setEnabled(on && auth == QLatin1String("basic"));
    m_secret->setEnabled(on && auth != QLatin1String("none"));
}

prom::PromConfig PrometheusBox::config() const
{
    prom::PromConfig c = prom::PromConfig::fromSettings(m_settings);
    c.source = m_source->currentData().toString() == QLatin1String("prometheus") ? prom::FleetSource::Prometheus
                                                                                 : prom::FleetSource::Ssh;
    c.url = QUrl(m_url->text().trimmed());
    c.throughHost = m_through->text().trimmed();
    c.hostLabel = m_label->text().trimmed().isEmpty() ? QStringLiteral("instance") : m_label->text().trimmed();
    c.hostNames = namesFrom(m_names->text());
    c.caFile = m_ca->text().trimmed();
    c.auth = prom::promAuthFromName(m_auth->currentData().toString());
    c.user = m_user->text().trimmed();
    return c;
}

void PrometheusBox::apply()
{
    const prom::PromConfig c = config();
    if (c.source == prom::FleetSource::Prometheus) {
        if (const Status s = c.check(); !s) {
            m_state->setText(s.message());
            return;
        }
    }
    c.writeTo(m_settings);
    const QString typed = m_secret->text();
    m_secret->clear();
    security::SecretStore *secrets = m_fleet.secrets();
    const auto use = [this, c](const QString &secret) {
        m_fleet.usePrometheus(c, secret);
        m_state->setText(c.enabled() ? tr("Asking Prometheus…") : tr("Every host is watched over SSH."));
    };
    if (c.auth == prom::PromAuth::None || !secrets) {
        use(c.auth == prom::PromAuth::None ? QString() : typed);
    } else if (!typed.isEmpty()) {
        secrets->write(QLatin1String(prom::PromConfig::kSecretKey), typed, [](const Status &) {});
        use(typed);
    } else {
        secrets->read(QLatin1String(prom::PromConfig::kSecretKey),
                      [use](const Result<QString> &saved) { use(saved ? saved.value() : QString()); });
    }
}

void PrometheusBox::showState()
{
    const prom::PromFleetSource *source = m_fleet.prometheus();
    if (!source) {
        m_state->setText(tr("Every host is watched over its own SSH connection."));
    } else if (!source->answered()) {
        m_state->setText(tr("Asking Prometheus…"));
    } else if (!source->error().isEmpty()) {
        m_state->setText(source->error());
    } else {
        m_state->setText(tr("Prometheus answers: %n host(s) in %1 ms.", nullptr, int(source->hosts().size()))
                             .arg(source->lastRefreshMs()));
    }
}

} // namespace flashdeck::ui

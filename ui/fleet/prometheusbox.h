#pragma once

#include <QGroupBox>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace flashdeck {
class Settings;
namespace fleet {
class FleetWatcher;
} // namespace fleet
namespace prom {
struct PromConfig;
} // namespace prom
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * Settings → Fleet's data source: each host over SSH, or the operator's Prometheus (its address,
 * a bastion to reach it through, the label that names hosts and a mapping to inventory names,
 * its CA, and a bearer token or basic auth whose secret goes to the keyring). Applying it saves
 * flashdeck.ini's `[fleet] source` and `[prometheus]`, and the Fleet page follows at once.
 */
class PrometheusBox final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PrometheusBox)

public:
    PrometheusBox(Settings &settings, fleet::FleetWatcher &fleet, QWidget *parent = nullptr);

    /** What the fields say now. */
    prom::PromConfig config() const;
    /** Saves and applies the fields (the Apply button). */
    void apply();

private:
    /** The fields as the saved configuration has them. */
    void fillFields(const prom::PromConfig &c);
    void nameFields();
    void layOutFields();
    /** Prometheus's fields only for Prometheus; user and secret only for the sign-in that takes them. */
    void enableFields();
    void showState();

    Settings &m_settings;
    fleet::FleetWatcher &m_fleet;
    QComboBox *m_source;
    QLineEdit *m_url;
    QLineEdit *m_through;
    QLineEdit *m_label;
    QLineEdit *m_names;
    QLineEdit *m_ca;
    QComboBox *m_auth;
    QLineEdit *m_user;
    QLineEdit *m_secret;
    QPushButton *m_apply;
    QLabel *m_state;
};

} // namespace flashdeck::ui

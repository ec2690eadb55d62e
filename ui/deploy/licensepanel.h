#pragma once

#include <QWidget>

class QAbstractButton;
class QButtonGroup;
class QCheckBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace flashdeck {
namespace deploy {
class Acknowledgements;
struct Acknowledgement;
} // namespace deploy
namespace recipe {
class LicenseTerms;
} // namespace recipe
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * The licence acknowledgement (F40, screens.md §Licence page): our plain-words summary in
 * short paragraphs, a link to the full licence, the kind of use, two required confirmations,
 * and "Acknowledge" only once all are given. It records who, when and which text (its hash)
 * in acknowledgements.json, the same record `flashdeck deploy --accept-license` writes.
 */
class LicensePanel final : public QWidget
{
    Q_OBJECT

public:
    LicensePanel(const recipe::LicenseTerms &terms, deploy::Acknowledgements &store, QWidget *parent = nullptr);

    /** Shows the host's acknowledgement of this text, if any; otherwise asks for one. */
    void setHost(const QString &host);
    /** The host's acknowledged use of the current text, or empty. */
    QString acknowledgedUse() const { return m_use; }
    /** "root at 2026-…Z, summary sha256 …", for the plan's licence step. */
    QString record() const { return m_record; }

    /** What the operator picks (for tests and keyboard users). */
    void choose(const QString &useId);
    void confirmAll(bool on);
    /** Keyboard focus to the use's choice (the checked one, else the first), scrolled into view. */
    void focusChoice();
    /** Records the acknowledgement; false (and the reason shown) when it could not be written. */
    bool acknowledge();

Q_SIGNALS:
    void acknowledged(const QString &use);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /** The title, the summary's paragraphs and the link to the full licence. */
    void addSummary(QWidget *content, QVBoxLayout *layout);
    /** The kind of use (one of) and the confirmations (all of). */
    void addChoices(QWidget *content, QVBoxLayout *layout);
    void addWithLabel(QWidget *content, QVBoxLayout *layout, QAbstractButton *button, const QString &text);
    /** Acknowledge and the state it recorded, below the scrolled text. */
    void addFooter(QVBoxLayout *outer);
    void setChoiceTabOrder();
    void updateState();
    void showRecord(const deploy::Acknowledgement &ack);

    const recipe::LicenseTerms &m_terms;
    deploy::Acknowledgements &m_store;
    QString m_host;
    QString m_use;
    QString m_record;
    QButtonGroup *m_uses;
    QList<QCheckBox *> m_confirmations;
    QScrollArea *m_scroll = nullptr;
    QPushButton *m_button;
    QLabel *m_state;
};

} // namespace flashdeck::ui

#pragma once

#include <QSortFilterProxyModel>

namespace flashdeck::ui {

/**
 * Which lines of a LogModel a view shows: by severity (the Logs page's chips) and, when asked,
 * only those containing a text. New rows are filtered as they arrive, without re-filtering
 * the rest.
 */
class LogFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    enum Show : unsigned {
        Plain = 1u << 0,
        Info = 1u << 1,
        Milestones = 1u << 2, // ok
        Warnings = 1u << 3,
        Errors = 1u << 4,
        Everything = Plain | Info | Milestones | Warnings | Errors,
    };

    explicit LogFilterModel(QObject *parent = nullptr);

    void setShown(unsigned mask);
    unsigned shown() const { return m_shown; }
    /** Case-insensitive; empty shows every line of the shown severities. */
    void setText(const QString &text);
    QString text() const { return m_text; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    unsigned m_shown = Everything;
    QString m_text;
};

} // namespace flashdeck::ui

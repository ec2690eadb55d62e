#include "ui/logs/logfiltermodel.h"

#include "ui/logs/logmodel.h"

namespace flashdeck::ui {

LogFilterModel::LogFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
}

void LogFilterModel::setShown(unsigned mask)
{
    if (mask == m_shown) {
        return;
    }
    m_shown = mask;
    invalidateFilter();
}

void LogFilterModel::setText(const QString &text)
{
    if (text == m_text) {
        return;
    }
    m_text = text;
    invalidateFilter();
}

bool LogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto severity = LogModel::Severity(i.data(LogModel::SeverityRole).toInt());
    const unsigned bit = 1u << unsigned(severity); // Severity's order is the mask's order
    if ((m_shown & bit) == 0) {
        return false;
    }
    return m_text.isEmpty() || i.data(LogModel::TextRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace flashdeck::ui

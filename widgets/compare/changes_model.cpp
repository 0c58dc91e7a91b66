#include "widgets/compare/changes_model.h"

#include <QBrush>
#include <QColor>

#include "widgets/session/diff_marks.h"

namespace irscope::widgets {

namespace {
using Change = diff::ChangeRow::Change;
using Kind = diff::ChangeRow::Kind;

QString changeText(const diff::ChangeRow& r) {
    const char* what = r.kind == Kind::Weight        ? "weight "
                       : r.kind == Kind::GraphInput  ? "input "
                       : r.kind == Kind::GraphOutput ? "output "
                                                     : "";
    switch (r.change) {
    case Change::Added: return QStringLiteral("+ %1added").arg(QLatin1String(what));
    case Change::Removed: return QStringLiteral("%1 %2removed").arg(QChar(0x2212)).arg(QLatin1String(what));
    case Change::Renamed: return QStringLiteral("  renamed");
    case Change::Changed: break;
    }
    return QStringLiteral("%1 %2changed").arg(QChar(0x0394)).arg(QLatin1String(what));
}

QColor changeColor(Change c) {
    switch (c) {
    case Change::Added: return DiffMarks::color(DiffMark::Added);
    case Change::Removed: return DiffMarks::color(DiffMark::Removed);
    case Change::Changed: return DiffMarks::color(DiffMark::Changed);
    case Change::Renamed: break;
    }
    return QColor(Qt::gray);
}

QString nameText(const diff::ChangeRow& r) {
    const QString a = QString::fromStdString(r.nameA), b = QString::fromStdString(r.nameB);
    if (a.isEmpty()) return b;
    if (b.isEmpty() || a == b) return a;
    return a + QStringLiteral(" → ") + b;
}
}  // namespace

void ChangesModel::setRows(std::shared_ptr<const std::vector<diff::ChangeRow>> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int ChangesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !rows_ ? 0 : static_cast<int>(rows_->size());
}

int ChangesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ChangesModel::data(const QModelIndex& index, int role) const {
    if (!rows_ || !index.isValid() || static_cast<size_t>(index.row()) >= rows_->size()) return {};
    const auto& r = (*rows_)[static_cast<size_t>(index.row())];
    if (role == kRowRole) return index.row();
    if (role == kKindRole) return static_cast<int>(r.change);
    if (role == Qt::ForegroundRole && index.column() == ChangeCol) return QBrush(changeColor(r.change));
    if (role == Qt::ToolTipRole && index.column() == DetailCol)
        return QString::fromStdString(r.detail).replace(QStringLiteral("; "), QStringLiteral("\n"));
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case ChangeCol: return changeText(r);
    case NameCol: return nameText(r);
    case OpCol: return QString::fromStdString(r.opType);
    case ModuleCol:
        return r.isNode() ? (r.module.empty() ? tr("(model)") : QString::fromStdString(r.module)) : QString();
    case WhatCol: return QString::fromStdString(r.what);
    case DetailCol: return QString::fromStdString(r.detail);
    default: return {};
    }
}

QVariant ChangesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case ChangeCol: return tr("Change");
    case NameCol: return tr("A → B");
    case OpCol: return tr("Op");
    case ModuleCol: return tr("Module");
    case WhatCol: return tr("What");
    case DetailCol: return tr("Detail");
    default: return {};
    }
}

}  // namespace irscope::widgets

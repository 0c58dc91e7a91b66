#include "widgets/debugger/inputs_model.h"

#include <QColor>

#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"

namespace irscope::widgets {

InputsModel::InputsModel(DebugController* c, QObject* parent) : QAbstractTableModel(parent), c_(c) {}

void InputsModel::refresh() {
    beginResetModel();
    rows_ = c_->values()->inputRows();
    endResetModel();
}

int InputsModel::rowCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(rows_.size()); }
int InputsModel::columnCount(const QModelIndex& p) const { return p.isValid() ? 0 : ColumnCount; }

QVariant InputsModel::headerData(int s, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Input", "IR shape", "IR dtype", "Source", "Value", "Problem"};
    return QString::fromLatin1(names[s]);
}

QVariant InputsModel::data(const QModelIndex& i, int role) const {
    const auto& r = rows_[i.row()];
    if (role == Qt::DisplayRole) {
        switch (i.column()) {
        case Name: return q(r.name);
        case IrShape: return shapeText(r.irShape);
        case IrDtype: return q(r.irDtype);
        case Source: return q(exec::inputSourceName(r.source));
        case Value:
            return r.loadedDtype.empty() ? QStringLiteral("—")
                                         : shapeText(r.loadedShape) + QLatin1Char(' ') + q(r.loadedDtype);
        case Problem: return q(r.problem);
        }
    } else if (role == Qt::ForegroundRole && i.column() == Problem) {
        return QColor("#d0302a");
    }
    return {};
}

}  // namespace irscope::widgets

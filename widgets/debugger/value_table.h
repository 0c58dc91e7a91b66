#pragma once
// What the value docks (Weights, Constants, Inputs) share: their tables look
// and behave alike, a clicked weight row selects its placeholder on the graph
// and shows its tensor, and their file dialogs offer the same tensor files.
#include <QString>

#include "core/exec/debugger/debugger.h"

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace irscope::widgets {

class DebugController;

// A read-only, sortable, single-row-selection table over `model`.
QTableView* makeValueTable(QWidget* parent, QAbstractItemModel* model);
// Selects the row's placeholder (when it has one) and shows its tensor in the viewer.
void showWeightRow(DebugController* controller, const exec::WeightRow& row);
// The filter of the "Load …" dialogs.
QString tensorFileFilter();

}  // namespace irscope::widgets

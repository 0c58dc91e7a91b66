#pragma once
// Whether the charts (widgets/charts/charts.h) can be drawn. In every program
// but the app they are linked in; the app loads them as a module after its
// first frame (app/gui/gui_main.cpp), and when that module cannot load (a
// broken install) a panel shows the reason where its chart would be, instead
// of calling into code that is not there.
#include <QString>

namespace irscope::widgets {

bool chartsAvailable();
// Why they are not ("" while they are).
QString chartsMissingReason();
// Called by the app once, before the panels that draw charts are made.
void setChartsMissing(const QString& reason);

}  // namespace irscope::widgets

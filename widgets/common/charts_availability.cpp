#include "widgets/common/charts_availability.h"

namespace irscope::widgets {

namespace {
QString& missingReason() {
    static QString reason;
    return reason;
}
}  // namespace

bool chartsAvailable() { return missingReason().isEmpty(); }

QString chartsMissingReason() { return missingReason(); }

void setChartsMissing(const QString& reason) { missingReason() = reason; }

}  // namespace irscope::widgets

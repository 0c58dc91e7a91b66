#include "widgets/debugger/tensor_report_text.h"

#include <QCoreApplication>

#include "widgets/common/qt_text.h"

namespace irscope::widgets {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TensorViewer", text); }
QString num(double v) { return QString::number(v, 'g', 6); }
QString redUnlessZero(int64_t n) {
    return n ? QStringLiteral("<b style='color:#d0302a'>%1</b>").arg(n) : QStringLiteral("0");
}

}  // namespace

QString summaryHtml(const exec::TensorSummary& b) {
    return tr("<table cellspacing=4>"
              "<tr><td>shape</td><td><b>%1</b></td></tr><tr><td>dtype</td><td>%2</td></tr>"
              "<tr><td>elements</td><td>%3</td></tr><tr><td>bytes</td><td>%4</td></tr>"
              "<tr><td>min</td><td>%5</td></tr><tr><td>max</td><td>%6</td></tr>"
              "<tr><td>mean</td><td>%7</td></tr><tr><td>std</td><td>%8</td></tr>"
              "<tr><td>zeros</td><td>%9</td></tr><tr><td>NaN</td><td>%10</td></tr>"
              "<tr><td>+Inf</td><td>%11</td></tr><tr><td>−Inf</td><td>%12</td></tr></table>")
        .arg(shapeText(b.shape), q(b.dtype))
        .arg(b.numel)
        .arg(q(exec::formatBytes(b.bytes)))
        .arg(num(b.min), num(b.max), num(b.mean), num(b.std))
        .arg(b.zeros)
        .arg(redUnlessZero(b.nans))
        .arg(redUnlessZero(b.posInfs))
        .arg(redUnlessZero(b.negInfs));
}

QString histogramCaption(const std::optional<exec::Histogram>& h) {
    if (!h) return tr("No value");
    if (h->finite <= 0)
        return tr("No finite values (%1 NaN, %2 +Inf, %3 −Inf)").arg(h->nans).arg(h->posInfs).arg(h->negInfs);
    return tr("%1 finite values in 64 bins over [%2, %3]; excluded: %4 NaN, %5 +Inf, %6 −Inf")
        .arg(h->finite)
        .arg(num(h->lo), num(h->hi))
        .arg(h->nans)
        .arg(h->posInfs)
        .arg(h->negInfs);
}

QString compareHtml(const exec::Comparison& r, const QString& divergence) {
    QString html;
    if (!r.problem.empty()) {
        html = tr("<i>%1</i>").arg(q(r.problem).toHtmlEscaped());
    } else {
        html = tr("<b style='color:%1'>%2</b> — %3 of %4 elements outside the tolerance<br>"
                  "max abs diff <b>%5</b>, max rel diff <b>%6</b> at %7 (value %8, reference %9)")
                   .arg(r.matched ? QStringLiteral("#2a8a3a") : QStringLiteral("#d0302a"),
                        r.matched ? tr("matches") : tr("differs"))
                   .arg(r.mismatches)
                   .arg(r.numel)
                   .arg(num(r.maxAbsDiff), num(r.maxRelDiff), shapeText(r.worstIndex), num(r.worstActual),
                        num(r.worstExpected));
    }
    if (!divergence.isEmpty()) html += QStringLiteral("<br><br>") + divergence.toHtmlEscaped();
    return html;
}

}  // namespace irscope::widgets

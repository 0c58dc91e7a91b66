#include "widgets/graph_view/overlay_legend.h"

#include <algorithm>

#include <QPainter>

namespace irscope::widgets {

namespace {
constexpr int kPad = 6, kSwatch = 12, kGap = 6;
}

OverlayLegend::OverlayLegend(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("overlayLegend"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    hide();
}

void OverlayLegend::setLegend(const QString& title, std::vector<std::pair<QColor, QString>> entries) {
    title_ = title;
    entries_ = std::move(entries);
    setVisible(!title_.isEmpty());
    resize(sizeHint());
    update();
}

QSize OverlayLegend::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    QFont bold = font();
    bold.setBold(true);
    int w = QFontMetrics(bold).horizontalAdvance(title_);
    for (const auto& e : entries_) w = std::max(w, kSwatch + kGap + fm.horizontalAdvance(e.second));
    const int h = fm.height() + static_cast<int>(entries_.size()) * std::max(fm.height(), kSwatch + 2);
    return {w + 2 * kPad, h + 2 * kPad};
}

void OverlayLegend::setFaded(bool faded) {
    if (faded == faded_) return;
    faded_ = faded;
    update();
}

void OverlayLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (faded_) p.setOpacity(0.3);
    QColor bg = palette().color(QPalette::Base);
    bg.setAlpha(215);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(bg);
    p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 4, 4);
    const QFontMetrics fm = fontMetrics();
    p.setPen(palette().color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(kPad, kPad + fm.ascent(), title_);
    p.setFont(font());
    int y = kPad + fm.height();
    const int row = std::max(fm.height(), kSwatch + 2);
    for (const auto& [colour, text] : entries_) {
        p.setPen(palette().color(QPalette::Mid));
        p.setBrush(colour);
        p.drawRect(kPad, y + (row - kSwatch) / 2, kSwatch, kSwatch);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(kPad + kSwatch + kGap, y + (row - fm.height()) / 2 + fm.ascent(), text);
        y += row;
    }
}

}  // namespace irscope::widgets

#pragma once
// OverlayLegend: the key to the debugger's overlay, in the graph view's
// bottom-left corner (the minimap has the right): what is coloured, and a
// swatch per band with the value it stands for. Hidden without an overlay.
// Translucent, like the minimap, so nodes under it stay visible.
#include <utility>
#include <vector>

#include <QColor>
#include <QWidget>

namespace irscope::widgets {

class OverlayLegend : public QWidget {
    Q_OBJECT
public:
    explicit OverlayLegend(QWidget* parent = nullptr);
    void setLegend(const QString& title, std::vector<std::pair<QColor, QString>> entries);
    QString title() const { return title_; }
    const std::vector<std::pair<QColor, QString>>& entries() const { return entries_; }
    QSize sizeHint() const override;
    // Faded: it could find no corner free of nodes (GraphView::placeLegends),
    // so it lets them show through.
    void setFaded(bool faded);
    bool faded() const { return faded_; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString title_;
    std::vector<std::pair<QColor, QString>> entries_;
    bool faded_ = false;
};

}  // namespace irscope::widgets

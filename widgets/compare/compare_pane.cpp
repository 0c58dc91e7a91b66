#include "widgets/compare/compare_pane.h"

#include <cmath>
#include <limits>

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/compare/compare_session.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/session/diff_marks.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {
// The drawn node nearest to `p` (scene coordinates), -1 when none is near.
int64_t nodeNear(const DocumentLayout& layout, const QPointF& p) {
    for (double half : {150.0, 600.0, 2400.0}) {
        const layout::Rect area{p.x() - half, p.y() - half, 2 * half, 2 * half};
        int64_t best = -1;
        double bestDist = std::numeric_limits<double>::max();
        for (int32_t item : layout.grid.itemsIn(area)) {
            const ItemRef ref = layout.refOf(item);
            if (!ref.isNode()) continue;
            const auto c = layout.result.items[static_cast<size_t>(item)].rect.center();
            const double d = std::hypot(c.x - p.x(), c.y - p.y());
            if (d < bestDist) {
                bestDist = d;
                best = ref.index;
            }
        }
        if (best >= 0) return best;
    }
    return -1;
}

// Scene centre of the item drawing `node` (a closed module's box when it is hidden).
bool centreOf(const DocumentLayout& layout, int64_t node, QPointF& out) {
    const auto items = layout.itemsOf(ItemRef::node(node));
    if (items.empty()) return false;
    const auto c = layout.result.items[static_cast<size_t>(items.front())].rect.center();
    out = QPointF(c.x, c.y);
    return true;
}
}  // namespace

ComparePane::ComparePane(CompareSession* compare, GraphView* viewA, QWidget* parent)
    : QWidget(parent),
      compare_(compare),
      viewA_(viewA),
      viewB_(new GraphView(compare->sideB(), this)),
      header_(new QLabel(this)) {
    setObjectName(QStringLiteral("comparePane"));
    viewB_->setObjectName(QStringLiteral("graphViewB"));
    header_->setObjectName(QStringLiteral("compareHeader"));
    header_->setTextFormat(Qt::RichText);
    // A long summary must not widen the pane (the splitter would squeeze A to nothing).
    header_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    header_->setMinimumWidth(1);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close the comparison"));
    auto* top = new QHBoxLayout;
    top->setContentsMargins(8, 2, 2, 2);
    top->addWidget(header_, 1);
    top->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(viewB_, 1);
    connect(close, &QToolButton::clicked, this, &ComparePane::closeRequested);
    connect(compare_, &CompareSession::opened, this, &ComparePane::updateHeader);
    connect(compare_, &CompareSession::diffReady, this, [this] {
        updateHeader();
        follow(viewA_, viewB_);
    });
    connect(compare_, &CompareSession::failed, this, [this](const QString& message) {
        header_->setText(QStringLiteral("<span style='color:#d0302a'>%1</span>").arg(message.toHtmlEscaped()));
    });
    watch(viewA_);
    watch(viewB_);
}

void ComparePane::updateHeader() {
    const QString b = QFileInfo(compare_->pathB()).fileName();
    QString text = tr("<b>B:</b> %1").arg(b.toHtmlEscaped());
    if (compare_->hasDiff()) text += QStringLiteral(" &nbsp;—&nbsp; ") + compare_->summary().toHtmlEscaped();
    header_->setText(text);
    header_->setToolTip(tr("B: %1\nA (left): %2").arg(compare_->pathB(), compare_->sideA()->filePath()));
}

void ComparePane::watch(GraphView* view) {
    auto moved = [this, view] {
        if (!sync_ || following_ || !compare_->hasDiff() || !isVisible()) return;
        follow(view, view == viewA_ ? viewB_ : viewA_);
    };
    connect(view, &GraphView::zoomChanged, this, moved);
    connect(view->horizontalScrollBar(), &QScrollBar::valueChanged, this, moved);
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, moved);
}

void ComparePane::follow(GraphView* from, GraphView* to) {
    const auto* layoutFrom = from->session()->layout();
    const auto* layoutTo = to->session()->layout();
    if (!layoutFrom || !layoutTo || !compare_->hasDiff()) return;
    const QPointF centre = from->visibleSceneRect().center();
    const int64_t node = nodeNear(*layoutFrom, centre);
    if (node < 0) return;
    const int64_t partner = from == viewA_ ? compare_->partnerInB(node) : compare_->partnerInA(node);
    QPointF here, there;
    if (partner < 0 || !centreOf(*layoutFrom, node, here) || !centreOf(*layoutTo, partner, there)) return;
    following_ = true;
    to->setZoom(from->zoom());
    to->centerOnScene(there + (centre - here));
    following_ = false;
}

}  // namespace irscope::widgets

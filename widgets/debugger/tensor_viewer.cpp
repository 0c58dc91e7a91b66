#include "widgets/debugger/tensor_viewer.h"

#include <cmath>

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString shapeText(const std::vector<int64_t>& s) {
    QStringList parts;
    for (int64_t d : s) parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString num(double v) { return QString::number(v, 'g', 6); }

// Viridis-like sequential map; blue-white-red diverging map.
QRgb colorAt(double t, bool diverging) {
    t = std::clamp(t, 0.0, 1.0);
    static const QColor seq[] = {QColor("#440154"), QColor("#3b528b"), QColor("#21918c"), QColor("#5ec962"), QColor("#fde725")};
    static const QColor div[] = {QColor("#2166ac"), QColor("#92c5de"), QColor("#f7f7f7"), QColor("#f4a582"), QColor("#b2182b")};
    const QColor* stops = diverging ? div : seq;
    const double x = t * 4;
    const int i = std::min(3, static_cast<int>(x));
    const double u = x - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return qRgb(static_cast<int>(a.red() + (b.red() - a.red()) * u), static_cast<int>(a.green() + (b.green() - a.green()) * u),
                static_cast<int>(a.blue() + (b.blue() - a.blue()) * u));
}

}  // namespace

// ------------------------------------------------------------------ SliceModel

SliceModel::SliceModel(DebugController* c, QObject* parent) : QAbstractTableModel(parent), c_(c) {}

void SliceModel::setSlice(const QString& tensor, exec::ValueSide side, std::vector<int64_t> lead, int64_t rows,
                          int64_t cols, bool integral) {
    beginResetModel();
    tensor_ = tensor;
    side_ = side;
    lead_ = std::move(lead);
    // A view shows at most 2^31 rows/cols; QHeaderView copes with millions.
    rows_ = std::min<int64_t>(rows, 10'000'000);
    cols_ = std::min<int64_t>(cols, 100'000);
    integral_ = integral;
    blocks_.clear();
    endResetModel();
}

void SliceModel::setFormat(char format, int precision) {
    format_ = format;
    precision_ = precision;
    if (rows_ && cols_) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int SliceModel::rowCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(rows_); }
int SliceModel::columnCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(cols_); }

double SliceModel::value(int row, int col) const {
    const auto* dbg = c_->debugger();
    if (!dbg || row < 0 || col < 0 || row >= rows_ || col >= cols_) return NAN;
    const int64_t br = row / kBlock, bc = col / kBlock;
    auto it = blocks_.find({br, bc});
    if (it == blocks_.end()) {
        if (blocks_.size() > 512) blocks_.clear();   // bounded cache
        auto b = dbg->block(tensor_.toStdString(), lead_, br * kBlock, bc * kBlock, kBlock, kBlock, side_);
        it = blocks_.emplace(std::make_pair(br, bc), std::move(b)).first;
    }
    const int64_t ncols = std::min<int64_t>(kBlock, cols_ - bc * kBlock);
    const size_t k = static_cast<size_t>((row - br * kBlock) * ncols + (col - bc * kBlock));
    return k < it->second.size() ? it->second[k] : NAN;
}

QVariant SliceModel::data(const QModelIndex& i, int role) const {
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::UserRole) return {};
    const double v = value(i.row(), i.column());
    if (role == Qt::UserRole) return v;
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (integral_) return QString::number(static_cast<qlonglong>(v));
    if (role == Qt::ToolTipRole) return QString::number(v, 'g', 17);
    return QString::number(v, format_, precision_);
}

QVariant SliceModel::headerData(int s, Qt::Orientation, int role) const {
    if (role == Qt::DisplayRole) return QString::number(s);
    return {};
}

// ------------------------------------------------------------------ HeatmapWidget

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(160, 120);
}

void HeatmapWidget::setData(const exec::Heatmap& h, bool diverging) {
    h_ = h;
    diverging_ = diverging;
    message_.clear();
    lo_ = h.min;
    hi_ = h.max;
    if (diverging) {
        const double m = std::max(std::abs(lo_), std::abs(hi_));
        lo_ = -m;
        hi_ = m;
    }
    image_ = QImage(static_cast<int>(h.cols), static_cast<int>(h.rows), QImage::Format_RGB32);
    for (int64_t r = 0; r < h.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(static_cast<int>(r)));
        for (int64_t c = 0; c < h.cols; ++c) {
            const float v = h.values[r * h.cols + c];
            if (std::isnan(v)) line[c] = qRgb(255, 0, 255);
            else if (std::isinf(v)) line[c] = v > 0 ? qRgb(255, 255, 255) : qRgb(0, 0, 0);
            else line[c] = colorAt(hi_ > lo_ ? (v - lo_) / (hi_ - lo_) : 0.5, diverging_);
        }
    }
    update();
}

void HeatmapWidget::clear(const QString& message) {
    h_ = {};
    image_ = {};
    message_ = message;
    update();
}

QRectF HeatmapWidget::imageRect() const {
    if (image_.isNull()) return {};
    const QRectF area(8, 8, width() - 90, height() - 16);
    const double sx = area.width() / image_.width(), sy = area.height() / image_.height();
    const double s = std::min(sx, sy);
    return QRectF(area.x(), area.y(), image_.width() * s, image_.height() * s);
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (image_.isNull()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, message_.isEmpty() ? tr("No value") : message_);
        return;
    }
    const QRectF r = imageRect();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(r, image_);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(r);
    // Colour scale.
    const QRectF bar(width() - 74, 8, 14, std::max(40.0, height() - 16.0));
    for (int y = 0; y < static_cast<int>(bar.height()); ++y) {
        const double t = 1.0 - y / bar.height();
        p.setPen(QColor(colorAt(t, diverging_)));
        p.drawLine(QPointF(bar.left(), bar.top() + y), QPointF(bar.right(), bar.top() + y));
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawRect(bar);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    p.drawText(QPointF(bar.right() + 3, bar.top() + 10), num(hi_));
    p.drawText(QPointF(bar.right() + 3, bar.center().y() + 4), num((hi_ + lo_) / 2));
    p.drawText(QPointF(bar.right() + 3, bar.bottom()), num(lo_));
    if (h_.stride > 1)
        p.drawText(QPointF(r.left(), r.bottom() + 12 > height() ? height() - 2 : r.bottom() + 12),
                   tr("every %1th element (slice %2×%3)").arg(h_.stride).arg(h_.sliceRows).arg(h_.sliceCols));
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* e) {
    const QRectF r = imageRect();
    if (image_.isNull() || !r.contains(e->position())) return;
    const int c = static_cast<int>((e->position().x() - r.x()) / r.width() * h_.cols);
    const int row = static_cast<int>((e->position().y() - r.y()) / r.height() * h_.rows);
    if (c < 0 || row < 0 || c >= h_.cols || row >= h_.rows) return;
    QToolTip::showText(e->globalPosition().toPoint(),
                       tr("[%1, %2] = %3").arg(row * h_.stride).arg(c * h_.stride).arg(num(h_.values[row * h_.cols + c])), this);
}

// ------------------------------------------------------------------ TensorViewer

TensorViewer::TensorViewer(DebugController* c, bool follows, QWidget* parent)
    : QWidget(parent), c_(c), follows_(follows) {
    setObjectName(follows ? QStringLiteral("tensorViewer") : QStringLiteral("pinnedTensorViewer"));
    title_ = new QLabel(this);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setWordWrap(true);
    side_ = new QComboBox(this);
    side_->addItems({tr("Value"), tr("Reference"), tr("Difference")});
    side_->setToolTip(tr("Show the computed value, the reference value, or computed − reference"));
    format_ = new QComboBox(this);
    format_->addItems({tr("auto"), tr("fixed"), tr("scientific")});
    pin_ = new QToolButton(this);
    pin_->setText(follows ? tr("Pin") : tr("Close"));
    pin_->setToolTip(follows ? tr("Keep this tensor open while stepping (a new viewer follows the selection)")
                             : tr("Close this pinned viewer"));
    auto* exportBtn = new QToolButton(this);
    exportBtn->setText(tr("Export…"));
    leadBox_ = new QWidget(this);
    leadLayout_ = new QHBoxLayout(leadBox_);
    leadLayout_->setContentsMargins(0, 0, 0, 0);

    auto* head = new QHBoxLayout;
    head->addWidget(title_, 1);
    head->addWidget(side_);
    head->addWidget(exportBtn);
    head->addWidget(pin_);
    auto* sliceRow = new QHBoxLayout;
    sliceRow->addWidget(leadBox_);
    sliceRow->addStretch(1);
    sliceRow->addWidget(new QLabel(tr("Format:"), this));
    sliceRow->addWidget(format_);

    tabs_ = new QTabWidget(this);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("tensorSummary"));
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setMargin(6);
    tabs_->addTab(summary_, tr("Summary"));
    model_ = new SliceModel(c, this);
    values_ = new QTableView(this);
    values_->setObjectName(QStringLiteral("tensorValues"));
    values_->setModel(model_);
    values_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    values_->verticalHeader()->setDefaultSectionSize(20);
    values_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    values_->horizontalHeader()->setDefaultSectionSize(86);
    tabs_->addTab(values_, tr("Values"));
    auto* histPage = new QWidget(this);
    chart_ = new QChartView(histPage);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumHeight(120);
    histInfo_ = new QLabel(histPage);
    auto* hl = new QVBoxLayout(histPage);
    hl->setContentsMargins(0, 0, 0, 0);
    hl->addWidget(chart_, 1);
    hl->addWidget(histInfo_);
    tabs_->addTab(histPage, tr("Histogram"));
    heat_ = new HeatmapWidget(this);
    heat_->setObjectName(QStringLiteral("tensorHeatmap"));
    tabs_->addTab(heat_, tr("Heatmap"));
    auto* cmpPage = new QWidget(this);
    compare_ = new QLabel(cmpPage);
    compare_->setObjectName(QStringLiteral("tensorCompare"));
    compare_->setWordWrap(true);
    compare_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* goFirst = new QPushButton(tr("Go to first divergent node"), cmpPage);
    diffHeat_ = new HeatmapWidget(cmpPage);
    auto* cl = new QVBoxLayout(cmpPage);
    auto* cr = new QHBoxLayout;
    cr->addWidget(compare_, 1);
    cr->addWidget(goFirst, 0, Qt::AlignTop);
    cl->addLayout(cr);
    cl->addWidget(diffHeat_, 1);
    tabs_->addTab(cmpPage, tr("Compare"));

    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(head);
    lay->addLayout(sliceRow);
    lay->addWidget(tabs_, 1);

    connect(side_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(format_, &QComboBox::currentIndexChanged, this, [this](int i) {
        model_->setFormat(i == 1 ? 'f' : i == 2 ? 'e' : 'g', i == 0 ? 6 : 4);
    });
    connect(pin_, &QToolButton::clicked, this, [this] {
        if (follows_) emit pinRequested(this);
        else emit closeRequested(this);
    });
    connect(exportBtn, &QToolButton::clicked, this, [this] {
        if (tensor_.isEmpty()) return;
        QString base = tensor_;
        base.replace(QLatin1Char('/'), QLatin1Char('_'));
        const QString f = QFileDialog::getSaveFileName(this, tr("Export tensor"), base + QStringLiteral(".npy"),
                                                       QStringLiteral("NumPy (*.npy);;PyTorch (*.pt);;safetensors (*.safetensors)"));
        if (f.isEmpty()) return;
        const QString err = c_->exportTensor(tensor_, f, side());
        if (!err.isEmpty()) emit c_->errorOccurred(err);
    });
    connect(goFirst, &QPushButton::clicked, c_, &DebugController::goToFirstDivergence);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { refresh(); });
    if (follows_) connect(c_, &DebugController::focusTensorChanged, this, &TensorViewer::setTensor);
    connect(c_, &DebugController::nodeStatesChanged, this, [this] {
        if (!c_->isRunning()) refresh();
    });
    connect(c_, &DebugController::valuesChanged, this, [this] { refresh(); });
    connect(c_, &DebugController::divergenceChanged, this, [this] {
        if (tabs_->currentIndex() == 4) updateCompare();
    });
    connect(c_, &DebugController::debuggerReset, this, [this] { setTensor({}); });
    refresh();
}

exec::ValueSide TensorViewer::side() const { return static_cast<exec::ValueSide>(side_->currentIndex()); }

void TensorViewer::setTensor(const QString& tensor) {
    if (tensor != tensor_) lead_.clear();
    tensor_ = tensor;
    refresh();
}

QString TensorViewer::summaryText() const { return summary_->text(); }
QString TensorViewer::compareText() const { return compare_->text(); }

void TensorViewer::rebuildSlice() {
    // Spin boxes for the leading dimensions (batch, channel, ...).
    for (auto* s : leadSpins_) s->deleteLater();
    leadSpins_.clear();
    while (auto* item = leadLayout_->takeAt(0)) {
        if (item->widget()) item->widget()->deleteLater();
        delete item;
    }
    if (lead_.size() != geo_.lead.size()) lead_.assign(geo_.lead.size(), 0);
    if (!geo_.lead.empty()) leadLayout_->addWidget(new QLabel(tr("Slice"), leadBox_));
    for (size_t k = 0; k < geo_.lead.size(); ++k) {
        auto* s = new QSpinBox(leadBox_);
        s->setRange(0, static_cast<int>(std::max<int64_t>(geo_.lead[k] - 1, 0)));
        s->setValue(static_cast<int>(std::min<int64_t>(lead_[k], geo_.lead[k] - 1)));
        s->setPrefix(geo_.shape.size() == 4 ? (k == 0 ? tr("n ") : tr("ch ")) : tr("d%1 ").arg(k));
        s->setToolTip(tr("Index in dimension %1 (size %2)").arg(k).arg(geo_.lead[k]));
        connect(s, &QSpinBox::valueChanged, this, [this, k](int v) {
            if (k < lead_.size()) lead_[k] = v;
            updateSlice();
        });
        leadLayout_->addWidget(s);
        leadSpins_.push_back(s);
    }
    if (!geo_.shape.empty())
        leadLayout_->addWidget(new QLabel(tr(": %1 × %2").arg(geo_.rows).arg(geo_.cols), leadBox_));
}

void TensorViewer::updateSlice() {
    const bool diff = side() == exec::ValueSide::Difference;
    model_->setSlice(tensor_, side(), lead_, geo_.rows, geo_.cols, geo_.integral && !diff);
    if (tabs_->currentIndex() == 3) {
        if (auto h = c_->debugger()->heatmap(tensor_.toStdString(), lead_, 512, side())) heat_->setData(*h, diff);
        else heat_->clear(tr("No value"));
    }
    if (tabs_->currentIndex() == 4) updateCompare();
}

void TensorViewer::updateHistogram() {
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    auto h = c_->debugger()->histogram(tensor_.toStdString(), 64, side());
    if (h && h->finite > 0) {
        hist_ = *h;
        auto* upper = new QLineSeries;
        auto* lower = new QLineSeries;
        const double w = (h->hi - h->lo) / h->counts.size();
        int64_t mx = 1;
        for (size_t i = 0; i < h->counts.size(); ++i) {
            const double x0 = h->lo + w * i, x1 = x0 + w;
            upper->append(x0, h->counts[i]);
            upper->append(x1, h->counts[i]);
            lower->append(x0, 0);
            lower->append(x1, 0);
            mx = std::max(mx, h->counts[i]);
        }
        auto* area = new QAreaSeries(upper, lower);
        area->setColor(QColor("#3b7dd8"));
        area->setBorderColor(QColor("#1f4e99"));
        chart->addSeries(area);
        auto* ax = new QValueAxis;
        ax->setRange(h->lo, h->hi);
        ax->setLabelFormat(QStringLiteral("%.3g"));
        ax->setTickCount(5);
        auto* ay = new QValueAxis;
        ay->setRange(0, mx * 1.05);
        ay->setLabelFormat(QStringLiteral("%d"));
        chart->addAxis(ax, Qt::AlignBottom);
        chart->addAxis(ay, Qt::AlignLeft);
        area->attachAxis(ax);
        area->attachAxis(ay);
        histInfo_->setText(tr("%1 finite values in 64 bins over [%2, %3]; excluded: %4 NaN, %5 +Inf, %6 −Inf")
                               .arg(h->finite).arg(num(h->lo), num(h->hi)).arg(h->nans).arg(h->posInfs).arg(h->negInfs));
    } else {
        hist_ = h ? *h : exec::Histogram{};
        histInfo_->setText(h ? tr("No finite values (%1 NaN, %2 +Inf, %3 −Inf)").arg(h->nans).arg(h->posInfs).arg(h->negInfs)
                             : tr("No value"));
    }
    QChart* old = chart_->chart();
    chart_->setChart(chart);
    delete old;
}

void TensorViewer::updateCompare() {
    const auto* dbg = c_->debugger();
    const std::string t = tensor_.toStdString();
    exec::DiffReport r = dbg->compare(t);
    QString html;
    if (!r.comparable) {
        html = tr("<i>%1</i>").arg(q(r.problem.empty() ? "not comparable" : r.problem).toHtmlEscaped());
        diffHeat_->clear(tr("Load expected outputs (--expected) or reference intermediates to compare."));
    } else {
        html = tr("<b style='color:%1'>%2</b> — %3 of %4 elements outside the tolerance<br>"
                  "max abs diff <b>%5</b>, max rel diff <b>%6</b> at %7 (value %8, reference %9)")
                   .arg(r.matched ? QStringLiteral("#2a8a3a") : QStringLiteral("#d0302a"),
                        r.matched ? tr("matches") : tr("differs"))
                   .arg(r.mismatches)
                   .arg(r.numel)
                   .arg(num(r.maxAbs), num(r.maxRel), shapeText(r.worstIndex), num(r.worstActual), num(r.worstExpected));
        if (auto h = dbg->heatmap(t, lead_, 512, exec::ValueSide::Difference)) diffHeat_->setData(*h, true);
    }
    const auto& d = c_->divergence();
    if (!d.message.empty()) html += QStringLiteral("<br><br>") + q(d.message).toHtmlEscaped();
    compare_->setText(html);
}

void TensorViewer::refresh() {
    const auto* dbg = c_->debugger();
    const std::string t = tensor_.toStdString();
    std::optional<exec::SliceGeometry> geo = dbg && !t.empty() ? dbg->geometry(t, side()) : std::nullopt;
    if (!dbg || tensor_.isEmpty()) {
        title_->setText(tr("<i>Click a node, an input, an output or a weight to inspect its tensor.</i>"));
    } else {
        const QString where = q(dbg->describe(t));
        title_->setText(QStringLiteral("<b>%1</b> %2").arg(tensor_.toHtmlEscaped(), where.isEmpty() ? QString() : QStringLiteral("— ") + where.toHtmlEscaped()));
    }
    if (!geo) {
        geo_ = {};
        rebuildSlice();
        model_->setSlice({}, side(), {}, 0, 0, false);
        QString why = tr("No value yet.");
        if (dbg && !t.empty()) {
            if (side() != exec::ValueSide::Actual && !dbg->hasReference(t)) why = tr("No reference value for this tensor.");
            else if (!dbg->hasValue(t)) why = tr("No value yet: this node has not run (or its value was freed by the retention policy).");
            else why = tr("The value and the reference have different shapes.");
        }
        summary_->setText(tensor_.isEmpty() ? QString() : why);
        heat_->clear(why);
        hist_ = {};
        histInfo_->setText(why);
        if (chart_->chart()) chart_->chart()->removeAllSeries();
        if (dbg && !t.empty()) updateCompare();
        return;
    }
    const bool shapeChanged = geo->shape != geo_.shape;
    geo_ = *geo;
    if (shapeChanged || leadSpins_.size() != geo_.lead.size()) rebuildSlice();
    if (auto s = dbg->summary(t, side())) {
        const auto& b = s->base;
        summary_->setText(
            tr("<table cellspacing=4>"
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
                .arg(b.nans ? QStringLiteral("<b style='color:#d0302a'>%1</b>").arg(b.nans) : QStringLiteral("0"))
                .arg(s->posInfs ? QStringLiteral("<b style='color:#d0302a'>%1</b>").arg(s->posInfs) : QStringLiteral("0"))
                .arg(s->negInfs ? QStringLiteral("<b style='color:#d0302a'>%1</b>").arg(s->negInfs) : QStringLiteral("0")));
    }
    updateSlice();
    if (tabs_->currentIndex() == 2) updateHistogram();
}

// ------------------------------------------------------------------ TensorViewerArea

TensorViewerArea::TensorViewerArea(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("tensorViewerArea"));
    split_ = new QSplitter(Qt::Horizontal, this);
    follower_ = new TensorViewer(c, true, split_);
    split_->addWidget(follower_);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(split_);
    connect(follower_, &TensorViewer::pinRequested, this, [this](TensorViewer* v) { pin(v); });
}

std::vector<TensorViewer*> TensorViewerArea::viewers() const {
    std::vector<TensorViewer*> v;
    for (int i = 0; i < split_->count(); ++i)
        if (auto* t = qobject_cast<TensorViewer*>(split_->widget(i))) v.push_back(t);
    return v;
}

TensorViewer* TensorViewerArea::pin(TensorViewer* viewer) {
    if (!viewer || viewer->tensor().isEmpty()) return nullptr;
    auto* p = new TensorViewer(c_, false, split_);
    p->setTensor(viewer->tensor());
    p->tabs()->setCurrentIndex(viewer->tabs()->currentIndex());
    split_->addWidget(p);
    c_->setPinned(viewer->tensor(), true);
    connect(p, &TensorViewer::closeRequested, this, [this](TensorViewer* v) {
        c_->setPinned(v->tensor(), false);
        v->deleteLater();
    });
    return p;
}

}  // namespace irscope::widgets

#include "widgets/common/qt_text.h"
#include "widgets/debugger/tensor_viewer.h"

#include <cmath>
#include <optional>

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
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {

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

SliceModel::SliceModel(DebugController* c, QObject* parent)
    : QAbstractTableModel(parent), c_(c), liveGen_(std::make_shared<std::atomic<quint64>>(gen_)) {}

bool SliceModel::setSlice(const QString& tensor, exec::ValueSide side, std::vector<int64_t> lead, int64_t rows,
                          int64_t cols, bool integral) {
    // A view shows at most 2^31 rows/cols; QHeaderView copes with millions.
    rows = std::min<int64_t>(rows, 10'000'000);
    cols = std::min<int64_t>(cols, 100'000);
    if (tensor == tensor_ && side == side_ && lead == lead_ && rows == rows_ && cols == cols_ && integral == integral_)
        return false;
    beginResetModel();
    tensor_ = tensor;
    side_ = side;
    lead_ = std::move(lead);
    rows_ = rows;
    cols_ = cols;
    integral_ = integral;
    blocks_.clear();
    pending_.clear();
    liveGen_->store(++gen_);
    endResetModel();
    emit pendingChanged(0);
    return true;
}

void SliceModel::refetch() {
    if (!rows_ || !cols_) return;
    pending_.clear();
    liveGen_->store(++gen_);
    // Cached blocks stay on screen (stale) until their new values arrive.
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit pendingChanged(0);
}

void SliceModel::setFormat(char format, int precision) {
    format_ = format;
    precision_ = precision;
    if (rows_ && cols_) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int SliceModel::rowCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(rows_); }
int SliceModel::columnCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(cols_); }

void SliceModel::request(int64_t br, int64_t bc) const {
    const auto key = std::make_pair(br, bc);
    if (pending_.count(key)) return;
    auto it = blocks_.find(key);
    if (it != blocks_.end() && it->second.gen == gen_) return;
    auto* self = const_cast<SliceModel*>(this);
    const std::string t = tensor_.toStdString();
    const quint64 gen = gen_;
    auto live = liveGen_;
    const bool posted = c_->query({}, self, [t, lead = lead_, side = side_, br, bc, gen, live, self](const exec::Debugger& d)
                                                -> std::function<void()> {
        if (live->load() != gen) return {};   // the slice changed while this waited: skip the work
        auto values = std::make_shared<std::vector<double>>(
            d.block(t, lead, br * kBlock, bc * kBlock, kBlock, kBlock, side));
        return [self, br, bc, gen, values] {
            if (gen != self->gen_) return;
            self->pending_.erase({br, bc});
            if (self->blocks_.size() > 512) self->blocks_.clear();   // bounded cache
            self->blocks_[{br, bc}] = Block{gen, std::move(*values)};
            const int r0 = static_cast<int>(br * kBlock), c0 = static_cast<int>(bc * kBlock);
            const int r1 = static_cast<int>(std::min<int64_t>(self->rows_, (br + 1) * kBlock)) - 1;
            const int c1 = static_cast<int>(std::min<int64_t>(self->cols_, (bc + 1) * kBlock)) - 1;
            emit self->dataChanged(self->index(r0, c0), self->index(r1, c1));
            emit self->pendingChanged(self->pending_.size());
        };
    });
    if (!posted) return;
    pending_.insert(key);
    emit self->pendingChanged(pending_.size());
}

void SliceModel::prefetch(int64_t row0, int64_t col0, int64_t row1, int64_t col1) const {
    if (!rows_ || !cols_ || tensor_.isEmpty()) return;
    row0 = std::clamp<int64_t>(row0, 0, rows_ - 1);
    row1 = std::clamp<int64_t>(row1, 0, rows_ - 1);
    col0 = std::clamp<int64_t>(col0, 0, cols_ - 1);
    col1 = std::clamp<int64_t>(col1, 0, cols_ - 1);
    for (int64_t br = row0 / kBlock; br <= row1 / kBlock; ++br)
        for (int64_t bc = col0 / kBlock; bc <= col1 / kBlock; ++bc) request(br, bc);
}

const SliceModel::Block* SliceModel::blockOf(int row, int col) const {
    if (row < 0 || col < 0 || row >= rows_ || col >= cols_) return nullptr;
    auto it = blocks_.find({row / kBlock, col / kBlock});
    return it == blocks_.end() ? nullptr : &it->second;
}

bool SliceModel::has(int row, int col) const {
    const Block* b = blockOf(row, col);
    return b && b->gen == gen_;
}

double SliceModel::value(int row, int col) const {
    const Block* b = blockOf(row, col);
    if (!b) return NAN;
    const int64_t br = row / kBlock, bc = col / kBlock;
    const int64_t ncols = std::min<int64_t>(kBlock, cols_ - bc * kBlock);
    const size_t k = static_cast<size_t>((row - br * kBlock) * ncols + (col - bc * kBlock));
    return k < b->values.size() ? b->values[k] : NAN;
}

QVariant SliceModel::data(const QModelIndex& i, int role) const {
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::UserRole && role != Qt::ForegroundRole) return {};
    const Block* b = blockOf(i.row(), i.column());
    if (!b || b->gen != gen_) request(i.row() / kBlock, i.column() / kBlock);   // async; repainted on arrival
    if (role == Qt::ForegroundRole) return b ? QVariant() : QVariant(QColor(Qt::gray));
    if (!b) return role == Qt::UserRole ? QVariant(NAN) : QVariant(QString::fromUtf8(kPlaceholder));
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
    busy_ = new QLabel(tr("computing…"), this);
    busy_->setObjectName(QStringLiteral("tensorBusy"));
    busy_->setStyleSheet(QStringLiteral("color: palette(mid); font-style: italic;"));
    busy_->setToolTip(tr("Waiting for the values from the query thread"));
    // Keeps its room so the header doesn't jump when it shows and hides.
    QSizePolicy busyPolicy = busy_->sizePolicy();
    busyPolicy.setRetainSizeWhenHidden(true);
    busy_->setSizePolicy(busyPolicy);
    busy_->hide();
    throttle_ = new QTimer(this);
    throttle_->setSingleShot(true);
    lastRefresh_.start();
    leadBox_ = new QWidget(this);
    leadLayout_ = new QHBoxLayout(leadBox_);
    leadLayout_->setContentsMargins(0, 0, 0, 0);

    auto* head = new QHBoxLayout;
    head->addWidget(title_, 1);
    head->addWidget(busy_);
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
        c_->exportTensorReportingErrors(tensor_, f, side());
    });
    connect(goFirst, &QPushButton::clicked, c_, &DebugController::goToFirstDivergence);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { refresh(); });
    if (follows_) connect(c_, &DebugController::focusTensorChanged, this, &TensorViewer::setTensor);
    connect(c_, &DebugController::nodeStatesChanged, this, &TensorViewer::onNodeStates);
    connect(c_, &DebugController::valuesChanged, this, [this] { refresh(); });
    connect(c_, &DebugController::divergenceChanged, this, [this] {
        if (tabs_->currentIndex() == 4) requestCompare();
    });
    connect(c_, &DebugController::debuggerReset, this, [this] {
        pending_.clear();   // the controller drops the old document's answers
        setTensor({});
    });
    connect(throttle_, &QTimer::timeout, this, &TensorViewer::refresh);
    connect(model_, &SliceModel::pendingChanged, this, &TensorViewer::updateBusy, Qt::QueuedConnection);   // may come while painting
    // The values table asks for its visible blocks as it paints; scrolling far
    // asks ahead for the newly visible part right away.
    auto prefetchVisible = [this] {
        if (tabs_->currentIndex() != 1) return;
        const int r0 = std::max(0, values_->rowAt(0)), c0 = std::max(0, values_->columnAt(0));
        int r1 = values_->rowAt(values_->viewport()->height() - 1), c1 = values_->columnAt(values_->viewport()->width() - 1);
        if (r1 < 0) r1 = model_->rowCount() - 1;
        if (c1 < 0) c1 = model_->columnCount() - 1;
        model_->prefetch(r0, c0, r1, c1);
    };
    connect(values_->verticalScrollBar(), &QScrollBar::valueChanged, this, prefetchVisible);
    connect(values_->horizontalScrollBar(), &QScrollBar::valueChanged, this, prefetchVisible);
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

QString TensorViewer::queryKey(const QString& what) const {
    return QStringLiteral("viewer/%1/%2").arg(reinterpret_cast<quintptr>(this), 0, 16).arg(what);
}

void TensorViewer::updateBusy() {
    const bool busy = isBusy();
    busy_->setVisible(busy);
    if (busy != wasBusy_) {
        wasBusy_ = busy;
        emit busyChanged(busy);
    }
}

// Runs `job` on the query thread; its continuation runs here unless a newer
// request of the same kind superseded it.
void TensorViewer::ask(const QString& what, Job job) {
    const QString asked = tensor_;
    auto wrapped = [this, what, asked, job = std::move(job)](const exec::Debugger& d) -> std::function<void()> {
        std::function<void()> cont;
        QString error;
        try {
            cont = job(d);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        // Runs on the UI thread only while this viewer lives (it owns the query).
        return [this, what, asked, cont, error] {
            pending_.remove(what);
            if (asked != tensor_) {   // the viewer moved on to another tensor (or none) meanwhile
                updateBusy();
                return;
            }
            if (!error.isEmpty()) summary_->setText(tr("<i>%1</i>").arg(error.toHtmlEscaped()));
            else if (cont) cont();
            updateBusy();
            emit updated(what);
        };
    };
    if (c_->query(queryKey(what), this, std::move(wrapped))) pending_.insert(what);
    updateBusy();
}

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
            // The slice moved: the heatmap and the difference heatmap follow.
            if (tabs_->currentIndex() == 3) requestHeatmap();
            if (tabs_->currentIndex() == 4) requestCompare();
        });
        leadLayout_->addWidget(s);
        leadSpins_.push_back(s);
    }
    if (!geo_.shape.empty())
        leadLayout_->addWidget(new QLabel(tr(": %1 × %2").arg(geo_.rows).arg(geo_.cols), leadBox_));
}

// The values table: a new slice resets it; the same slice after a run keeps
// the cached blocks on screen and fetches them again.
void TensorViewer::updateSlice() {
    const bool diff = side() == exec::ValueSide::Difference;
    if (!model_->setSlice(shownTensor_, side(), lead_, geo_.rows, geo_.cols, geo_.integral && !diff)) model_->refetch();
    if (tabs_->currentIndex() == 1) {
        // Ask for the visible part now (the view asks too as it paints).
        const int r0 = std::max(0, values_->rowAt(0)), c0 = std::max(0, values_->columnAt(0));
        const int vr = std::max(1, values_->viewport()->height() / std::max(1, values_->verticalHeader()->defaultSectionSize()));
        const int vc = std::max(1, values_->viewport()->width() / std::max(1, values_->horizontalHeader()->defaultSectionSize()));
        model_->prefetch(r0, c0, r0 + vr, c0 + vc);
    }
    updateBusy();
}

void TensorViewer::requestHeatmap() {
    const std::string t = shownTensor_.toStdString();
    const exec::ValueSide sd = side();
    ask(QStringLiteral("heatmap"), [t, lead = lead_, sd, this](const exec::Debugger& d) -> std::function<void()> {
        auto h = std::make_shared<std::optional<exec::Heatmap>>(d.heatmap(t, lead, 512, sd));
        return [this, h, sd] {
            if (*h) heat_->setData(**h, sd == exec::ValueSide::Difference);
            else heat_->clear(tr("No value"));
        };
    });
}

void TensorViewer::requestHistogram() {
    const std::string t = shownTensor_.toStdString();
    ask(QStringLiteral("histogram"), [t, sd = side(), this](const exec::Debugger& d) -> std::function<void()> {
        auto h = std::make_shared<std::optional<exec::Histogram>>(d.histogram(t, 64, sd));
        return [this, h] {
            auto* chart = new QChart;
            chart->legend()->hide();
            chart->setMargins(QMargins(2, 2, 2, 2));
            const auto& hh = *h;
            if (hh && hh->finite > 0) {
                hist_ = *hh;
                auto* upper = new QLineSeries;
                auto* lower = new QLineSeries;
                const double w = (hh->hi - hh->lo) / hh->counts.size();
                int64_t mx = 1;
                for (size_t i = 0; i < hh->counts.size(); ++i) {
                    const double x0 = hh->lo + w * i, x1 = x0 + w;
                    upper->append(x0, hh->counts[i]);
                    upper->append(x1, hh->counts[i]);
                    lower->append(x0, 0);
                    lower->append(x1, 0);
                    mx = std::max(mx, hh->counts[i]);
                }
                auto* area = new QAreaSeries(upper, lower);
                area->setColor(QColor("#3b7dd8"));
                area->setBorderColor(QColor("#1f4e99"));
                chart->addSeries(area);
                auto* ax = new QValueAxis;
                ax->setRange(hh->lo, hh->hi);
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
                                       .arg(hh->finite).arg(num(hh->lo), num(hh->hi)).arg(hh->nans).arg(hh->posInfs).arg(hh->negInfs));
            } else {
                hist_ = hh ? *hh : exec::Histogram{};
                histInfo_->setText(hh ? tr("No finite values (%1 NaN, %2 +Inf, %3 −Inf)").arg(hh->nans).arg(hh->posInfs).arg(hh->negInfs)
                                      : tr("No value"));
            }
            QChart* old = chart_->chart();
            chart_->setChart(chart);
            delete old;
        };
    });
}

void TensorViewer::requestCompare() {
    if (tensor_.isEmpty()) return;
    const std::string t = tensor_.toStdString();
    ask(QStringLiteral("compare"), [t, lead = lead_, this](const exec::Debugger& d) -> std::function<void()> {
        auto r = std::make_shared<exec::DiffReport>(d.compare(t));
        auto h = std::make_shared<std::optional<exec::Heatmap>>();
        if (r->comparable) *h = d.heatmap(t, lead, 512, exec::ValueSide::Difference);
        return [this, r, h] {
            QString html;
            if (!r->comparable) {
                html = tr("<i>%1</i>").arg(q(r->problem.empty() ? "not comparable" : r->problem).toHtmlEscaped());
                diffHeat_->clear(tr("Load expected outputs (--expected) or reference intermediates to compare."));
            } else {
                html = tr("<b style='color:%1'>%2</b> — %3 of %4 elements outside the tolerance<br>"
                          "max abs diff <b>%5</b>, max rel diff <b>%6</b> at %7 (value %8, reference %9)")
                           .arg(r->matched ? QStringLiteral("#2a8a3a") : QStringLiteral("#d0302a"),
                                r->matched ? tr("matches") : tr("differs"))
                           .arg(r->mismatches)
                           .arg(r->numel)
                           .arg(num(r->maxAbs), num(r->maxRel), shapeText(r->worstIndex), num(r->worstActual),
                                num(r->worstExpected));
                if (*h) diffHeat_->setData(**h, true);
            }
            const auto& dv = c_->divergence();
            if (!dv.message.empty()) html += QStringLiteral("<br><br>") + q(dv.message).toHtmlEscaped();
            compare_->setText(html);
        };
    });
}

// What the current tab shows, for the tensor the head answered.
void TensorViewer::requestTab() {
    switch (tabs_->currentIndex()) {
    case 0: {
        const std::string t = shownTensor_.toStdString();
        ask(QStringLiteral("summary"), [t, sd = side(), this](const exec::Debugger& d) -> std::function<void()> {
            auto s = std::make_shared<std::optional<exec::ValueSummary>>(d.summary(t, sd));
            return [this, s] {
                if (!*s) {
                    summary_->setText(tr("No value yet."));
                    return;
                }
                const auto& b = (*s)->base;
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
                        .arg((*s)->posInfs ? QStringLiteral("<b style='color:#d0302a'>%1</b>").arg((*s)->posInfs) : QStringLiteral("0"))
                        .arg((*s)->negInfs ? QStringLiteral("<b style='color:#d0302a'>%1</b>").arg((*s)->negInfs) : QStringLiteral("0")));
            };
        });
        break;
    }
    case 2: requestHistogram(); break;
    case 3: requestHeatmap(); break;
    case 4: requestCompare(); break;
    default: break;   // values: the table asks for its blocks
    }
}

// Cheap facts first (where it comes from, shape), then the tab's numbers.
struct TensorViewer::Head {
    QString tensor;
    QString where;
    std::optional<exec::SliceGeometry> geo;
    bool hasValue = false, hasReference = false;
};

void TensorViewer::showNoValue(const QString& why) {
    geo_ = {};
    rebuildSlice();
    model_->setSlice({}, side(), {}, 0, 0, false);
    summary_->setText(tensor_.isEmpty() ? QString() : why);
    heat_->clear(why);
    hist_ = {};
    histInfo_->setText(why);
    if (chart_->chart()) chart_->chart()->removeAllSeries();
}

void TensorViewer::applyHead(const Head& h) {
    if (h.tensor != shownTensor_) {
        // Another tensor: nothing of the old one stays on screen.
        shownTensor_ = h.tensor;
        summary_->setText(tr("<i>computing…</i>"));
        heat_->clear(tr("computing…"));
        diffHeat_->clear(tr("computing…"));
        compare_->setText(tr("<i>computing…</i>"));
        hist_ = {};
        histInfo_->setText(tr("computing…"));
        if (chart_->chart()) chart_->chart()->removeAllSeries();
    }
    title_->setText(QStringLiteral("<b>%1</b> %2").arg(h.tensor.toHtmlEscaped(),
                                                        h.where.isEmpty() ? QString() : QStringLiteral("— ") + h.where.toHtmlEscaped()));
    if (!h.geo) {
        QString why = tr("No value yet.");
        if (side() != exec::ValueSide::Actual && !h.hasReference) why = tr("No reference value for this tensor.");
        else if (!h.hasValue) why = tr("No value yet: this node has not run (or its value was freed by the retention policy).");
        else if (side() == exec::ValueSide::Difference) why = tr("The value and the reference have different shapes.");
        showNoValue(why);
        if (tabs_->currentIndex() == 4) requestCompare();
        return;
    }
    const bool shapeChanged = h.geo->shape != geo_.shape;
    geo_ = *h.geo;
    if (shapeChanged || leadSpins_.size() != geo_.lead.size()) rebuildSlice();
    updateSlice();
    requestTab();
}

void TensorViewer::refresh() {
    throttle_->stop();
    lastRefresh_.restart();
    const int64_t producer = c_->producerOf(tensor_);
    const auto& infos = c_->nodeInfos();
    producerDoneShown_ = producer >= 0 && producer < (int64_t)infos.size() && infos[producer].state == exec::NodeState::Done;
    if (!c_->debugger() || tensor_.isEmpty()) {
        title_->setText(tr("<i>Click a node, an input, an output or a weight to inspect its tensor.</i>"));
        shownTensor_.clear();
        showNoValue({});
        compare_->clear();
        diffHeat_->clear({});
        updateBusy();
        return;
    }
    if (tensor_ != shownTensor_)
        title_->setText(QStringLiteral("<b>%1</b>").arg(tensor_.toHtmlEscaped()));   // "where" comes with the head
    const std::string t = tensor_.toStdString();
    const QString name = tensor_;
    ask(QStringLiteral("head"), [t, name, sd = side(), this](const exec::Debugger& d) -> std::function<void()> {
        auto h = std::make_shared<Head>();
        h->tensor = name;
        h->where = q(d.describe(t));
        h->geo = d.geometry(t, sd);
        if (!h->geo) {
            h->hasValue = d.hasValue(t);
            h->hasReference = d.hasReference(t);
        }
        return [this, h] { applyHead(*h); };
    });
}

// Node states changed: a stop refreshes at once; while running, only when the
// node that produces this tensor has run since the last refresh, and at most
// every kRunRefreshMs.
void TensorViewer::onNodeStates() {
    if (!c_->isRunning()) {
        refresh();
        return;
    }
    const int64_t producer = c_->producerOf(tensor_);
    const auto& infos = c_->nodeInfos();
    if (producer < 0 || producer >= (int64_t)infos.size()) return;
    const bool done = infos[producer].state == exec::NodeState::Done;
    if (!done) {
        producerDoneShown_ = false;   // a reset inside the run: refresh again once it runs
        return;
    }
    if (producerDoneShown_ || throttle_->isActive()) return;
    throttle_->start(static_cast<int>(std::max<qint64>(0, kRunRefreshMs - lastRefresh_.elapsed())));
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

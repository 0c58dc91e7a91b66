#include "widgets/debugger/tensor_viewer.h"

#include <algorithm>
#include <memory>
#include <optional>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/charts/charts.h"
#include "widgets/common/charts_availability.h"
#include "widgets/common/dialog_folders.h"
#include "widgets/common/heatmap_widget.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/slice_model.h"
#include "widgets/debugger/tensor_report_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

namespace {

// How the values table writes numbers (the format box's item data).
enum class NumberFormat { Auto, Fixed, Scientific };

}  // namespace

TensorViewer::TensorViewer(DebugController* c, bool follows, QWidget* parent)
    : QWidget(parent), c_(c), follows_(follows), sliceSource_(c) {
    setObjectName(follows ? QStringLiteral("tensorViewer") : QStringLiteral("pinnedTensorViewer"));
    throttle_ = new QTimer(this);
    throttle_->setSingleShot(true);
    lastRefresh_.start();
    auto* head = buildHeader();
    auto* sliceRow = buildSliceRow();
    buildTabs();
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(head);
    lay->addLayout(sliceRow);
    lay->addWidget(tabs_, 1);
    connectControls();
    connectController();
    refresh();
}

// Title, "computing…", value side, Export…, Pin / Close.
QHBoxLayout* TensorViewer::buildHeader() {
    title_ = new QLabel(this);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // One line whatever the name's length: a title that wraps when a tensor
    // arrives would make the dock grow and the graph above it shrink.
    title_->setWordWrap(false);
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    title_->setMinimumWidth(1);
    title_->setFixedHeight(QFontMetrics(title_->font()).height() + 4);  // the same, empty or not
    side_ = new QComboBox(this);
    side_->addItem(tr("Value"), QVariant::fromValue(static_cast<int>(exec::ValueSide::Actual)));
    side_->addItem(tr("Reference"), QVariant::fromValue(static_cast<int>(exec::ValueSide::Reference)));
    side_->addItem(tr("Difference"), QVariant::fromValue(static_cast<int>(exec::ValueSide::Difference)));
    side_->setToolTip(tr("Show the computed value, the reference value, or computed − reference"));
    // The slice row's format box is made here: the focus chain follows creation order.
    format_ = new QComboBox(this);
    format_->addItem(tr("auto"), QVariant::fromValue(static_cast<int>(NumberFormat::Auto)));
    format_->addItem(tr("fixed"), QVariant::fromValue(static_cast<int>(NumberFormat::Fixed)));
    format_->addItem(tr("scientific"), QVariant::fromValue(static_cast<int>(NumberFormat::Scientific)));
    pin_ = new QToolButton(this);
    pin_->setText(follows_ ? tr("Pin") : tr("Close"));
    pin_->setToolTip(follows_ ? tr("Keep this tensor open while stepping (a new viewer follows the selection)")
                              : tr("Close this pinned viewer"));
    export_ = new QToolButton(this);
    export_->setText(tr("Export…"));
    busy_ = new QLabel(tr("computing…"), this);
    busy_->setObjectName(QStringLiteral("tensorBusy"));
    busy_->setStyleSheet(QStringLiteral("color: palette(mid); font-style: italic;"));
    busy_->setToolTip(tr("Waiting for the values from the query thread"));
    // Keeps its room so the header doesn't jump when it shows and hides.
    QSizePolicy busyPolicy = busy_->sizePolicy();
    busyPolicy.setRetainSizeWhenHidden(true);
    busy_->setSizePolicy(busyPolicy);
    busy_->hide();
    auto* head = new QHBoxLayout;
    head->addWidget(title_, 1);
    head->addWidget(busy_);
    head->addWidget(side_);
    head->addWidget(export_);
    head->addWidget(pin_);
    return head;
}

// Spin boxes for the leading dimensions (filled by rebuildSlice) and the number format (made by buildHeader).
QHBoxLayout* TensorViewer::buildSliceRow() {
    leadBox_ = new QWidget(this);
    leadLayout_ = new QHBoxLayout(leadBox_);
    leadLayout_->setContentsMargins(0, 0, 0, 0);
    // As tall with spin boxes in it as without: the row must not grow when a
    // 4-d tensor arrives (the dock would take the pixels from the graph).
    const int spinHeight = QSpinBox().sizeHint().height();
    leadBox_->setFixedHeight(std::max(spinHeight, format_->sizeHint().height()));
    auto* row = new QHBoxLayout;
    row->addWidget(leadBox_);
    row->addStretch(1);
    row->addWidget(new QLabel(tr("Format:"), this));
    row->addWidget(format_);
    return row;
}

void TensorViewer::buildTabs() {
    tabs_ = new QTabWidget(this);
    auto add = [this](QWidget* page, const QString& title, TensorTab tab) {
        const int i = tabs_->addTab(page, title);
        tabs_->tabBar()->setTabData(i, QVariant::fromValue(static_cast<int>(tab)));
    };
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("tensorSummary"));
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setMargin(6);
    // In a scroll area: the summary table's size must not set the dock's
    // minimum (the first tensor shown made the bottom docks grow ~36 px).
    auto* summaryScroll = new QScrollArea(this);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setWidget(summary_);
    add(summaryScroll, tr("Summary"), TensorTab::Summary);
    model_ = new SliceModel(&sliceSource_, this);
    values_ = new QTableView(this);
    values_->setObjectName(QStringLiteral("tensorValues"));
    values_->setModel(model_);
    values_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    values_->verticalHeader()->setDefaultSectionSize(20);
    values_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    values_->horizontalHeader()->setDefaultSectionSize(86);
    add(values_, tr("Values"), TensorTab::Values);
    add(buildHistogramPage(), tr("Histogram"), TensorTab::Histogram);
    heat_ = new HeatmapWidget(this);
    heat_->setObjectName(QStringLiteral("tensorHeatmap"));
    add(heat_, tr("Heatmap"), TensorTab::Heatmap);
    add(buildComparePage(), tr("Compare"), TensorTab::Compare);
}

QWidget* TensorViewer::buildHistogramPage() {
    auto* page = new QWidget(this);
    QWidget* chartOrWhy = nullptr;
    if (chartsAvailable()) {
        chart_ = charts::newChartView(page, 120);
        chartOrWhy = chart_;
    } else {
        auto* why = new QLabel(tr("No chart: %1").arg(chartsMissingReason()), page);
        why->setWordWrap(true);
        why->setAlignment(Qt::AlignCenter);
        chartOrWhy = why;
    }
    histInfo_ = new QLabel(page);
    auto* lay = new QVBoxLayout(page);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(chartOrWhy, 1);
    lay->addWidget(histInfo_);
    return page;
}

// The verdict with "Go to first divergent node" beside it, the difference heatmap below.
QWidget* TensorViewer::buildComparePage() {
    auto* page = new QWidget(this);
    compare_ = new QLabel(page);
    compare_->setObjectName(QStringLiteral("tensorCompare"));
    compare_->setWordWrap(true);
    compare_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    goFirst_ = new QPushButton(tr("Go to first divergent node"), page);
    diffHeat_ = new HeatmapWidget(page);
    auto* lay = new QVBoxLayout(page);
    auto* top = new QHBoxLayout;
    top->addWidget(compare_, 1);
    top->addWidget(goFirst_, 0, Qt::AlignTop);
    lay->addLayout(top);
    lay->addWidget(diffHeat_, 1);
    return page;
}

void TensorViewer::connectControls() {
    connect(side_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(format_, &QComboBox::currentIndexChanged, this, [this] {
        switch (static_cast<NumberFormat>(format_->currentData().toInt())) {
        case NumberFormat::Fixed: model_->setFormat('f', 4); break;
        case NumberFormat::Scientific: model_->setFormat('e', 4); break;
        case NumberFormat::Auto: model_->setFormat('g', 6); break;
        }
    });
    connect(pin_, &QToolButton::clicked, this, [this] {
        if (follows_)
            emit pinRequested(this);
        else
            emit closeRequested(this);
    });
    connect(export_, &QToolButton::clicked, this, &TensorViewer::exportDialog);
    connect(goFirst_, &QPushButton::clicked, c_->checks(), &NumericChecks::goToFirstDivergence);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { refresh(); });
    connect(throttle_, &QTimer::timeout, this, &TensorViewer::refresh);
    connect(model_, &SliceModel::pendingChanged, this, &TensorViewer::updateBusy,
            Qt::QueuedConnection);  // may come while painting
    // The values table asks for its visible blocks as it paints; scrolling far
    // asks ahead for the newly visible part right away.
    connect(values_->verticalScrollBar(), &QScrollBar::valueChanged, this, &TensorViewer::prefetchVisible);
    connect(values_->horizontalScrollBar(), &QScrollBar::valueChanged, this, &TensorViewer::prefetchVisible);
}

void TensorViewer::connectController() {
    if (follows_) connect(c_->tensors(), &TensorQueries::focusTensorChanged, this, &TensorViewer::setTensor);
    // A viewer made while a tensor is in focus (the window's panels come
    // after its first frame) shows it, as one made before would.
    if (follows_ && !c_->tensors()->focusTensor().isEmpty()) setTensor(c_->tensors()->focusTensor());
    connect(c_, &DebugController::nodeStatesChanged, this, &TensorViewer::onNodeStates);
    connect(c_->values(), &DebugValues::valuesChanged, this, [this] { refresh(); });
    connect(c_->checks(), &NumericChecks::divergenceChanged, this, [this] {
        if (currentTab() == TensorTab::Compare) requestCompare();
    });
    connect(c_, &DebugController::debuggerReset, this, [this] {
        pending_.clear();  // the controller drops the old document's answers
        setTensor({});
    });
}

void TensorViewer::exportDialog() {
    if (tensor_.isEmpty()) return;
    QString base = tensor_;
    base.replace(QLatin1Char('/'), QLatin1Char('_'));
    const QString f = QFileDialog::getSaveFileName(
        this, tr("Export tensor"),
        dialogStart(DialogKind::Tensor, c_->session()->filePath(), base + QStringLiteral(".npy")),
        QStringLiteral("NumPy (*.npy);;PyTorch (*.pt);;safetensors (*.safetensors)"));
    rememberDialogFolder(DialogKind::Tensor, f);
    if (!f.isEmpty()) c_->tensors()->exportTensor(tensor_, f, side());
}

void TensorViewer::prefetchVisible() {
    if (currentTab() != TensorTab::Values) return;
    const int r0 = std::max(0, values_->rowAt(0)), c0 = std::max(0, values_->columnAt(0));
    int r1 = values_->rowAt(values_->viewport()->height() - 1),
        c1 = values_->columnAt(values_->viewport()->width() - 1);
    if (r1 < 0) r1 = model_->rowCount() - 1;
    if (c1 < 0) c1 = model_->columnCount() - 1;
    model_->prefetch(r0, c0, r1, c1);
}

exec::ValueSide TensorViewer::side() const { return static_cast<exec::ValueSide>(side_->currentData().toInt()); }

TensorTab TensorViewer::currentTab() const {
    return static_cast<TensorTab>(tabs_->tabBar()->tabData(tabs_->currentIndex()).toInt());
}

void TensorViewer::showTab(TensorTab tab) {
    for (int i = 0; i < tabs_->count(); ++i)
        if (static_cast<TensorTab>(tabs_->tabBar()->tabData(i).toInt()) == tab) tabs_->setCurrentIndex(i);
}

bool TensorViewer::isBusy() const { return !pending_.isEmpty() || model_->pendingBlocks() > 0; }

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

// Runs `job` on the query lane; its continuation runs here unless a newer
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
            if (asked != tensor_) {  // the viewer moved on to another tensor (or none) meanwhile
                updateBusy();
                return;
            }
            if (!error.isEmpty())
                summary_->setText(tr("<i>%1</i>").arg(error.toHtmlEscaped()));
            else if (cont)
                cont();
            updateBusy();
            emit updated(what);
        };
    };
    if (c_->tensors()->query(queryKey(what), this, std::move(wrapped))) pending_.insert(what);
    updateBusy();
}

void TensorViewer::rebuildSlice() {
    // Spin boxes for the leading dimensions (all but the last two).
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
        // Dimensions by number: a 4-D tensor is as often a KV cache [batch,
        // heads, seq, dim] as an image batch [n, ch, h, w], and the IR does not say which.
        s->setPrefix(tr("dim %1: ").arg(k));
        s->setSuffix(tr(" of %1").arg(geo_.lead[k]));
        s->setToolTip(tr("Index in dimension %1 (size %2)").arg(k).arg(geo_.lead[k]));
        connect(s, &QSpinBox::valueChanged, this, [this, k](int v) {
            if (k < lead_.size()) lead_[k] = v;
            updateSlice();
            // The slice moved: the heatmap and the difference heatmap follow.
            if (currentTab() == TensorTab::Heatmap) requestHeatmap();
            if (currentTab() == TensorTab::Compare) requestCompare();
        });
        leadLayout_->addWidget(s);
        leadSpins_.push_back(s);
    }
    if (!geo_.shape.empty()) {
        // "Slice n 0 ch 3 : 24 × 16" after the spin boxes; with none (a 2-D tensor) just "24 × 16",
        // and a 1-D tensor its length ("6", not the "6 × 1" of the column it is shown in).
        const QString extent =
            geo_.shape.size() == 1 ? QString::number(geo_.rows) : tr("%1 × %2").arg(geo_.rows).arg(geo_.cols);
        leadLayout_->addWidget(new QLabel(geo_.lead.empty() ? extent : QStringLiteral(": ") + extent, leadBox_));
    }
}

// The values table: a new slice resets it; the same slice after a run keeps
// the cached blocks on screen and fetches them again.
void TensorViewer::updateSlice() {
    const bool diff = side() == exec::ValueSide::Difference;
    if (!model_->setSlice(SliceRef{shownTensor_, side(), lead_}, geo_.rows, geo_.cols, geo_.integral && !diff))
        model_->refetch();
    if (currentTab() == TensorTab::Values) {
        // Ask for the visible part now (the view asks too as it paints).
        const int r0 = std::max(0, values_->rowAt(0)), c0 = std::max(0, values_->columnAt(0));
        const int vr =
            std::max(1, values_->viewport()->height() / std::max(1, values_->verticalHeader()->defaultSectionSize()));
        const int vc =
            std::max(1, values_->viewport()->width() / std::max(1, values_->horizontalHeader()->defaultSectionSize()));
        model_->prefetch(r0, c0, r0 + vr, c0 + vc);
    }
    updateBusy();
}

void TensorViewer::requestSummary() {
    const std::string t = shownTensor_.toStdString();
    ask(QStringLiteral("summary"), [t, sd = side(), this](const exec::Debugger& d) -> std::function<void()> {
        auto s = std::make_shared<std::optional<exec::TensorSummary>>(d.tensors().summary(t, sd));
        return [this, s] { summary_->setText(*s ? summaryHtml(**s) : tr("No value yet.")); };
    });
}

void TensorViewer::requestHeatmap() {
    const std::string t = shownTensor_.toStdString();
    const exec::ValueSide sd = side();
    ask(QStringLiteral("heatmap"), [t, lead = lead_, sd, this](const exec::Debugger& d) -> std::function<void()> {
        auto h = std::make_shared<std::optional<exec::Heatmap>>(d.tensors().heatmap(t, lead, 512, sd));
        return [this, h, sd] {
            if (*h)
                heat_->setData(**h, sd == exec::ValueSide::Difference);
            else
                heat_->clear(tr("No value"));
        };
    });
}

void TensorViewer::requestHistogram() {
    const std::string t = shownTensor_.toStdString();
    ask(QStringLiteral("histogram"), [t, sd = side(), this](const exec::Debugger& d) -> std::function<void()> {
        auto h = std::make_shared<std::optional<exec::Histogram>>(d.tensors().histogram(t, 64, sd));
        return [this, h] {
            hist_ = h->value_or(exec::Histogram{});
            histInfo_->setText(histogramCaption(*h));
            if (chart_) charts::showHistogram(chart_, hist_);
        };
    });
}

void TensorViewer::requestCompare() {
    if (tensor_.isEmpty()) return;
    const std::string t = tensor_.toStdString();
    ask(QStringLiteral("compare"), [t, lead = lead_, this](const exec::Debugger& d) -> std::function<void()> {
        auto r = std::make_shared<exec::Comparison>(d.tensors().compare(t));
        auto h = std::make_shared<std::optional<exec::Heatmap>>();
        const bool comparable = r->problem.empty();
        if (comparable) *h = d.tensors().heatmap(t, lead, 512, exec::ValueSide::Difference);
        return [this, r, h, comparable] {
            // Only a missing reference gets the hint to load one; any other problem is said as it is.
            const bool anyReference = !c_->values()->path(exec::ValueFile::Expected).isEmpty() ||
                                      !c_->values()->path(exec::ValueFile::ReferenceIntermediates).isEmpty() ||
                                      c_->checks()->checking();
            if (!comparable && r->problem.rfind("no reference", 0) == 0)
                diffHeat_->clear(anyReference ? tr("The reference loaded has no value for this tensor.")
                                              : tr("Load expected outputs or reference intermediates (Inputs & "
                                                   "references), or choose a second run as the reference "
                                                   "(Differences), to compare."));
            else if (!comparable)
                diffHeat_->clear(q(r->problem));
            else if (*h)
                diffHeat_->setData(**h, true);
            // The run-wide line only when it names a divergence: "matches" above
            // "0 computed tensors match" read as a contradiction.
            compare_->setText(
                compareHtml(*r, c_->checks()->divergence().found ? q(c_->checks()->divergence().message) : QString()));
        };
    });
}

// What the current tab shows, for the tensor the head answered.
void TensorViewer::requestTab() {
    switch (currentTab()) {
    case TensorTab::Summary: requestSummary(); break;
    case TensorTab::Histogram: requestHistogram(); break;
    case TensorTab::Heatmap: requestHeatmap(); break;
    case TensorTab::Compare: requestCompare(); break;
    case TensorTab::Values: break;  // the table asks for its blocks
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
    model_->setSlice(SliceRef{{}, side(), {}}, 0, 0, false);
    summary_->setText(tensor_.isEmpty() ? QString() : why);
    heat_->clear(why);
    hist_ = {};
    histInfo_->setText(why);
    if (chart_) charts::clearChart(chart_);
}

// Why a tensor has no value, in the words of what it is: a weight waits for
// a state_dict, an input for a source, a node output for its node to run.
QString TensorViewer::noValueReason(const QString& where) const {
    const bool weightLike = where.startsWith(QLatin1String("parameter")) || where.startsWith(QLatin1String("buffer")) ||
                            where.startsWith(QLatin1String("weight"));
    if (weightLike && c_->values()->path(exec::ValueFile::Weights).isEmpty())
        return tr("No value: no state_dict is loaded (Weights dock › Load weights…).");
    if (weightLike)
        return tr("No value: the state_dict loaded (%1) does not have it.")
            .arg(QFileInfo(c_->values()->path(exec::ValueFile::Weights)).fileName());
    if (where.startsWith(QLatin1String("constant")))
        return tr("No value: type it in the Constants dock or load a constants file.");
    if (where == QLatin1String("graph input"))
        return tr("No value: choose a source for this input in the Inputs dock, or load an inputs file.");
    return tr("No value yet: this node has not run (or its value was freed by the retention policy).");
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
        if (chart_) charts::clearChart(chart_);
    }
    title_->setText(QStringLiteral("<b>%1</b> %2")
                        .arg(h.tensor.toHtmlEscaped(),
                             h.where.isEmpty() ? QString() : QStringLiteral("— ") + h.where.toHtmlEscaped()));
    if (!h.geo) {
        QString why = tr("No value yet.");
        if (side() != exec::ValueSide::Actual && !h.hasReference)
            why = tr("No reference value for this tensor.");
        else if (!h.hasValue)
            why = noValueReason(h.where);
        else if (side() == exec::ValueSide::Difference)
            why = tr("The value and the reference have different shapes.");
        showNoValue(why);
        if (currentTab() == TensorTab::Compare) requestCompare();
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
    const int64_t producer = c_->tensors()->producerOf(tensor_);
    const auto& infos = c_->nodeInfos();
    producerDoneShown_ =
        producer >= 0 && producer < (int64_t)infos.size() && infos[producer].state == exec::NodeState::Done;
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
        title_->setText(QStringLiteral("<b>%1</b>").arg(tensor_.toHtmlEscaped()));  // "where" comes with the head
    const std::string t = tensor_.toStdString();
    const QString name = tensor_;
    ask(QStringLiteral("head"), [t, name, sd = side(), this](const exec::Debugger& d) -> std::function<void()> {
        auto h = std::make_shared<Head>();
        h->tensor = name;
        h->where = q(d.tensors().describe(t));
        h->geo = d.tensors().geometry(t, sd);
        if (!h->geo) {
            h->hasValue = d.tensors().hasValue(t);
            h->hasReference = d.tensors().hasReference(t);
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
    const int64_t producer = c_->tensors()->producerOf(tensor_);
    const auto& infos = c_->nodeInfos();
    if (producer < 0 || producer >= (int64_t)infos.size()) return;
    const bool done = infos[producer].state == exec::NodeState::Done;
    if (!done) {
        producerDoneShown_ = false;  // a reset inside the run: refresh again once it runs
        return;
    }
    if (producerDoneShown_ || throttle_->isActive()) return;
    throttle_->start(static_cast<int>(std::max<qint64>(0, kRunRefreshMs - lastRefresh_.elapsed())));
}

}  // namespace irscope::widgets

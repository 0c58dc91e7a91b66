#include "widgets/debugger/differences_panel.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidgetAction>

#include "widgets/common/dialog_folders.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/refresh_when_shown.h"
#include "widgets/debugger/differences_model.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

namespace {

enum ReferenceItem { kFiles, kOtherWeights, kFloat64, kFloat16, kBFloat16, kProgram };

const char* dtypeOf(int item) {
    switch (item) {
    case kFloat64: return "float64";
    case kFloat16: return "float16";
    case kBFloat16: return "bfloat16";
    default: return "";
    }
}

int itemOf(const exec::ReferenceChoice& c) {
    if (c.kind == exec::ReferenceChoice::Kind::Weights) return kOtherWeights;
    if (c.kind == exec::ReferenceChoice::Kind::Program) return kProgram;
    if (c.kind == exec::ReferenceChoice::Kind::Dtype)
        return c.dtype == "float64" ? kFloat64 : c.dtype == "float16" ? kFloat16 : kBFloat16;
    return kFiles;
}

const std::vector<exec::NodeMetric>& errorMetrics() {
    static const std::vector<exec::NodeMetric> all = {exec::NodeMetric::MaxAbs,  exec::NodeMetric::MaxRel,
                                                      exec::NodeMetric::MeanAbs, exec::NodeMetric::Mse,
                                                      exec::NodeMetric::Cosine,  exec::NodeMetric::SqnrDb};
    return all;
}

QString metricTitle(exec::NodeMetric m) {
    switch (m) {
    case exec::NodeMetric::MaxAbs: return QObject::tr("Max abs above");
    case exec::NodeMetric::MaxRel: return QObject::tr("Max rel above");
    case exec::NodeMetric::MeanAbs: return QObject::tr("Mean abs above");
    case exec::NodeMetric::Mse: return QObject::tr("MSE above");
    case exec::NodeMetric::Cosine: return QObject::tr("Cosine below");
    case exec::NodeMetric::SqnrDb: return QObject::tr("SQNR (dB) below");
    case exec::NodeMetric::TimeMs: return QObject::tr("Time (ms)");
    }
    return {};
}

}  // namespace

DifferencesPanel::DifferencesPanel(DebugController* c, QWidget* parent)
    : QWidget(parent),
      c_(c),
      model_(new DifferencesModel(this)),
      filter_(new DifferencesFilter(this)),
      table_(new QTableView(this)),
      reference_(new QComboBox(this)),
      mode_(new QComboBox(this)),
      failingOnly_(new QCheckBox(tr("Failing only"), this)),
      thresholds_(new QToolButton(this)),
      tolerance_(new QToolButton(this)),
      export_(new QToolButton(this)),
      summary_(new QLabel(this)) {
    setObjectName(QStringLiteral("differencesPanel"));
    reference_->setObjectName(QStringLiteral("referenceChoice"));
    mode_->setObjectName(QStringLiteral("errorMode"));
    failingOnly_->setObjectName(QStringLiteral("failingOnly"));
    table_->setObjectName(QStringLiteral("differencesTable"));
    summary_->setObjectName(QStringLiteral("differencesSummary"));

    reference_->addItem(tr("Reference files"), kFiles);
    reference_->addItem(tr("Second run: other weights…"), kOtherWeights);
    reference_->addItem(tr("Second run: float64"), kFloat64);
    reference_->addItem(tr("Second run: float16"), kFloat16);
    reference_->addItem(tr("Second run: bfloat16"), kBFloat16);
    // A quantized program against the float program it was made from.
    reference_->addItem(tr("Another program (the float model)…"), kProgram);
    reference_->setToolTip(
        tr("What the run is measured against: the reference intermediates and expected outputs "
           "loaded (Debug ▸ Load, or drop a file), or the same graph run a second time with other "
           "weights or with every floating value in another dtype"));
    mode_->addItem(tr("Cumulative error"), static_cast<int>(exec::ErrorMode::Cumulative));
    mode_->addItem(tr("Local error"), static_cast<int>(exec::ErrorMode::Local));
    mode_->setToolTip(
        tr("Cumulative: each node runs on the run's own inputs, so one wrong op makes everything after "
           "it differ.\nLocal: each node runs on the reference's inputs, so only an op that is wrong by "
           "itself fails: the first failing node is the culprit. Changing it resets the run."));
    failingOnly_->setToolTip(tr("Show only outputs that fail the tolerance or cross a threshold"));
    thresholds_->setText(tr("Thresholds"));
    thresholds_->setPopupMode(QToolButton::InstantPopup);
    auto* tmenu = new QMenu(thresholds_);
    auto* editor = new QWidgetAction(tmenu);
    editor->setDefaultWidget(makeThresholdEditor());
    tmenu->addAction(editor);
    thresholds_->setMenu(tmenu);
    thresholds_->setToolTip(
        tr("Limits per metric, beyond the tolerance: a cell across one is marked and its row "
           "counts as failing"));
    tolerance_->setObjectName(QStringLiteral("toleranceButton"));
    tolerance_->setPopupMode(QToolButton::InstantPopup);
    auto* tolMenu = new QMenu(tolerance_);
    auto* tolEditor = new QWidgetAction(tolMenu);
    tolEditor->setDefaultWidget(makeToleranceEditor());
    tolMenu->addAction(tolEditor);
    tolerance_->setMenu(tolMenu);
    tolerance_->setToolTip(
        tr("How close a value must be to its reference to pass: |value - reference| <= atol + rtol × "
           "|reference|. Unset, each comparison takes torch.testing.assert_close's default for its dtypes; "
           "integers and bools compare exactly"));
    export_->setText(tr("Export node data"));
    export_->setPopupMode(QToolButton::InstantPopup);
    export_->setToolTip(tr("Save one metric per node as Model Explorer node data (JSON)"));
    auto* emenu = new QMenu(export_);
    for (exec::NodeMetric m : exec::allNodeMetrics())
        emenu->addAction(QString::fromLatin1(exec::nodeMetricName(m)), this,
                         [this, m] { exportDialog(static_cast<int>(m)); });
    export_->setMenu(emenu);

    filter_->setSourceModel(model_);
    filter_->setSortRole(DifferencesModel::kSortRole);
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(DifferencesModel::Node, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setAlternatingRowColors(true);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(reference_);
    bar->addWidget(mode_);
    bar->addWidget(failingOnly_);
    bar->addWidget(tolerance_);
    bar->addWidget(thresholds_);
    bar->addWidget(export_);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);

    connect(reference_, &QComboBox::activated, this, &DifferencesPanel::chooseReference);
    connect(mode_, &QComboBox::activated, this,
            [this] { c_->checks()->setErrorMode(static_cast<exec::ErrorMode>(mode_->currentData().toInt())); });
    // Failing only is set up for one model: another model starts with every row.
    connect(c->session(), &GraphSession::graphLoaded, this, [this, c] {
        if (!c->session()->sameModelAsBefore()) failingOnly_->setChecked(false);
    });
    connect(failingOnly_, &QCheckBox::toggled, this, [this](bool on) { filter_->setFailingOnly(on); });
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const qint64 node = index.data(DifferencesModel::kNodeRole).toLongLong();
        const QString tensor = index.data(DifferencesModel::kTensorRole).toString();
        c_->session()->selectionModel()->select(ItemRef::node(node), true);
        c_->tensors()->showTensor(tensor);
    });
    connect(c_->checks(), &NumericChecks::errorRowsChanged, this, &DifferencesPanel::rowsChanged);
    // A new document or new values rebuild the table once it can be seen; rows a run adds come at once.
    rowsWhenShown_ = new RefreshWhenShown(this, [this] { rowsChanged(); });
    connect(c_, &DebugController::debuggerReset, rowsWhenShown_, &RefreshWhenShown::request);
    connect(c_->checks(), &NumericChecks::checksChanged, this, &DifferencesPanel::checksChanged);
    connect(c_->values(), &DebugValues::valuesChanged, rowsWhenShown_, &RefreshWhenShown::request);
    connect(c_, &DebugController::stopped, this,
            [this] { model_->setOverridden(QSet<QString>(c_->overridden().begin(), c_->overridden().end())); });
    // The user's tolerance outlives the window (Visual Studio keeps its options).
    QSettings settings;
    const QVariant rtol = settings.value(QStringLiteral("differences/rtol")),
                   atol = settings.value(QStringLiteral("differences/atol"));
    if (rtol.isValid() || atol.isValid())
        setTolerance(rtol.isValid() ? rtol.toString() : QString(), atol.isValid() ? atol.toString() : QString());
    rowsChanged();
    checksChanged();
}

QWidget* DifferencesPanel::makeToleranceEditor() {
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    rtolEdit_ = new QLineEdit(box);
    atolEdit_ = new QLineEdit(box);
    rtolEdit_->setObjectName(QStringLiteral("rtolEdit"));
    atolEdit_->setObjectName(QStringLiteral("atolEdit"));
    for (QLineEdit* e : {rtolEdit_, atolEdit_}) {
        e->setPlaceholderText(tr("dtype default"));
        e->setClearButtonEnabled(true);
        connect(e, &QLineEdit::editingFinished, this, [this] {
            const bool ok = setTolerance(rtolEdit_->text(), atolEdit_->text());
            for (QLineEdit* f : {rtolEdit_, atolEdit_})
                f->setStyleSheet(ok ? QString() : QStringLiteral("color:#d0302a"));
        });
    }
    form->addRow(tr("rtol"), rtolEdit_);
    form->addRow(tr("atol"), atolEdit_);
    auto* defaults = new QLabel(tr("Empty: torch.testing.assert_close's default<br>for the dtypes compared:<br>"
                                   "float32 rtol 1.3e-06, atol 1e-05<br>float16 rtol 1e-03, atol 1e-05<br>"
                                   "bfloat16 rtol 1.6e-02, atol 1e-05<br>float64 rtol 1e-07, atol 1e-07<br>"
                                   "integers and bools: exact"),
                                box);
    defaults->setTextFormat(Qt::RichText);
    defaults->setStyleSheet(QStringLiteral("color:palette(mid)"));
    form->addRow(defaults);
    return box;
}

namespace {
// "" -> unset; a number -> it; anything else -> false.
bool parseTolerance(const QString& text, std::optional<double>& out) {
    out.reset();
    const QString t = text.trimmed();
    if (t.isEmpty()) return true;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !(v >= 0) || std::isinf(v)) return false;
    out = v;
    return true;
}
}  // namespace

bool DifferencesPanel::setTolerance(const QString& rtolText, const QString& atolText) {
    std::optional<double> rtol, atol;
    if (!parseTolerance(rtolText, rtol) || !parseTolerance(atolText, atol)) return false;
    QSettings settings;
    const auto keep = [&settings](const QString& key, const std::optional<double>& v) {
        if (v)
            settings.setValue(key, *v);
        else
            settings.remove(key);
    };
    keep(QStringLiteral("differences/rtol"), rtol);
    keep(QStringLiteral("differences/atol"), atol);
    c_->checks()->setTolerance(rtol, atol);  // checksChanged shows it
    return true;
}

QWidget* DifferencesPanel::makeThresholdEditor() {
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    for (exec::NodeMetric m : errorMetrics()) {
        auto* edit = new QLineEdit(box);
        edit->setObjectName(QStringLiteral("threshold_%1").arg(QLatin1String(exec::nodeMetricName(m))));
        edit->setPlaceholderText(tr("off"));
        edit->setClearButtonEnabled(true);
        connect(edit, &QLineEdit::editingFinished, this, [this, edit, m] {
            if (!setThreshold(QLatin1String(exec::nodeMetricName(m)), edit->text()))
                edit->setStyleSheet(QStringLiteral("color:#d0302a"));
            else
                edit->setStyleSheet({});
        });
        form->addRow(metricTitle(m), edit);
    }
    return box;
}

bool DifferencesPanel::setThreshold(const QString& metric, const QString& text) {
    const auto m = exec::nodeMetricNamed(metric.toStdString());
    if (!m || *m == exec::NodeMetric::TimeMs) return false;
    std::optional<double> limit;
    if (!text.trimmed().isEmpty()) {
        bool ok = false;
        const double v = text.trimmed().toDouble(&ok);
        if (!ok) return false;
        limit = v;
    }
    exec::MetricThresholds t = model_->thresholds();
    t.set(*m, limit);
    model_->setThresholds(t);
    filter_->invalidate();
    rowsChanged();  // the summary counts flagged rows
    return true;
}

// The tolerance the rows were judged by: one text when they share it, else
// the most used one and "per dtype" (a graph computing in several dtypes).
// Called as rows stream in during a run of 100,000 nodes: the rows are
// counted by their few distinct tolerances, and only the winner is worded.
QString DifferencesPanel::toleranceSummary(const std::vector<exec::OutputError>& rows) const {
    const auto same = [](const exec::AppliedTolerance& a, const exec::AppliedTolerance& b) {
        return a.rtol == b.rtol && a.atol == b.atol && a.rtolSet == b.rtolSet && a.atolSet == b.atolSet &&
               a.dtype == b.dtype;
    };
    std::vector<std::pair<const exec::AppliedTolerance*, int>> uses;  // a handful: one per dtype pairing
    for (const auto& r : rows) {
        if (!r.metrics.comparable() || r.metrics.tolerance.exact) continue;
        const auto it =
            std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return same(*u.first, r.metrics.tolerance); });
        if (it == uses.end())
            uses.emplace_back(&r.metrics.tolerance, 1);
        else
            ++it->second;
    }
    if (uses.empty()) return tr("exact");
    const auto most =
        std::max_element(uses.begin(), uses.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    const QString text = q(most->first->text());
    return uses.size() == 1 ? text : tr("%1, other dtypes their own").arg(text);
}

void DifferencesPanel::setFailingOnly(bool on) { failingOnly_->setChecked(on); }

QString DifferencesPanel::summary() const {
    rowsWhenShown_->flush();
    return summary_->text();
}

QTableView* DifferencesPanel::table() const {
    rowsWhenShown_->flush();
    return table_;
}

DifferencesModel* DifferencesPanel::model() const {
    rowsWhenShown_->flush();
    return model_;
}

void DifferencesPanel::rowsChanged() {
    const auto& rows = c_->checks()->errorRows();
    const int n = static_cast<int>(rows.size());
    if (generation_ == c_->checks()->errorRowsGeneration()) {
        model_->rowsAppended();
    } else {
        model_->setRows(&rows);
        generation_ = c_->checks()->errorRowsGeneration();
    }

    const exec::MetricThresholds& t = model_->thresholds();
    int flagged = 0;
    const exec::OutputError* first = nullptr;
    for (const auto& r : rows)
        if (t.flags(r)) {
            ++flagged;
            if (!first) first = &r;
        }
    const bool local = c_->checks()->errorMode() == exec::ErrorMode::Local;
    const QString against = q(exec::describeReference(c_->checks()->referenceChoice()));
    QString text;
    if (!c_->hasDocument()) {
        text = tr("Open a model to compare its run with a reference.");
    } else if (!c_->checks()->checking()) {
        text =
            tr("No reference: load reference intermediates or expected outputs (Debug ▸ Load, or drop the "
               "file on the window), or choose a second run above.");
    } else if (rows.empty()) {
        text = tr("Nothing measured yet against %1: run (F5) and every node's outputs are measured as it runs.")
                   .arg(against.toHtmlEscaped());
    } else if (!first) {
        text = tr("<b>All %1 outputs measured match</b> %2 (%3 error; tolerance %4).")
                   .arg(n)
                   .arg(against.toHtmlEscaped(), local ? tr("local") : tr("cumulative"),
                        toleranceSummary(rows).toHtmlEscaped());
    } else {
        const QString who =
            QStringLiteral("<b>%1</b> (%2)").arg(q(first->nodeName).toHtmlEscaped(), q(first->opType).toHtmlEscaped());
        text = tr("<span style='color:#b71c1c'>%1 of %2 outputs fail</span> against %3 (tolerance %4). ")
                   .arg(flagged)
                   .arg(n)
                   .arg(against.toHtmlEscaped(), q(first->metrics.tolerance.text()).toHtmlEscaped());
        text += local ? tr("Local error: the first failing node, %1, is wrong by itself.").arg(who)
                      : tr("First failing: %1. Switch to <i>Local error</i> to tell the op that is wrong by itself "
                           "from those that only inherit its error.")
                            .arg(who);
    }
    summary_->setText(text);
}

void DifferencesPanel::checksChanged() {
    const QSignalBlocker b1(reference_), b2(mode_);
    reference_->setCurrentIndex(reference_->findData(itemOf(c_->checks()->referenceChoice())));
    const auto choice = c_->checks()->referenceChoice();
    reference_->setItemText(reference_->findData(kOtherWeights),
                            choice.kind == exec::ReferenceChoice::Kind::Weights
                                ? tr("Second run: %1").arg(QFileInfo(q(choice.weightsPath)).fileName())
                                : tr("Second run: other weights…"));
    reference_->setItemText(reference_->findData(kProgram),
                            choice.kind == exec::ReferenceChoice::Kind::Program
                                ? tr("Program: %1").arg(QFileInfo(q(choice.programPath)).fileName())
                                : tr("Another program (the float model)…"));
    mode_->setCurrentIndex(mode_->findData(static_cast<int>(c_->checks()->errorMode())));
    const exec::Tolerance tol = c_->checks()->tolerance();
    const auto text = [](const std::optional<double>& v) { return v ? QString::number(*v, 'g', 6) : QString(); };
    if (rtolEdit_ && !rtolEdit_->hasFocus()) rtolEdit_->setText(text(tol.rtol));
    if (atolEdit_ && !atolEdit_->hasFocus()) atolEdit_->setText(text(tol.atol));
    // Short: the dock's bar is narrow; the summary line names what applied.
    tolerance_->setText(!tol.userSet()         ? tr("Tolerance")
                        : tol.rtol && tol.atol ? tr("rtol %1, atol %2").arg(text(tol.rtol), text(tol.atol))
                        : tol.rtol             ? tr("rtol %1").arg(text(tol.rtol))
                                               : tr("atol %1").arg(text(tol.atol)));
    rowsChanged();
}

void DifferencesPanel::chooseReference(int index) {
    const int item = reference_->itemData(index).toInt();
    exec::ReferenceChoice choice;
    if (item == kOtherWeights) {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Weights for the reference run"), dialogStart(DialogKind::Weights, c_->session()->filePath()),
            tr("Tensor files (*.pt *.pth *.bin *.safetensors *.npz);;All files (*)"));
        rememberDialogFolder(DialogKind::Weights, path);
        if (path.isEmpty()) {
            checksChanged();  // back to what it was
            return;
        }
        choice.kind = exec::ReferenceChoice::Kind::Weights;
        choice.weightsPath = path.toStdString();
    } else if (item == kProgram) {
        const QString program = QFileDialog::getOpenFileName(
            this, tr("The program to measure against (the float model of a quantized one)"),
            dialogStart(DialogKind::Weights, c_->session()->filePath()), tr("Programs (*.pt2 *.json);;All files (*)"));
        if (program.isEmpty()) {
            checksChanged();
            return;
        }
        rememberDialogFolder(DialogKind::Weights, program);
        choice.kind = exec::ReferenceChoice::Kind::Program;
        choice.programPath = program.toStdString();
        if (!program.endsWith(QLatin1String(".pt2"), Qt::CaseInsensitive)) {  // a pytorch-ir IR: its state_dict too
            const QString weights = QFileDialog::getOpenFileName(
                this, tr("The state_dict of %1").arg(QFileInfo(program).fileName()), QFileInfo(program).absolutePath(),
                tr("Tensor files (*.pt *.pth *.bin *.safetensors *.npz);;All files (*)"));
            if (weights.isEmpty()) {
                checksChanged();
                return;
            }
            choice.weightsPath = weights.toStdString();
        }
    } else if (item != kFiles) {
        choice.kind = exec::ReferenceChoice::Kind::Dtype;
        choice.dtype = dtypeOf(item);
    }
    c_->checks()->setReferenceChoice(choice);
}

void DifferencesPanel::exportDialog(int metricIndex) {
    const auto metric = static_cast<exec::NodeMetric>(metricIndex);
    const QString name = QLatin1String(exec::nodeMetricName(metric));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1 per node as Model Explorer node data").arg(name),
        dialogStart(DialogKind::NodeData, c_->session()->filePath(), QStringLiteral("%1.node_data.json").arg(name)),
        tr("Node data (*.json)"));
    if (path.isEmpty()) return;
    rememberDialogFolder(DialogKind::NodeData, path);
    c_->checks()->exportNodeData(path, metric, [this](const QString& error) {
        if (error.isEmpty()) return;
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Export node data"), error, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();  // window-modal, without a nested event loop
    });
}

namespace {

const bool differencesPanelRegistered = registerPanel({
    .id = kDifferencesPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Differences"),
    .order = 25,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new DifferencesPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, kTensorPanel},
});

}  // namespace

}  // namespace irscope::widgets

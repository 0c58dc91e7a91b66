#include "widgets/debugger/weights_panel.h"

#include <algorithm>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "widgets/common/dialog_folders.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/refresh_when_shown.h"
#include "widgets/common/view_state.h"
#include "widgets/debugger/value_table.h"
#include "widgets/debugger/weight_filter.h"
#include "widgets/debugger/weights_model.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

WeightsPanel::WeightsPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("weightsPanel"));
    model_ = new WeightsModel(c, this);
    proxy_ = new WeightFilter(model_, false, this);
    table_ = makeValueTable(this, proxy_);
    table_->setObjectName(QStringLiteral("weightsTable"));
    filter_ = new QComboBox(this);
    filter_->setObjectName(QStringLiteral("weightsFilter"));
    addWeightFilterModes(filter_);
    auto* load = new QPushButton(tr("Load weights…"), this);
    // Checkable: the cast is a setting of the session (later loads are cast
    // too), and unchecking gives the file's own dtypes back.
    cast_ = new QPushButton(tr("Cast to the IR's dtypes"), this);
    cast_->setObjectName(QStringLiteral("castWeightsButton"));
    cast_->setCheckable(true);
    cast_->setToolTip(
        tr("Convert each state_dict tensor whose dtype is not the one the IR declares (a bfloat16 "
           "checkpoint for a float32 IR); the file is not changed"));
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("weightsNameFilter"));
    name_->setPlaceholderText(tr("Filter by name (text, or /regex/)"));
    name_->setClearButtonEnabled(true);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(load);
    top->addWidget(cast_);
    top->addWidget(new QLabel(tr("Show:"), this));
    top->addWidget(filter_);
    top->addStretch(1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(top);
    lay->addWidget(name_);  // a row of its own: the bar above is full in a narrow dock
    lay->addWidget(summary_);
    lay->addWidget(table_, 1);

    connect(load, &QPushButton::clicked, this, &WeightsPanel::loadDialog);
    connect(cast_, &QPushButton::clicked, this, [this](bool on) { c_->values()->setCastWeights(on); });
    connect(filter_, &QComboBox::currentIndexChanged, this,
            [this] { proxy_->setMode(static_cast<WeightFilterMode>(filter_->currentData().toInt())); });
    // Instant on small models; on a 384-expert MoE's 70,000 weights each
    // keystroke of a name would refilter every row while the user types, so
    // the filter waits for a 150 ms pause (Enter applies it at once).
    namePause_ = new QTimer(this);
    namePause_->setSingleShot(true);
    const auto applyName = [this] {
        const NamePattern pattern(name_->text());
        name_->setStyleSheet(pattern.isValid() ? QString() : QStringLiteral("color:#d0302a"));
        name_->setToolTip(pattern.isValid() ? QString() : pattern.error());
        proxy_->setPattern(pattern);
    };
    connect(namePause_, &QTimer::timeout, this, applyName);
    connect(name_, &QLineEdit::textChanged, this, [this, applyName] {
        if (model_->rowCount() > 2000) return namePause_->start(150);
        namePause_->stop();
        applyName();
    });
    connect(name_, &QLineEdit::returnPressed, this, [this, applyName] {
        if (!namePause_->isActive()) return;
        namePause_->stop();
        applyName();
    });
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& i) { showWeightRow(c_, model_->row(proxy_->mapToSource(i).row())); });
    // Arrow keys and type-ahead move the current row: the Tensor viewer follows, as a click does.
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& i) {
        if (i.isValid()) showWeightRow(c_, model_->row(proxy_->mapToSource(i).row()));
    });
    refreshWhenShown_ = new RefreshWhenShown(this, [this] { refresh(); });
    connect(c_->values(), &DebugValues::valuesChanged, refreshWhenShown_, &RefreshWhenShown::request);
    connect(c_, &DebugController::debuggerReset, refreshWhenShown_, &RefreshWhenShown::request);
    connect(c_->values(), &DebugValues::valuesLoadChanged, this, [this] { summary_->setText(summaryText()); });
    refresh();
}

// Another model's filter would hide this one's weights; the same model's still applies.
void WeightsPanel::documentOpened(bool sameModel) {
    if (sameModel) return;
    name_->clear();
    namePause_->stop();  // no pause to wait for: the rows are about to be replaced
    name_->setStyleSheet(QString());
    name_->setToolTip(QString());
    proxy_->setPattern(NamePattern(QString()));
    filter_->setCurrentIndex(0);
}

QTableView* WeightsPanel::table() const {
    refreshWhenShown_->flush();
    return table_;
}

void WeightsPanel::refresh() {
    model_->refresh();
    if (!userColumns(*table_)) table_->resizeColumnsToContents();  // widths the user set stay
    summary_->setText(summaryText());
    const bool on = c_->values()->castWeights();
    const bool mismatched = std::any_of(c_->values()->weightRows().begin(), c_->values()->weightRows().end(),
                                        [](const auto& r) { return r.status == exec::WeightStatus::DTypeMismatch; });
    cast_->setChecked(on);
    cast_->setEnabled(on || mismatched);
}

QString WeightsPanel::summary() const {
    refreshWhenShown_->flush();
    return summary_->text();
}

// "weights.pt — 3 loaded, 1 from constants, 1 missing, ...".
QString WeightsPanel::summaryText() const {
    // No verdict on a state_dict still being read: it would count every weight missing.
    if (c_->values()->isLoadingValues() && c_->values()->valuesLoad().file == exec::ValueFile::Weights)
        return tr("Loading %1… %2%")
            .arg(QFileInfo(c_->values()->valuesLoad().path).fileName())
            .arg(c_->values()->valuesLoad().percent);
    int counts[8] = {}, cast = 0;  // one pass over the rows (70,000 on a big MoE)
    for (const auto& r : c_->values()->weightRows()) {
        counts[static_cast<int>(r.status)]++;
        cast += r.source.find("(cast from ") != std::string::npos ? 1 : 0;  // io/weight_cast.h marks its entries so
    }
    const QString weights = c_->values()->path(exec::ValueFile::Weights);
    const QString file = weights.isEmpty() ? tr("no state_dict loaded") : QFileInfo(weights).fileName();
    using S = exec::WeightStatus;
    // Missing is only an alarm once a state_dict is loaded (see MissingRow::awaitsStateDict).
    const QString missingFormat = weights.isEmpty() || counts[(int)S::Missing] == 0
                                      ? tr("%4 missing")
                                      : tr("<b style='color:#d0302a'>%4 missing</b>");
    const QString format = tr("%1 — %2 loaded, %3 from constants, ") + missingFormat +
                           tr(", %5 shape / %6 dtype mismatch, %7 unused in file");
    auto n = [](int v) { return QString::number(v); };
    const QString castNote = cast > 0 ? tr(" (%n cast to the IR's dtypes)", nullptr, cast) : QString();
    // One multi-argument arg(): a file name containing "%2" is not substituted into.
    return format.arg(file + castNote, n(counts[(int)S::Loaded]),
                      n(counts[(int)S::FromIr] + counts[(int)S::FromConstants] + counts[(int)S::Entered]),
                      n(counts[(int)S::Missing]), n(counts[(int)S::ShapeMismatch]), n(counts[(int)S::DTypeMismatch]),
                      n(counts[(int)S::UnusedInFile]));
}

int WeightsPanel::visibleRows() const {
    refreshWhenShown_->flush();
    return proxy_->rowCount();
}

void WeightsPanel::loadDialog() {
    const QString f = QFileDialog::getOpenFileName(
        this, tr("Load state_dict"), dialogStart(DialogKind::Weights, c_->session()->filePath()), tensorFileFilter());
    rememberDialogFolder(DialogKind::Weights, f);
    if (!f.isEmpty()) c_->values()->load(exec::ValueFile::Weights, f);
}

void WeightsPanel::loadFolderDialog() {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Load a sharded checkpoint (the repository folder)"),
                                                        dialogStart(DialogKind::Weights, c_->session()->filePath()));
    rememberDialogFolder(DialogKind::Weights, d);
    if (!d.isEmpty()) c_->values()->load(exec::ValueFile::Weights, d);
}

namespace {

const bool weightsPanelRegistered = registerPanel({
    .id = kWeightsPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Weights"),
    .order = 10,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new WeightsPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, {}},
});

}  // namespace

}  // namespace irscope::widgets

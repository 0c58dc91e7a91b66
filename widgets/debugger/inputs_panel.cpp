#include "widgets/debugger/inputs_panel.h"

#include <algorithm>
#include <optional>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/common/dialog_folders.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/refresh_when_shown.h"
#include "widgets/common/view_state.h"
#include "widgets/debugger/inputs_model.h"
#include "widgets/debugger/value_table.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

InputsPanel::InputsPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("inputsPanel"));
    model_ = new InputsModel(c, this);
    table_ = makeValueTable(this, model_);
    table_->setSortingEnabled(false);
    table_->setObjectName(QStringLiteral("inputsTable"));
    source_ = new QComboBox(this);
    source_->setObjectName(QStringLiteral("inputSource"));
    for (auto s :
         {exec::InputSource::Random, exec::InputSource::Zeros, exec::InputSource::Ones, exec::InputSource::File})
        source_->addItem(tr(exec::inputSourceName(s)), QVariant::fromValue(static_cast<int>(s)));
    seed_ = new QSpinBox(this);
    seed_->setObjectName(QStringLiteral("inputSeed"));
    seed_->setRange(0, 1 << 30);
    seed_->setPrefix(tr("seed "));
    auto* load = new QPushButton(tr("Load inputs…"), this);
    all_ = new QPushButton(tr("All"), this);
    all_->setToolTip(tr("Use this source for every input"));
    auto* exp = new QPushButton(tr("Expected outputs…"), this);
    auto* inter = new QPushButton(tr("Reference intermediates…"), this);
    auto* diverge = new QPushButton(tr("Go to first divergence"), this);
    diverge->setObjectName(QStringLiteral("goToDivergence"));
    refs_ = new QLabel(this);
    refs_->setWordWrap(true);
    divergence_ = new QLabel(this);
    divergence_->setObjectName(QStringLiteral("divergenceLabel"));
    divergence_->setWordWrap(true);

    auto* srcRow = new QHBoxLayout;
    srcRow->addWidget(new QLabel(tr("Source:"), this));
    srcRow->addWidget(source_);
    srcRow->addWidget(all_);
    srcRow->addWidget(seed_);
    srcRow->addWidget(load);
    srcRow->addStretch(1);
    auto* refRow = new QHBoxLayout;
    refRow->addWidget(exp);
    refRow->addWidget(inter);
    refRow->addWidget(diverge);
    refRow->addStretch(1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(srcRow);
    lay->addWidget(table_, 1);
    lay->addLayout(refRow);
    lay->addWidget(refs_);
    lay->addWidget(divergence_);

    connectSources();
    connectFiles(load, exp, inter);
    connect(diverge, &QPushButton::clicked, c_->checks(), &NumericChecks::goToFirstDivergence);
    connect(table_, &QTableView::clicked, this, &InputsPanel::onRowClicked);
    connect(c_->checks(), &NumericChecks::divergenceChanged, this, [this] {
        const auto& d = c_->checks()->divergence();
        // The last run's verdict says more than "no node diverges" does.
        if (!d.found && divergence_->text().startsWith(tr("Last run: ").trimmed())) return;
        divergence_->setStyleSheet(d.found ? QStringLiteral("color:#d0302a") : QString());
        divergence_->setText(q(d.message));
    });
    // The last run's verdict against the expected outputs, where they were loaded.
    connect(c_, &DebugController::stopped, this, [this] {
        if (c_->verdict().isEmpty()) {
            // A reset, or a run that did not finish: the last verdict no longer holds.
            if (divergence_->text().startsWith(tr("Last run: ").trimmed())) {
                divergence_->clear();
                divergence_->setStyleSheet({});
            }
            return;
        }
        const bool bad = !c_->verdict().startsWith(QLatin1String("outputs match")) &&
                         !c_->verdict().startsWith(QLatin1String("local error: no node"));
        divergence_->setStyleSheet(bad ? QStringLiteral("color:#d0302a") : QStringLiteral("color:#2a8a3a"));
        divergence_->setText(tr("Last run: %1").arg(c_->verdict()));
    });
    rebuildWhenShown_ = new RefreshWhenShown(this, [this] { rebuild(); });
    connect(c_->values(), &DebugValues::valuesChanged, rebuildWhenShown_, &RefreshWhenShown::request);
    connect(c_, &DebugController::debuggerReset, rebuildWhenShown_, &RefreshWhenShown::request);
    rebuild();
}

// A document opened (another model, or this one again): the last run's
// verdict and divergence were about a run that is gone.
void InputsPanel::documentOpened(bool) {
    divergence_->clear();
    divergence_->setStyleSheet({});
}

QTableView* InputsPanel::table() const {
    rebuildWhenShown_->flush();
    return table_;
}

QLabel* InputsPanel::referencesLabel() const {
    rebuildWhenShown_->flush();
    return refs_;
}

QString InputsPanel::selectedInput() const {
    const auto idx = table_->currentIndex();
    return idx.isValid() ? q(model_->row(idx.row()).name) : QString();
}

// A source picked applies to the selected input, or to all when none is selected.
void InputsPanel::connectSources() {
    connect(source_, &QComboBox::activated, this, [this](int i) {
        const auto source = static_cast<exec::InputSource>(source_->itemData(i).toInt());
        const QString in = selectedInput();
        if (!in.isEmpty())
            c_->values()->setInputSource(in, source);
        else
            c_->values()->setAllInputSources(source);
    });
    connect(all_, &QPushButton::clicked, this, [this] {
        c_->values()->setAllInputSources(static_cast<exec::InputSource>(source_->currentData().toInt()));
    });
    connect(seed_, &QSpinBox::valueChanged, this, [this](int v) { c_->values()->setSeed(v); });
}

void InputsPanel::connectFiles(QPushButton* load, QPushButton* expected, QPushButton* intermediates) {
    connect(load, &QPushButton::clicked, this, [this] { loadDialog(exec::ValueFile::Inputs); });
    connect(expected, &QPushButton::clicked, this, [this] { loadDialog(exec::ValueFile::Expected); });
    connect(intermediates, &QPushButton::clicked, this,
            [this] { loadDialog(exec::ValueFile::ReferenceIntermediates); });
}

void InputsPanel::loadDialog(exec::ValueFile file) {
    const QString title = file == exec::ValueFile::Inputs     ? tr("Load inputs")
                          : file == exec::ValueFile::Expected ? tr("Load expected outputs")
                                                              : tr("Load reference intermediates");
    const DialogKind kind = file == exec::ValueFile::Inputs ? DialogKind::Inputs : DialogKind::Reference;
    const QString f =
        QFileDialog::getOpenFileName(this, title, dialogStart(kind, c_->session()->filePath()), tensorFileFilter());
    rememberDialogFolder(kind, f);
    if (!f.isEmpty()) c_->values()->load(file, f);
}

// A row shows its source in the box, selects the input on the graph and shows its tensor.
void InputsPanel::onRowClicked(const QModelIndex& i) {
    const auto& r = model_->row(i.row());
    source_->setCurrentIndex(source_->findData(static_cast<int>(r.source)));
    if (const LoadedDocument* doc = c_->session()->document())
        for (size_t k = 0; k < doc->graph.graphInputs.size(); ++k)
            if (doc->graph.graphInputs[k].name == r.name)
                c_->session()->selectionModel()->select(ItemRef::graphInput(k, q(r.name)), true);
    c_->tensors()->showTensor(q(r.name));
}

void InputsPanel::rebuild() {
    model_->refresh();
    if (!userColumns(*table_)) table_->resizeColumnsToContents();  // widths the user set stay
    auto name = [](const QString& p) { return p.isEmpty() ? tr("none") : QFileInfo(p).fileName(); };
    refs_->setText(tr("Inputs file: %1 · Expected outputs: %2 · Reference intermediates: %3")
                       .arg(name(c_->values()->path(exec::ValueFile::Inputs)),
                            name(c_->values()->path(exec::ValueFile::Expected)),
                            name(c_->values()->path(exec::ValueFile::ReferenceIntermediates))));
    const QSignalBlocker b(seed_);
    seed_->setValue(static_cast<int>(c_->values()->seed()));
    // The box shows the source of the selected input, or the one every input
    // shares (it said "random" while each row said "file"); left as it is
    // when the inputs differ.
    const auto& rows = c_->values()->inputRows();
    std::optional<exec::InputSource> shown;
    if (const auto idx = table_->currentIndex(); idx.isValid() && idx.row() < static_cast<int>(rows.size()))
        shown = model_->row(idx.row()).source;
    else if (!rows.empty() &&
             std::all_of(rows.begin(), rows.end(), [&rows](const auto& r) { return r.source == rows.front().source; }))
        shown = rows.front().source;
    if (shown) {
        const QSignalBlocker sb(source_);
        source_->setCurrentIndex(source_->findData(static_cast<int>(*shown)));
    }
}

namespace {

const bool inputsPanelRegistered = registerPanel({
    .id = kInputsPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Inputs and references"),
    .order = 40,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new InputsPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, kWeightsPanel},
});

}  // namespace

}  // namespace irscope::widgets

#include "widgets/debugger/constants_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "core/exec/values/value_text.h"
#include "widgets/common/dialog_folders.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/refresh_when_shown.h"
#include "widgets/common/view_state.h"
#include "widgets/debugger/value_table.h"
#include "widgets/debugger/weight_filter.h"
#include "widgets/debugger/weights_model.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

ConstantsPanel::ConstantsPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("constantsPanel"));
    model_ = new WeightsModel(c, this);
    proxy_ = new WeightFilter(model_, true, this);
    table_ = makeValueTable(this, proxy_);
    table_->setObjectName(QStringLiteral("constantsTable"));
    // Status right after the names: at the dock's default width it was off-screen, past the shapes.
    table_->horizontalHeader()->moveSection(WeightsModel::Status, WeightsModel::Kind);
    QLayout* edit = buildEditRow();  // first: the focus chain follows creation order
    auto* load = new QPushButton(tr("Load constants…"), this);
    auto* save = new QPushButton(tr("Save entered…"), this);
    save->setToolTip(
        tr("Write the constants from the file and those entered here to a .pt/.safetensors file "
           "(the IR itself is never modified)"));
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("constantMessage"));
    message_->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(load);
    top->addWidget(save);
    top->addStretch(1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(top);
    lay->addWidget(table_, 1);
    lay->addLayout(edit);
    lay->addWidget(message_);

    connect(load, &QPushButton::clicked, this, &ConstantsPanel::loadDialog);
    connect(save, &QPushButton::clicked, this, [this] { saveDialog(); });
    connectEditing();
    rebuildWhenShown_ = new RefreshWhenShown(this, [this] { rebuild(); });
    connect(c_->values(), &DebugValues::valuesChanged, rebuildWhenShown_, &RefreshWhenShown::request);
    connect(c_, &DebugController::debuggerReset, rebuildWhenShown_, &RefreshWhenShown::request);
    rebuild();
}

// A half-typed entry and its hint belong to the model they were typed for.
void ConstantsPanel::documentOpened(bool sameModel) {
    if (sameModel) return;
    name_->setCurrentText(QString());
    value_->clear();
    message_->clear();
}

QTableView* ConstantsPanel::table() const {
    rebuildWhenShown_->flush();
    return table_;
}

QComboBox* ConstantsPanel::nameBox() const {
    rebuildWhenShown_->flush();
    return name_;
}

// Name (editable, the constants listed), value text, dtype, Set, Clear.
QLayout* ConstantsPanel::buildEditRow() {
    name_ = new QComboBox(this);
    name_->setObjectName(QStringLiteral("constantName"));
    name_->setEditable(true);
    name_->setMinimumContentsLength(12);
    value_ = new QLineEdit(this);
    value_->setObjectName(QStringLiteral("constantValue"));
    value_->setPlaceholderText(tr("value, e.g. [1, 0, 1, 0]"));
    dtype_ = new QComboBox(this);
    dtype_->setObjectName(QStringLiteral("constantDtype"));
    for (const auto& d : exec::enterableDtypes()) dtype_->addItem(q(d));
    set_ = new QPushButton(tr("Set"), this);
    set_->setObjectName(QStringLiteral("constantSet"));
    clear_ = new QPushButton(tr("Clear"), this);
    auto* edit = new QHBoxLayout;
    edit->addWidget(name_);
    edit->addWidget(value_, 1);
    edit->addWidget(dtype_);
    edit->addWidget(set_);
    edit->addWidget(clear_);
    return edit;
}

void ConstantsPanel::connectEditing() {
    connect(set_, &QPushButton::clicked, this, &ConstantsPanel::enterTyped);
    connect(value_, &QLineEdit::returnPressed, this, &ConstantsPanel::enterTyped);
    connect(clear_, &QPushButton::clicked, this, [this] { c_->values()->clearConstant(name_->currentText()); });
    connect(c_->values(), &DebugValues::constantEntered, this, [this](bool ok, const QString& m) {
        message_->setStyleSheet(ok && !m.startsWith(tr("Warning")) ? QString() : QStringLiteral("color:#d0302a"));
        message_->setText(m);
    });
    // A name typed or picked in the box takes that constant's IR dtype and
    // hint, as a click on its row does: typing "positions" left float32 for
    // an int64 constant, and Set then warned of a dtype mismatch.
    connect(name_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        const std::string wanted = name.toStdString();
        for (const auto& r : c_->values()->weightRows())
            if (r.constantLike && r.originalName == wanted) {
                if (!r.irDtype.empty()) dtype_->setCurrentText(q(r.irDtype));
                showHint(r);
                return;
            }
    });
    // A row fills in the name and the IR's dtype, and shows the constant.
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
        const auto& r = model_->row(proxy_->mapToSource(i).row());
        name_->setCurrentText(q(r.originalName));
        if (!r.irDtype.empty()) dtype_->setCurrentText(q(r.irDtype));
        showHint(r);
        message_->clear();  // the last Set's outcome was about another row
        message_->setStyleSheet({});
        showWeightRow(c_, r);
    });
}

void ConstantsPanel::enterTyped() {
    if (name_->currentText().isEmpty() || value_->text().trimmed().isEmpty()) return;
    message_->setText(tr("Setting %1…").arg(name_->currentText()));
    c_->values()->enterConstant(name_->currentText(), value_->text(), dtype_->currentText());
}

// The value box's hint follows the row: its shape and dtype, as typed.
void ConstantsPanel::showHint(const exec::WeightRow& r) {
    const std::string example = exec::exampleValueText(r.irShape, r.irDtype);
    if (example.empty()) {
        value_->setPlaceholderText(tr("value as a nested list"));
        return;
    }
    value_->setPlaceholderText(example.starts_with("a ") ? q(example) : tr("value, e.g. %1").arg(q(example)));
}

// The name box lists the constants; it keeps what was typed, else offers the first missing one.
void ConstantsPanel::rebuild() {
    model_->refresh();
    if (!userColumns(*table_)) table_->resizeColumnsToContents();  // widths the user set stay
    const QString keep = name_->currentText();
    name_->clear();
    QString firstMissing, firstDtype;
    for (const auto& r : c_->values()->weightRows()) {
        if (!r.constantLike || r.status == exec::WeightStatus::UnusedInFile) continue;
        name_->addItem(q(r.originalName));
        if (firstMissing.isEmpty() && r.status == exec::WeightStatus::Missing) {
            firstMissing = q(r.originalName);
            firstDtype = q(r.irDtype);
        }
    }
    if (!keep.isEmpty())
        name_->setCurrentText(keep);
    else if (!firstMissing.isEmpty()) {
        name_->setCurrentText(firstMissing);
        if (!firstDtype.isEmpty()) dtype_->setCurrentText(firstDtype);
    }
    const std::string current = name_->currentText().toStdString();
    for (const auto& r : c_->values()->weightRows())
        if (r.originalName == current) showHint(r);
}

void ConstantsPanel::loadDialog() {
    const QString f = QFileDialog::getOpenFileName(
        this, tr("Load constants"), dialogStart(DialogKind::Constants, c_->session()->filePath()), tensorFileFilter());
    rememberDialogFolder(DialogKind::Constants, f);
    if (!f.isEmpty()) c_->values()->load(exec::ValueFile::Constants, f);
}

void ConstantsPanel::saveDialog(std::function<void(bool saved)> done) {
    const QString f = QFileDialog::getSaveFileName(
        this, tr("Save constants"),
        dialogStart(DialogKind::Constants, c_->session()->filePath(), QStringLiteral("constants.pt")),
        QStringLiteral("PyTorch (*.pt);;safetensors (*.safetensors)"));
    if (f.isEmpty()) {
        if (done) done(false);
        return;
    }
    rememberDialogFolder(DialogKind::Constants, f);
    message_->setText(tr("Saving %1…").arg(f));
    c_->values()->saveConstants(f, [this, f, done = std::move(done)](const QString& err) {
        message_->setStyleSheet(err.isEmpty() ? QString() : QStringLiteral("color:#d0302a"));
        message_->setText(err.isEmpty() ? tr("Saved %1").arg(f) : err);
        if (done) done(err.isEmpty());
    });
}

namespace {

const bool constantsPanelRegistered = registerPanel({
    .id = kConstantsPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Constants"),
    .order = 30,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new ConstantsPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, kWeightsPanel},
});

}  // namespace

}  // namespace irscope::widgets

#include "widgets/debugger/missing_values_panel.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/debugger/remedy_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

MissingValuesPanel::MissingValuesPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("missingValuesPanel"));
    title_ = new QLabel(this);
    title_->setWordWrap(true);  // long lines must not widen the window
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("missingValuesList"));
    list_->setWordWrap(true);
    cast_ = new QPushButton(tr("Cast weights to the IR's dtypes"), this);
    cast_->setObjectName(QStringLiteral("castWeightsFix"));
    cast_->setToolTip(tr("Convert each state_dict tensor whose dtype is not the IR's; the file is not changed"));
    connect(cast_, &QPushButton::clicked, this, [this] { c_->values()->setCastWeights(true); });
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(title_);
    lay->addWidget(cast_, 0, Qt::AlignLeft);
    lay->addWidget(list_);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* it) {
        const int r = it->data(Qt::UserRole).toInt();  // index into missing()
        if (r < 0 || r >= (int)c_->values()->missing().size()) return;
        const auto& m = c_->values()->missing()[r];
        if (!m.value.nodes.empty()) c_->session()->selectionModel()->selectNodeByName(q(m.value.nodes.front()), true);
    });
    connect(c_->values(), &DebugValues::valuesChanged, this, &MissingValuesPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &MissingValuesPanel::rebuild);
    connect(c_->values(), &DebugValues::valuesLoadChanged, this, &MissingValuesPanel::rebuild);
    rebuild();
}

void MissingValuesPanel::rebuild() {
    list_->clear();
    // No verdict while a file that supplies values is still being read.
    if (c_->values()->isLoadingValues() && (c_->values()->valuesLoad().file == exec::ValueFile::Weights ||
                                            c_->values()->valuesLoad().file == exec::ValueFile::Constants ||
                                            c_->values()->valuesLoad().file == exec::ValueFile::Inputs)) {
        setVisible(true);
        title_->setText(tr("Loading %1… the pre-flight check follows once it is read")
                            .arg(QFileInfo(c_->values()->valuesLoad().path).fileName().toHtmlEscaped()));
        list_->hide();
        cast_->hide();
        return;
    }
    const auto& m = c_->values()->missing();
    setVisible(!m.empty());
    // Values only a state_dict can supply are no alarm while none is loaded: one
    // neutral line for them, red rows for what a state_dict can never supply.
    int awaiting = 0, castable = 0, dangling = 0, refused = 0;
    for (const auto& r : m) {
        awaiting += r.awaitsStateDict ? 1 : 0;
        castable += r.remedy == exec::Remedy::CastToIrDtype ? 1 : 0;
        dangling += isDanglingValue(r) ? 1 : 0;
        refused += r.value.refusal.empty() ? 0 : 1;
    }
    const int alarming = static_cast<int>(m.size()) - awaiting - dangling - refused;
    QString title;
    // An input there but outside a dynamic-shape program's ranges: not missing.
    if (refused > 0)
        title =
            tr("<b style='color:#d0302a'>Pre-flight: %n input(s) outside the ranges the program was exported "
               "for</b> — the program refuses them before it runs (each row says which symbol and range)",
               nullptr, refused);
    // A broken IR first: no file the user loads would fix it.
    if (dangling > 0)
        title += (title.isEmpty() ? QString() : QStringLiteral("<br>")) +
                 tr("<b style='color:#d0302a'>Pre-flight: the IR is broken: %n value(s) read that no node, graph "
                    "input or weight produces</b> — a run stops before the first node that reads one; no file "
                    "supplies them (see the list, and `irscope validate`)",
                    nullptr, dangling);
    if (alarming > castable)
        title += (title.isEmpty() ? QString() : QStringLiteral("<br>")) +
                 tr("<b style='color:#d0302a'>Pre-flight: %n value(s) missing</b> — a run stops before the first node "
                    "that needs one, until they are supplied",
                    nullptr, alarming - castable);
    if (castable > 0)
        title += (title.isEmpty() ? QString() : QStringLiteral("<br>")) +
                 tr("<b style='color:#d0302a'>Pre-flight: %n weight(s) not in the IR's dtype</b> — the ops would "
                    "fail or compute in another precision; a run stops before the first node that reads one",
                    nullptr, castable);
    if (awaiting > 0)
        title += (title.isEmpty() ? QString() : QStringLiteral("<br>")) +
                 tr("No state_dict loaded: %n parameter(s)/buffer(s) will come from one (Weights dock › Load "
                    "weights…)",
                    nullptr, awaiting);
    title_->setText(title);
    for (size_t i = 0; i < m.size(); ++i) {
        const auto& r = m[i];
        if (r.awaitsStateDict) continue;
        auto* it = new QListWidgetItem(missingText(r), list_);
        it->setData(Qt::UserRole, static_cast<int>(i));
        it->setForeground(QColor("#d0302a"));
        it->setToolTip(remedyText(r));
    }
    list_->setVisible(list_->count() > 0);
    cast_->setVisible(castable > 0);
}

QString MissingValuesPanel::title() const { return title_->text(); }

namespace {

const bool missingValuesPanelRegistered = registerPanel({
    .id = kMissingValuesSection,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Missing values"),
    .order = 60,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new MissingValuesPanel(c.controller); },
    .sectionOf = kDiagnosticsPanel,
    .sectionEdge = Qt::TopEdge,
});

}  // namespace

}  // namespace irscope::widgets

#include "widgets/debugger/missing_values_panel.h"

#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

#include "widgets/common/qt_text.h"
#include "widgets/debugger/remedy_text.h"
#include "widgets/main_window/panel_registry.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

MissingValuesPanel::MissingValuesPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("missingValuesPanel"));
    title_ = new QLabel(this);
    title_->setWordWrap(true);  // long lines must not widen the window
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("missingValuesList"));
    list_->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(title_);
    lay->addWidget(list_);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* it) {
        const int r = it->data(Qt::UserRole).toInt();  // index into missing()
        if (r < 0 || r >= (int)c_->missing().size()) return;
        const auto& m = c_->missing()[r];
        if (!m.value.nodes.empty()) c_->session()->selectNodeByName(q(m.value.nodes.front()), true);
    });
    connect(c_, &DebugController::valuesChanged, this, &MissingValuesPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &MissingValuesPanel::rebuild);
    rebuild();
}

void MissingValuesPanel::rebuild() {
    list_->clear();
    const auto& m = c_->missing();
    setVisible(!m.empty());
    // Values only a state_dict can supply are no alarm while none is loaded: one
    // neutral line for them, red rows for what a state_dict can never supply.
    int awaiting = 0;
    for (const auto& r : m) awaiting += r.awaitsStateDict ? 1 : 0;
    const int alarming = static_cast<int>(m.size()) - awaiting;
    QString title;
    if (alarming > 0)
        title =
            tr("<b style='color:#d0302a'>Pre-flight: %n value(s) missing</b> — a run stops before the first node "
               "that needs one, until they are supplied",
               nullptr, alarming);
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
}

namespace {

const bool registered = registerPanel({
    .id = kMissingValuesSection,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Missing values"),
    .order = 60,
    .make = [](const PanelContext& c) -> QWidget* { return new MissingValuesPanel(c.controller); },
    .sectionOf = kDiagnosticsPanel,
    .sectionEdge = Qt::TopEdge,
});

}  // namespace

}  // namespace irscope::widgets

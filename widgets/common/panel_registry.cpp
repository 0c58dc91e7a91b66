#include "widgets/main_window/panel_registry.h"

#include <algorithm>
#include <string_view>

#include <QCoreApplication>
#include <QWidget>

namespace irscope::widgets {

namespace {

// Function-local, so it exists before the first panel file's initializer runs.
std::vector<PanelRegistration>& registry() {
    static std::vector<PanelRegistration> panels;
    return panels;
}

}  // namespace

bool registerPanel(const PanelRegistration& registration) {
    auto& panels = registry();
    panels.push_back(registration);
    std::stable_sort(panels.begin(), panels.end(), [](const PanelRegistration& a, const PanelRegistration& b) {
        return a.order != b.order ? a.order < b.order : std::string_view(a.id.key) < std::string_view(b.id.key);
    });
    return true;
}

const std::vector<PanelRegistration>& registeredPanels() { return registry(); }

QHash<QString, QWidget*> installRegisteredPanels(MainWindow& window, const PanelContext& context) {
    QHash<QString, QWidget*> made;
    for (const PanelRegistration& r : registry()) {
        QWidget* panel = r.make(context);
        if (r.sectionOf && window.panelDock(*r.sectionOf)) {
            window.addPanelSection(*r.sectionOf, panel, r.sectionEdge);
        } else if (r.sectionOf) {
            // The host panel is not in this window: keep the section, unseen, so its owner is still the window.
            panel->setParent(&window);
            panel->hide();
        } else
            window.addPanel(r.id, QCoreApplication::translate("irscope::widgets::Panels", r.title), panel, r.where);
        made.insert(QLatin1String(r.id.key), panel);
    }
    return made;
}

}  // namespace irscope::widgets

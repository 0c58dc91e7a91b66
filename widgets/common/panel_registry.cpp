#include "widgets/common/panel_registry.h"

#include <algorithm>
#include <string_view>

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

bool contextMeets(const PanelContext& c, PanelNeeds needs) {
    if (!c.window || !c.session) return false;
    switch (needs) {
    case PanelNeeds::Session: return true;
    case PanelNeeds::Controller: return c.controller != nullptr;
    case PanelNeeds::Compare: return c.compare != nullptr;
    }
    return false;
}

}  // namespace irscope::widgets

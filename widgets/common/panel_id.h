#pragma once
// PanelId: a dock's identity in the MainWindow. Typed, so that code finds a
// panel by a named constant instead of a string typed where it is used; its
// key is also the dock's object name, by which QSettings keeps the dock
// layout (so a key, once released, must not change). The window's own panels
// are declared here; other parts declare theirs next to their panels.
#include <string_view>

namespace irscope::widgets {

struct PanelId {
    const char* key;
    bool operator==(const PanelId& other) const { return std::string_view(key) == std::string_view(other.key); }
};

inline constexpr PanelId kPropertiesPanel{"propertiesDock"};
inline constexpr PanelId kSearchPanel{"searchDock"};
inline constexpr PanelId kOpStatsPanel{"opStatsDock"};
inline constexpr PanelId kModulesPanel{"modulesDock"};
inline constexpr PanelId kCallStackPanel{"callStackDock"};
inline constexpr PanelId kDiagnosticsPanel{"diagnosticsDock"};

}  // namespace irscope::widgets

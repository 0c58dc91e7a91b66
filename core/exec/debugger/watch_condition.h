#pragma once
// WatchCondition: what a watchpoint stops on (watchpoints.h), and its
// spelling on the command line and in the window ("nan,absmax=100").
// Torch-free and in a light part (irscope_exec_terms): the window parses and
// shows conditions before the execution engine is loaded.
#include <optional>
#include <string>

namespace irscope::exec {

struct WatchCondition {
    bool nan = false;
    bool inf = false;
    bool diff = false;             // fails the reference check's tolerance
    std::optional<double> absMax;  // max |x| above this

    bool any() const { return nan || inf || diff || absMax.has_value(); }
    WatchCondition& operator|=(const WatchCondition& other);
};

// "nan", "inf", "diff", "absmax=V", comma-separated ("nan,inf"); nullopt and
// `error` set when a part is not one of those.
std::optional<WatchCondition> parseWatchCondition(const std::string& text, std::string* error = nullptr);
// The same spelling back: "nan,absmax=100".
std::string watchConditionText(const WatchCondition& condition);

}  // namespace irscope::exec

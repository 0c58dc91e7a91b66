// The charts module (libirscope_charts.so): widgets/charts/ with Qt Charts,
// loaded by the window after its first frame (app/CMakeLists.txt). It only
// registers itself for the launcher's version handshake; the window calls
// its functions directly, bound when first called.
#include "launcher/module_loader.h"

namespace {

const bool chartsModuleRegistered = [] {
    irscope::app::registerModule({"irscope_charts", IRSCOPE_VERSION});
    return true;
}();

}  // namespace

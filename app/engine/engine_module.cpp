// The engine module (libirscope_engine.so): core/exec and core/io with
// libtorch, for the window. It offers nothing by name: loading it is what
// the window needs, since the GUI module's calls into the Debugger resolve
// against it (app/CMakeLists.txt). It registers only to pass the launcher's
// version handshake (launcher/module_loader.h).
#include "launcher/module_loader.h"

namespace {

const bool engineModuleRegistered = [] {
    irscope::app::registerModule({"irscope_engine", IRSCOPE_VERSION});
    return true;
}();

}  // namespace

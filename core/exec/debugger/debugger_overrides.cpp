// Edit and continue: a node's output replaced by a value the user picks,
// then the run taken back to where it was so that everything after that node
// is computed from the new value (DebuggerOverrides::overrideFrom*).
#include <ATen/ATen.h>

#include "core/exec/debugger/debugger_impl.h"
#include "core/exec/debugger/debugger_overrides.h"
#include "core/exec/engine/attr_convert.h"
#include "core/io/tensor_file.h"

namespace irscope::exec {

// Reruns from the start up to the node before `cursor` (where the run
// stood), past breakpoints: the user asked to continue from the replaced
// value, not to stop at a breakpoint already passed.
RunStatus DebuggerOverrides::continueAfterOverride(int64_t cursor, const std::string& tensor, const std::string& what) {
    if (cursor <= 0) {
        RunStatus st;
        st.reason = StopReason::Stepped;
        st.message = "'" + tensor + "' is " + what + " when its node runs";
        return st;
    }
    // The breakpoints come back however the rerun ends.
    struct KeptBreakpoints {
        Session& session;
        std::vector<int64_t> kept = session.breakpoints();
        KeptBreakpoints(Session& s) : session(s) { session.clearBreakpoints(); }
        ~KeptBreakpoints() {
            for (int64_t b : kept) session.setBreakpoint(b, true);
        }
    } keep(core_.session);
    core_.reset();
    RunStatus st = core_.runTo(cursor - 1);
    if (!st.failed && st.reason != StopReason::MissingValue && st.reason != StopReason::Watchpoint)
        st.message = "'" + tensor + "' is " + what + "; ran again to where the run was (" + st.message + ")";
    return st;
}

RunStatus DebuggerOverrides::overrideFromFile(const std::string& tensor, const std::string& path,
                                              const std::string& key) {
    const io::TensorMap file = io::readTensorFile(path);
    const at::Tensor* t = !key.empty() ? file.find(key) : file.find(tensor);
    if (!t && key.empty() && file.size() == 1) t = &file.entries().front().tensor;
    if (!t)
        throw std::invalid_argument(path + ": no tensor '" + (key.empty() ? tensor : key) + "' (the file has " +
                                    std::to_string(file.size()) + "; name one)");
    const int64_t cursor = core_.session.cursor();
    core_.session.setOverride(tensor, *t);
    return continueAfterOverride(cursor, tensor, "overridden from " + path);
}

RunStatus DebuggerOverrides::overrideFromReference(const std::string& tensor) {
    const at::Tensor ref = core_.get(tensor, ValueSide::Reference);
    if (!ref.defined()) throw std::invalid_argument("the reference has no value of '" + tensor + "'");
    const int64_t cursor = core_.session.cursor();
    core_.session.setOverride(tensor, ref.clone());
    return continueAfterOverride(cursor, tensor, "overridden with the reference's value");
}

RunStatus DebuggerOverrides::overrideFromText(const std::string& tensor, const std::string& text) {
    const auto producer = core_.index().producerOfTensor(tensor);
    if (!producer) throw std::invalid_argument("'" + tensor + "' is not a node's output");
    const ir::TensorMeta& meta =
        core_.graph.nodes[static_cast<size_t>(producer->first)].outputs.at(static_cast<size_t>(producer->second));
    const auto dtype = scalarTypeOfIrDtype(meta.dtype);
    const at::Tensor t = tensorFromText(parseNestedList(text), dtype ? *dtype : at::kFloat);
    const int64_t cursor = core_.session.cursor();
    core_.session.setOverride(tensor, t);
    return continueAfterOverride(cursor, tensor, "overridden with a typed value");
}

RunStatus DebuggerOverrides::clearOverride(const std::string& tensor) {
    const int64_t cursor = core_.session.cursor();
    core_.session.clearOverride(tensor);
    return continueAfterOverride(cursor, tensor, "its node's own result again");
}

std::vector<std::string> DebuggerOverrides::overriddenTensors() const { return core_.session.overriddenTensors(); }

}  // namespace irscope::exec

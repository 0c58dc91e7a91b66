#pragma once
// Which globals a tensor file may name, after torch's weights-only unpickler:
// an allowlist (OrderedDict, the tensor rebuild functions, set/complex/bytes
// helpers, torch.Size and torch.device), torch's storage classes and dtypes,
// and the classes of torchao, whose tensor subclasses quantized weights are.
// Python 2 module names are mapped as Python 3's unpickler maps them
// (fix_imports), so a global is judged as torch.load would resolve it.
// Anything else is refused, with a reason that says what the file probably
// holds. Resolving only names things: nothing is imported.
#include <string>

#include "core/io/catalog/pickle_value.h"

namespace irscope::io {

struct ResolvedGlobal {
    std::string module;  // as Python 3 names it
    GlobalKind kind{};
    PickleDType dtype;    // of a storage class or a dtype
    std::string refusal;  // why the global is refused; empty when allowed
};

ResolvedGlobal resolveGlobal(const std::string& fileModule, const std::string& name);

}  // namespace irscope::io

#include "core/io/catalog/pickle_globals.h"

#include <array>
#include <utility>

#include "core/io/catalog/pickle_dtypes.h"

namespace irscope::io {

namespace {

struct AllowedGlobal {
    const char* module;
    const char* name;
    GlobalKind kind;
};

constexpr std::array<AllowedGlobal, 18> kAllowed{{
    {"collections", "OrderedDict", GlobalKind::OrderedDict},
    {"builtins", "set", GlobalKind::Set},
    {"builtins", "frozenset", GlobalKind::FrozenSet},
    {"builtins", "complex", GlobalKind::Complex},
    {"builtins", "bytearray", GlobalKind::Bytearray},
    {"_codecs", "encode", GlobalKind::CodecsEncode},
    {"torch._utils", "_rebuild_tensor", GlobalKind::RebuildTensor},
    {"torch._utils", "_rebuild_tensor_v2", GlobalKind::RebuildTensorV2},
    {"torch._utils", "_rebuild_tensor_v3", GlobalKind::RebuildTensorV3},
    {"torch._utils", "_rebuild_parameter", GlobalKind::RebuildParameter},
    {"torch._utils", "_rebuild_parameter_with_state", GlobalKind::RebuildParameterWithState},
    {"torch._tensor", "_rebuild_from_type_v2", GlobalKind::RebuildFromTypeV2},
    {"torch._utils", "_rebuild_wrapper_subclass", GlobalKind::RebuildWrapperSubclass},
    {"torch.serialization", "_get_layout", GlobalKind::GetLayout},
    {"torch", "Tensor", GlobalKind::TensorClass},
    {"torch.nn.parameter", "Parameter", GlobalKind::ParameterClass},
    {"torch", "Size", GlobalKind::TorchSize},
    {"torch", "device", GlobalKind::TorchDevice},
}};

constexpr std::array<std::pair<const char*, const char*>, 9> kPy2Modules{{
    {"__builtin__", "builtins"},
    {"copy_reg", "copyreg"},
    {"commands", "subprocess"},
    {"cPickle", "pickle"},
    {"exceptions", "builtins"},
    {"UserDict", "collections"},
    {"_abcoll", "collections.abc"},
    {"cStringIO", "io"},
    {"urllib2", "urllib.request"},
}};

}  // namespace

ResolvedGlobal resolveGlobal(const std::string& fileModule, const std::string& name) {
    ResolvedGlobal r;
    r.module = fileModule;
    for (const auto& [py2, py3] : kPy2Modules)
        if (fileModule == py2) r.module = py3;
    const std::string& module = r.module;
    for (const auto& g : kAllowed)
        if (module == g.module && name == g.name) {
            r.kind = g.kind;
            return r;
        }
    if (module == "torch") {
        if (auto dt = storageClassDType(name)) {
            r.kind = GlobalKind::StorageClass;
            r.dtype = std::move(*dt);
            return r;
        }
        if (auto dt = torchDTypeByName(name)) {
            r.kind = GlobalKind::DType;
            r.dtype = std::move(*dt);
            return r;
        }
    }
    // torchao's tensor subclasses (Int8Tensor, Float8Tensor, ...) and the
    // plain records they hold (granularities, enums, kwargs classes): kept
    // as names and inert records; what a subclass means is read from its
    // state by name (tensor_subclass.h), never by running its code.
    if (module == "torchao" || module.rfind("torchao.", 0) == 0) {
        r.kind = GlobalKind::LibraryClass;
        return r;
    }
    std::string full = module + "." + name;
    if (module == "torch._utils" && name.rfind("_rebuild_", 0) == 0) {
        r.refusal = "global '" + full +
                    "' rebuilds a quantized, sparse, nested, meta or subclass tensor, "
                    "which irscope does not support";
        return r;
    }
    std::string hint;
    if (module.rfind("torch.nn.modules", 0) == 0 || module == "__main__")
        hint =
            " (the file holds a whole pickled module or a custom class, not a state_dict; "
            "save model.state_dict() instead)";
    r.refusal = "refused global '" + full +
                "': not in the allowlist of tensor-file globals, "
                "nothing in a file is ever executed" +
                hint;
    return r;
}

}  // namespace irscope::io

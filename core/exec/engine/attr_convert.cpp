#include "core/exec/engine/attr_convert.h"

#include "core/io/tensor_dtype.h"

#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include <ATen/ScalarOps.h>
#include <ATen/core/List.h>
#include <ATen/core/jit_type.h>

namespace irscope::exec {
namespace {

std::string_view stripTorch(std::string_view s) {
    if (s.rfind("torch.", 0) == 0) s.remove_prefix(6);
    return s;
}

[[noreturn]] void fail(const std::string& what, const nlohmann::ordered_json& v) {
    throw AttrConversionError("cannot convert " + v.dump() + " to " + what);
}

int64_t toInt(const nlohmann::ordered_json& v, const char* what) {
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
    if (v.is_number_float()) {
        // An integral float (e.g. a correction of 1.0) is accepted as the int it is.
        double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) return static_cast<int64_t>(d);
    }
    fail(what, v);
}

double toDouble(const nlohmann::ordered_json& v) {
    if (v.is_number()) return v.get<double>();
    if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
    if (v.is_string()) {  // "inf", "nan" as some writers spell them
        auto s = v.get<std::string>();
        if (s == "inf" || s == "Infinity") return INFINITY;
        if (s == "-inf" || s == "-Infinity") return -INFINITY;
        if (s == "nan" || s == "NaN") return NAN;
    }
    fail("float", v);
}

c10::IValue convertType(const c10::TypePtr& type, c10::optional<int32_t> n, const nlohmann::ordered_json& v);

c10::IValue convertList(const c10::TypePtr& elem, c10::optional<int32_t> n, const nlohmann::ordered_json& v) {
    // A bare value where the schema says int[N]: Python expands it to N copies.
    nlohmann::ordered_json items = v;
    if (!v.is_array()) {
        if (v.is_null()) fail("list", v);
        items = nlohmann::ordered_json::array();
        for (int32_t i = 0; i < n.value_or(1); ++i) items.push_back(v);
    }
    switch (elem->kind()) {
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: {
        c10::List<int64_t> out;
        for (const auto& x : items) out.push_back(toInt(x, "int"));
        return out;
    }
    case c10::TypeKind::FloatType: {
        c10::List<double> out;
        for (const auto& x : items) out.push_back(toDouble(x));
        return out;
    }
    case c10::TypeKind::BoolType: {
        c10::List<bool> out;
        for (const auto& x : items) {
            if (!x.is_boolean()) fail("bool", x);
            out.push_back(x.get<bool>());
        }
        return out;
    }
    default: {
        c10::impl::GenericList out(elem);
        for (const auto& x : items) out.push_back(convertType(elem, c10::nullopt, x));
        return out;
    }
    }
}

c10::IValue convertType(const c10::TypePtr& type, c10::optional<int32_t> n, const nlohmann::ordered_json& v) {
    switch (type->kind()) {
    case c10::TypeKind::OptionalType:
        if (v.is_null()) return c10::IValue();
        return convertType(type->castRaw<c10::OptionalType>()->getElementType(), n, v);
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: return toInt(v, "int");
    case c10::TypeKind::FloatType: return toDouble(v);
    case c10::TypeKind::BoolType:
        if (v.is_boolean()) return v.get<bool>();
        if (v.is_number_integer() && (v.get<int64_t>() == 0 || v.get<int64_t>() == 1)) return v.get<int64_t>() == 1;
        fail("bool", v);
    case c10::TypeKind::NumberType: return jsonToScalar(v);
    case c10::TypeKind::StringType:
        if (v.is_string()) return v.get<std::string>();
        fail("str", v);
    case c10::TypeKind::ScalarTypeType: {
        std::optional<c10::ScalarType> st;
        if (v.is_string())
            st = parseScalarType(v.get<std::string>());
        else if (v.is_number_integer())
            st = parseScalarType(std::to_string(v.get<int64_t>()));
        if (!st) fail("dtype", v);
        return *st;
    }
    case c10::TypeKind::LayoutType: {
        std::optional<c10::Layout> l;
        if (v.is_string())
            l = parseLayout(v.get<std::string>());
        else if (v.is_number_integer())
            l = parseLayout(std::to_string(v.get<int64_t>()));
        if (!l) fail("layout", v);
        return *l;
    }
    case c10::TypeKind::MemoryFormatType: {
        std::optional<c10::MemoryFormat> m;
        if (v.is_string())
            m = parseMemoryFormat(v.get<std::string>());
        else if (v.is_number_integer())
            m = parseMemoryFormat(std::to_string(v.get<int64_t>()));
        if (!m) fail("memory format", v);
        return *m;
    }
    case c10::TypeKind::DeviceObjType: {
        // irscope runs everything on the CPU: "meta" means "run on the CPU"
        // (torch_ir usually extracts on meta), and cuda/mps graphs run here too.
        // Users' own save code writes str() ("meta", "cuda:0") or repr()
        // ("device(type='meta')", "torch.device('cuda', 0)"): the device type
        // is the first word inside the quotes.
        if (!v.is_string()) fail("device", v);
        auto s = v.get<std::string>();
        if (const auto quote = s.find('\''); quote != std::string::npos) s = s.substr(quote + 1);
        static const char* known[] = {"cpu", "meta", "cuda", "mps", "xpu", "hip"};
        for (const char* k : known)
            if (s.rfind(k, 0) == 0) return c10::Device(c10::kCPU);
        fail("device", v);
    }
    case c10::TypeKind::ListType: return convertList(type->castRaw<c10::ListType>()->getElementType(), n, v);
    case c10::TypeKind::TensorType:
        if (v.is_number() || v.is_boolean()) return wrappedScalarTensor(jsonToScalar(v));
        fail("Tensor", v);
    case c10::TypeKind::GeneratorType:
        if (v.is_null()) return c10::IValue();
        fail("Generator", v);
    default: fail(type->str(), v);
    }
}

}  // namespace

std::optional<c10::ScalarType> parseScalarType(std::string_view name) {
    using S = c10::ScalarType;
    // torch_ir's names and Python's aliases: the one table in core/io.
    if (auto type = io::scalarTypeFromName(name)) return type;
    name = stripTorch(name);
    // Quantized dtypes are never tensor dtypes in an IR, but may name an attr value.
    if (name == "qint8") return S::QInt8;
    if (name == "quint8") return S::QUInt8;
    if (name == "qint32") return S::QInt32;
    // An integer dtype: c10 numbering (docs/libtorch-versions.md §5).
    if (!name.empty() && name.size() < 4 &&
        std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        int v = std::stoi(std::string(name));
        if (v >= 0 && v < static_cast<int>(S::NumOptions)) return static_cast<S>(v);
    }
    return std::nullopt;
}

std::optional<c10::ScalarType> scalarTypeOfIrDtype(std::string_view irDtype) {
    if (irDtype.empty()) return std::nullopt;
    if (!irDtype.empty() && irDtype[0] >= '0' && irDtype[0] <= '9') return std::nullopt;
    return parseScalarType(irDtype);
}

std::optional<c10::Layout> parseLayout(std::string_view name) {
    name = stripTorch(name);
    if (name == "strided") return c10::kStrided;
    if (name == "sparse_coo") return c10::kSparse;
    if (name == "sparse_csr") return c10::kSparseCsr;
    if (name == "sparse_csc") return c10::kSparseCsc;
    if (name == "sparse_bsr") return c10::kSparseBsr;
    if (name == "sparse_bsc") return c10::kSparseBsc;
    if (name == "_mkldnn") return c10::kMkldnn;
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '6') return static_cast<c10::Layout>(name[0] - '0');
    return std::nullopt;
}

std::optional<c10::MemoryFormat> parseMemoryFormat(std::string_view name) {
    name = stripTorch(name);
    if (name == "contiguous_format") return c10::MemoryFormat::Contiguous;
    if (name == "preserve_format") return c10::MemoryFormat::Preserve;
    if (name == "channels_last") return c10::MemoryFormat::ChannelsLast;
    if (name == "channels_last_3d") return c10::MemoryFormat::ChannelsLast3d;
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '3') return static_cast<c10::MemoryFormat>(name[0] - '0');
    return std::nullopt;
}

c10::Scalar jsonToScalar(const nlohmann::ordered_json& v) {
    if (v.is_boolean()) return c10::Scalar(v.get<bool>());
    if (v.is_number_integer()) return c10::Scalar(v.get<int64_t>());
    if (v.is_number_float() || v.is_string()) return c10::Scalar(toDouble(v));
    fail("Scalar", v);
}

at::Tensor wrappedScalarTensor(const c10::Scalar& scalar) {
    at::Tensor t = at::scalar_to_tensor(scalar);
    t.unsafeGetTensorImpl()->set_wrapped_number(true);
    return t;
}

at::Tensor sharedWrappedScalarTensor(const c10::Scalar& scalar) {
    // Keyed by type and bits: 0.0 and -0.0, 1 and 1.0, true and 1 stay apart.
    struct Key {
        c10::ScalarType type;
        uint64_t bits;
        bool operator==(const Key&) const = default;
    };
    struct Hash {
        size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.bits) ^ static_cast<size_t>(k.type); }
    };
    Key key{scalar.type(), 0};
    if (scalar.isFloatingPoint()) {
        const double d = scalar.toDouble();
        std::memcpy(&key.bits, &d, sizeof d);
    } else if (scalar.isIntegral(false) || scalar.isBoolean()) {
        key.bits = static_cast<uint64_t>(scalar.toLong());
    } else {
        return wrappedScalarTensor(scalar);  // complex: rare, not shared
    }
    static std::mutex mutex;
    static std::unordered_map<Key, at::Tensor, Hash> shared;
    std::lock_guard lock(mutex);
    auto [it, added] = shared.try_emplace(key);
    if (added) it->second = wrappedScalarTensor(scalar);
    return it->second;
}

c10::IValue attrToIValue(const c10::Argument& arg, const nlohmann::ordered_json& value) {
    return convertType(arg.real_type(), arg.N(), value);
}

}  // namespace irscope::exec

#include "core/exec/engine/unboxed_call.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/exec/engine/op_binding.h"

namespace irscope::exec {
namespace {

// One letter per argument, in schema order:
//   T Tensor          O Tensor?         S Scalar
//   I int             B bool            D float           L int[]
template <char K>
struct Arg;

template <>
struct Arg<'T'> {
    using type = const at::Tensor&;
    static const at::Tensor& get(const at::Tensor* const* in, const ArgSlot& s, const int64_t*) {
        return s.kind == ArgSlot::Kind::Tensor ? *in[s.first] : s.constant.toTensor();
    }
};
template <>
struct Arg<'O'> {
    using type = const c10::optional<at::Tensor>&;
    static c10::optional<at::Tensor> get(const at::Tensor* const* in, const ArgSlot& s, const int64_t*) {
        if (s.kind == ArgSlot::Kind::Tensor) return *in[s.first];
        if (s.constant.isTensor()) return s.constant.toTensor();
        return c10::nullopt;
    }
};
template <>
struct Arg<'S'> {
    using type = const at::Scalar&;
    // Inline for the kinds fits() lets through (IValue::toScalar is a call).
    static at::Scalar get(const at::Tensor* const*, const ArgSlot& s, const int64_t*) {
        if (s.constant.isDouble()) return s.constant.toDouble();
        if (s.constant.isInt()) return s.constant.toInt();
        return s.constant.toBool();
    }
};
// I, B, D: a constant read as the C++ type.
template <class T, T (c10::IValue::*read)() const>
struct ConstantArg {
    using type = T;
    static T get(const at::Tensor* const*, const ArgSlot& s, const int64_t*) { return (s.constant.*read)(); }
};
template <>
struct Arg<'I'> : ConstantArg<int64_t, &c10::IValue::toInt> {};
template <>
struct Arg<'B'> : ConstantArg<bool, &c10::IValue::toBool> {};
template <>
struct Arg<'D'> : ConstantArg<double, &c10::IValue::toDouble> {};
template <>
struct Arg<'L'> {
    using type = at::IntArrayRef;
    static at::IntArrayRef get(const at::Tensor* const*, const ArgSlot& s, const int64_t* ints) {
        return {ints + s.first, static_cast<size_t>(s.count)};
    }
};

template <char... K>
using Signature = at::Tensor(typename Arg<K>::type...);

template <char... K, size_t... I>
at::Tensor callWith(const void* handle, const at::Tensor* const* in, const ArgSlot* s, const int64_t* ints,
                    std::index_sequence<I...>) {
    return static_cast<const c10::TypedOperatorHandle<Signature<K...>>*>(handle)->call(Arg<K>::get(in, s[I], ints)...);
}

template <char... K>
at::Tensor call(const void* handle, const at::Tensor* const* in, const ArgSlot* s, const int64_t* ints) {
    return callWith<K...>(handle, in, s, ints, std::make_index_sequence<sizeof...(K)>());
}

// The typed handle, made once per operator; typed<>() throws when the
// kernel's registered C++ signature differs.
template <char... K>
std::shared_ptr<const void> typedHandle(const c10::OperatorHandle& op) {
    return std::make_shared<const c10::TypedOperatorHandle<Signature<K...>>>(op.typed<Signature<K...>>());
}

struct Shape {
    const char* letters;
    UnboxedCall::Fn fn;
    std::shared_ptr<const void> (*makeHandle)(const c10::OperatorHandle&);
};

template <char... K>
struct Letters {
    static constexpr char value[] = {K..., '\0'};
};

template <char... K>
constexpr Shape shape() {
    return {Letters<K...>::value, &call<K...>, &typedHandle<K...>};
}

// The signatures most ops of exported graphs have (elementwise, matmul,
// linear, views by dims, reductions by dims, softmax, dropout).
constexpr Shape kShapes[] = {
    shape<'T'>(),                      // neg, relu, silu, exp, rsqrt
    shape<'T', 'T'>(),                 // mul.Tensor, div.Tensor, mm, bmm, matmul
    shape<'T', 'T', 'S'>(),            // add.Tensor, sub.Tensor
    shape<'T', 'S'>(),                 // mul.Scalar, pow.Tensor_Scalar, div.Scalar
    shape<'T', 'S', 'S'>(),            // add.Scalar, sub.Scalar
    shape<'T', 'T', 'T'>(),            // where.self
    shape<'T', 'T', 'O'>(),            // linear
    shape<'T', 'T', 'T', 'S', 'S'>(),  // addmm, baddbmm
    shape<'T', 'I'>(),                 // unsqueeze, squeeze.dim
    shape<'T', 'I', 'I'>(),            // transpose.int, flatten.using_ints
    shape<'T', 'I', 'B'>(),            // _softmax, _log_softmax
    shape<'T', 'L'>(),                 // permute
    shape<'T', 'L', 'B'>(),            // amax, amin
    shape<'T', 'D', 'B'>(),            // dropout
    shape<'T', 'T', 'D'>(),            // lerp-like float-scaled binaries
};

// The schema's shape in letters, or nullopt when it has none of them: a
// mutated argument, several results, SymInt, lists of tensors, optionals
// other than Tensor?.
std::optional<std::string> lettersOf(const c10::FunctionSchema& schema) {
    if (schema.is_vararg() || schema.is_varret() || schema.is_mutable() || schema.returns().size() != 1)
        return std::nullopt;
    if (schema.returns()[0].real_type()->kind() != c10::TypeKind::TensorType) return std::nullopt;
    std::string letters;
    for (const auto& arg : schema.arguments()) {
        const auto& type = arg.real_type();
        switch (type->kind()) {
        case c10::TypeKind::TensorType: letters += 'T'; break;
        case c10::TypeKind::NumberType: letters += 'S'; break;
        case c10::TypeKind::IntType: letters += 'I'; break;
        case c10::TypeKind::BoolType: letters += 'B'; break;
        case c10::TypeKind::FloatType: letters += 'D'; break;
        case c10::TypeKind::OptionalType:
            if (type->castRaw<c10::OptionalType>()->getElementType()->kind() != c10::TypeKind::TensorType)
                return std::nullopt;
            letters += 'O';
            break;
        case c10::TypeKind::ListType:
            if (type->castRaw<c10::ListType>()->getElementType()->kind() != c10::TypeKind::IntType) return std::nullopt;
            letters += 'L';
            break;
        default: return std::nullopt;
        }
    }
    return letters;
}

// Whether the bound value fits the C++ type (else the boxed path, which
// converts or fails with libtorch's message).
bool fits(char letter, const ArgSlot& s) {
    const bool constant = s.kind == ArgSlot::Kind::Constant || s.kind == ArgSlot::Kind::Absent;
    switch (letter) {
    case 'T': return s.kind == ArgSlot::Kind::Tensor || (constant && s.constant.isTensor());
    case 'O': return s.kind == ArgSlot::Kind::Tensor || (constant && (s.constant.isTensor() || s.constant.isNone()));
    case 'S': return constant && (s.constant.isDouble() || s.constant.isInt() || s.constant.isBool());
    case 'I': return constant && s.constant.isInt();
    case 'B': return constant && s.constant.isBool();
    case 'D': return constant && s.constant.isDouble();
    case 'L': return constant && s.constant.isIntList();
    }
    return false;
}

}  // namespace

UnboxedCall unboxedCallFor(const c10::OperatorHandle& op, std::vector<ArgSlot>& slots, std::vector<int64_t>& ints) {
    const auto letters = lettersOf(op.schema());
    if (!letters || letters->size() != slots.size()) return {};
    const Shape* match = nullptr;
    for (const Shape& s : kShapes)
        if (*letters == s.letters) match = &s;
    if (!match) return {};
    for (size_t k = 0; k < slots.size(); ++k)
        if (!fits((*letters)[k], slots[k])) return {};

    // One typed handle per operator, for every node and session.
    // Owned by the map (freed at exit, after the last session).
    static std::mutex mutex;
    static std::unordered_map<const c10::FunctionSchema*, std::shared_ptr<const void>> handles;
    const void* handle = nullptr;
    {
        std::lock_guard lock(mutex);
        auto [it, added] = handles.emplace(&op.schema(), nullptr);
        if (added) {
            try {
                it->second = match->makeHandle(op);
            } catch (const c10::Error&) {  // the kernel was registered with another C++ signature
                it->second = nullptr;
            }
        }
        handle = it->second.get();
    }
    if (!handle) return {};
    for (size_t k = 0; k < slots.size(); ++k)
        if ((*letters)[k] == 'L') {
            const auto values = slots[k].constant.toIntVector();
            slots[k].first = static_cast<int32_t>(ints.size());
            slots[k].count = static_cast<int32_t>(values.size());
            ints.insert(ints.end(), values.begin(), values.end());
        }
    return {match->fn, handle};
}

}  // namespace irscope::exec

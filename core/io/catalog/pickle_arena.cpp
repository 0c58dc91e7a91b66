// PickleArena (pickle_value.h): the one owner of every object an unpickled
// file describes, and the accessors its readers use.
#include "core/io/catalog/pickle_value.h"

#include "core/io/catalog/tensor_file_error.h"

namespace irscope::io {

PickleObject::PickleObject(const PickleObject& other)
    : kind(other.kind),
      ordered(other.ordered),
      global(other.global),
      text(other.text),
      items(other.items),
      torch_(other.torch_ ? std::make_unique<PickleTorchParts>(*other.torch_) : nullptr) {}

PickleObject& PickleObject::operator=(const PickleObject& other) {
    if (this != &other) *this = PickleObject(other);
    return *this;
}

PickleObject::~PickleObject() = default;

// An object carries one part; asking for another replaces it (the
// unpickler writes one kind of description per object).
template <class Part>
Part& PickleObject::part() {
    if (!torch_) torch_ = std::make_unique<PickleTorchParts>(Part{});
    if (!std::holds_alternative<Part>(*torch_)) *torch_ = Part{};
    return std::get<Part>(*torch_);
}

template <class Part>
const Part& PickleObject::part() const {
    static const Part none{};
    const Part* p = torch_ ? std::get_if<Part>(torch_.get()) : nullptr;
    return p ? *p : none;
}

PickleDType& PickleObject::dtype() { return part<PickleDType>(); }
const PickleDType& PickleObject::dtype() const { return part<PickleDType>(); }
StorageDesc& PickleObject::storage() { return part<StorageDesc>(); }
const StorageDesc& PickleObject::storage() const { return part<StorageDesc>(); }
TensorDesc& PickleObject::tensor() { return part<TensorDesc>(); }
const TensorDesc& PickleObject::tensor() const { return part<TensorDesc>(); }

uint32_t PickleArena::add(PickleObject object) {
    if (objects_.size() >= 0xFFFFFFF0u) throw FormatError("pickle creates too many objects");
    objects_.push_back(std::move(object));
    return static_cast<uint32_t>(objects_.size() - 1);
}

const std::string* PickleArena::string(const PickleValue& v) const {
    const PickleObject* o = get(v);
    return o && o->kind == PickleObject::Kind::String ? &o->text : nullptr;
}

std::optional<int64_t> PickleArena::integer(const PickleValue& v) const {
    if (v.kind == PickleValue::Kind::Int) return v.i;
    return std::nullopt;
}

std::string PickleArena::describe(const PickleValue& v) const {
    switch (v.kind) {
    case PickleValue::Kind::None: return "None";
    case PickleValue::Kind::Bool: return "bool";
    case PickleValue::Kind::Int: return "int";
    case PickleValue::Kind::Float: return "float";
    case PickleValue::Kind::Object: break;
    }
    const PickleObject& o = at(static_cast<uint32_t>(v.i));
    switch (o.kind) {
    case PickleObject::Kind::String: return "str";
    case PickleObject::Kind::Bytes: return "bytes";
    case PickleObject::Kind::BigInt: return "int";
    case PickleObject::Kind::Complex: return "complex";
    case PickleObject::Kind::Tuple: return "tuple";
    case PickleObject::Kind::List: return "list";
    case PickleObject::Kind::Dict: return o.ordered ? "OrderedDict" : "dict";
    case PickleObject::Kind::Set: return "set";
    case PickleObject::Kind::Global: return "global " + o.text;
    case PickleObject::Kind::Storage: return "storage";
    case PickleObject::Kind::Tensor: return "tensor";
    }
    return "object";
}

}  // namespace irscope::io

// PickleArena (pickle_value.h): the one owner of every object an unpickled
// file describes, and the accessors its readers use.
#include "core/io/catalog/pickle_value.h"

#include "core/io/catalog/tensor_file_error.h"

#include <algorithm>

namespace irscope::io {

static_assert(sizeof(PickleObject) <= 32, "a 100,000-tensor state_dict pickles a million objects: keep them small");

// A copy shares the pooled bytes and items (the pools never change what
// they hold) and copies what the object owns.
PickleObject::PickleObject(const PickleObject& other)
    : kind(other.kind),
      ordered(other.ordered),
      global(other.global),
      size_(other.size_),
      data_(other.data_),
      grown_(other.grown_ ? std::make_unique<std::vector<PickleValue>>(*other.grown_) : nullptr),
      torch_(other.torch_ ? std::make_unique<PickleTorchParts>(*other.torch_) : nullptr) {}

PickleObject& PickleObject::operator=(const PickleObject& other) {
    if (this != &other) *this = PickleObject(other);
    return *this;
}

PickleObject::~PickleObject() = default;

std::vector<PickleValue>& PickleObject::growableItems() {
    if (!grown_) {
        grown_ = std::make_unique<std::vector<PickleValue>>(items().begin(), items().end());
        data_ = nullptr;
        size_ = 0;
    }
    return *grown_;
}

template <class T>
const T* ChunkPool<T>::store(const T* values, size_t n) {
    if (n == 0) return nullptr;
    if (n > left_) {
        const size_t chunk = std::max(n, std::max<size_t>(1, nextChunkBytes_ / sizeof(T)));
        nextChunkBytes_ = std::min<size_t>(nextChunkBytes_ * 2, size_t{1} << 20);
        chunks_.push_back(std::make_unique_for_overwrite<T[]>(chunk));
        next_ = chunks_.back().get();
        left_ = chunk;
    }
    T* out = next_;
    std::copy(values, values + n, out);
    next_ += n;
    left_ -= n;
    return out;
}

template class ChunkPool<char>;
template class ChunkPool<PickleValue>;

void PickleArena::setText(PickleObject& object, std::string_view text) {
    if (text.size() > UINT32_MAX) throw FormatError("pickle string of " + std::to_string(text.size()) + " bytes");
    object.data_ = text_.store(text.data(), text.size());
    object.size_ = static_cast<uint32_t>(text.size());
}

void PickleArena::setItems(PickleObject& object, std::span<const PickleValue> items) {
    using Kind = PickleObject::Kind;
    if (object.kind == Kind::List || object.kind == Kind::Dict || object.kind == Kind::Set) {
        if (!items.empty()) object.grown_ = std::make_unique<std::vector<PickleValue>>(items.begin(), items.end());
        return;
    }
    if (items.size() > UINT32_MAX) throw FormatError("pickle tuple of " + std::to_string(items.size()) + " items");
    object.data_ = items_.store(items.data(), items.size());
    object.size_ = static_cast<uint32_t>(items.size());
}
void PickleArena::setNamedItems(PickleObject& object, std::string_view name, std::span<const PickleValue> items) {
    setText(object, name);
    object.grown_ = std::make_unique<std::vector<PickleValue>>(items.begin(), items.end());
}

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

std::optional<std::string_view> PickleArena::string(const PickleValue& v) const {
    const PickleObject* o = get(v);
    if (o && o->kind == PickleObject::Kind::String) return o->text();
    return std::nullopt;
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
    case PickleObject::Kind::Global: return "global " + std::string(o.text());
    case PickleObject::Kind::Storage: return "storage";
    case PickleObject::Kind::Tensor: return "tensor";
    case PickleObject::Kind::Instance: return "object of " + std::string(o.text());
    case PickleObject::Kind::Subclass: return "tensor subclass " + std::string(o.text());
    }
    return "object";
}

}  // namespace irscope::io

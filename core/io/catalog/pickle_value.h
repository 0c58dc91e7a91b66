#pragma once
// The values a restricted unpickler can produce: plain data (numbers, strings,
// containers) and the few torch objects a tensor file describes (storages and
// tensors, as descriptions only: core/io/tensor_materialize builds the at::Tensors).
//
// Every string, container and torch object lives in one PickleArena and is
// referred to by index. Pickle memo references (BINGET) and DUP then cost
// nothing, cycles (a list appended to itself) cannot leak, and destroying
// an arbitrarily deep structure never recurses: all are needed to keep a
// hostile pickle from exhausting memory or the stack.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace irscope::io {

// 16 bytes: a 100,000-tensor state_dict holds millions of them (stack,
// memo, tuple items).
struct PickleValue {
    enum class Kind : uint8_t { None, Bool, Int, Float, Object };
    Kind kind = Kind::None;
    union {
        int64_t i = 0;  // Bool, Int; object index for Object
        double f;       // Float
    };

    static PickleValue none() { return {}; }
    static PickleValue boolean(bool b) { return make(Kind::Bool, b ? 1 : 0); }
    static PickleValue integer(int64_t v) { return make(Kind::Int, v); }
    static PickleValue real(double v) {
        PickleValue p;
        p.kind = Kind::Float;
        p.f = v;
        return p;
    }
    static PickleValue object(uint32_t index) { return make(Kind::Object, index); }

private:
    static PickleValue make(Kind k, int64_t v) {
        PickleValue p;
        p.kind = k;
        p.i = v;
        return p;
    }
};

// A dtype as a tensor file names it, in torch_ir spelling ("float32").
// Known torch dtypes that libtorch 1.13 cannot hold (uint16, float8_*) keep
// their name with supported = false, so the tensor can be reported, not lost.
struct PickleDType {
    std::string name;
    int elementSize = 0;  // bytes; 0 when unsupported
    bool supported = false;
};

struct StorageDesc {
    PickleDType dtype;  // uint8 for an UntypedStorage (numel then counts bytes)
    bool untyped = false;
    std::string key;       // record data/<key> (zip) or position in the storage list (legacy)
    std::string location;  // "cpu", "cuda:0": irscope always loads to the CPU
    int64_t numel = 0;     // in elements of dtype
    // Legacy format only: a storage that is a slice of another one.
    struct View {
        std::string key;
        int64_t offset;
        int64_t size;
    };
    std::shared_ptr<const View> view;  // shared: a Storage object is copied per tensor that views it
};

struct TensorDesc {
    uint32_t storage = 0;  // arena index of a Storage object
    int64_t storageOffset = 0;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
    PickleDType dtype;  // the storage's, or _rebuild_tensor_v3's argument
    bool requiresGrad = false;
    bool isParameter = false;
};

enum class GlobalKind : uint8_t {
    OrderedDict,
    Set,
    FrozenSet,
    Complex,
    Bytearray,
    CodecsEncode,
    RebuildTensor,
    RebuildTensorV2,
    RebuildTensorV3,
    RebuildParameter,
    RebuildParameterWithState,
    RebuildFromTypeV2,
    RebuildWrapperSubclass,
    GetLayout,
    LibraryClass,  // a class of a quantization library's tensor subclasses (torchao): named, never imported
    TensorClass,
    ParameterClass,
    TorchSize,
    TorchDevice,
    StorageClass,
    DType,
};

// The torch description an object may carry (see PickleObject): a dtype
// (a Global naming a storage class or dtype), a storage or a tensor, one at
// a time, so an object pays only for the largest.
using PickleTorchParts = std::variant<PickleDType, StorageDesc, TensorDesc>;

// One object of the arena, 32 bytes: a state_dict of 100,000 tensors
// pickles over a million of them, nearly all strings and tuples. Their bytes
// and items live in the arena's pools (never moved, never copied per
// object); only lists, dicts and sets, which grow after they are made, own
// a vector. The torch descriptions (dtype, storage, tensor: a hundred bytes
// and more) are held apart and made only for the objects that have one.
struct PickleObject {
    // Instance: an inert record of a LibraryClass (its name as text; items:
    // the constructor's arguments, then the state BUILD gave it). Subclass:
    // a tensor subclass (its type as text; items: its state, a dict of inner
    // tensors and attributes; tensor(): the outer tensor's dtype and shape).
    enum class Kind : uint8_t {
        String,
        Bytes,
        BigInt,
        Complex,
        Tuple,
        List,
        Dict,
        Set,
        Global,
        Storage,
        Tensor,
        Instance,
        Subclass
    };
    explicit PickleObject(Kind k) : kind(k) {}
    PickleObject(const PickleObject& other);
    PickleObject& operator=(const PickleObject& other);
    PickleObject(PickleObject&&) noexcept = default;
    PickleObject& operator=(PickleObject&&) noexcept = default;
    ~PickleObject();

    Kind kind;
    bool ordered = false;  // Dict made by collections.OrderedDict
    GlobalKind global{};   // Global

    // String, Bytes; BigInt: little-endian two's complement; Global: "module.name".
    std::string_view text() const { return {static_cast<const char*>(data_), size_}; }
    // Tuple, List, Set; Dict: key, value, key, value ...; Complex: re, im.
    std::span<const PickleValue> items() const {
        if (grown_) return *grown_;
        return {static_cast<const PickleValue*>(data_), size_};
    }
    // List, Dict, Set: the items, to append to.
    std::vector<PickleValue>& growableItems();

    // Made on first write; reading an object without one gives empty descriptions.
    PickleDType& dtype();  // Global of a storage class or a dtype
    const PickleDType& dtype() const;
    StorageDesc& storage();  // Storage
    const StorageDesc& storage() const;
    TensorDesc& tensor();  // Tensor
    const TensorDesc& tensor() const;

private:
    friend class PickleArena;  // points data_ into its pools
    template <class Part>
    Part& part();
    template <class Part>
    const Part& part() const;
    uint32_t size_ = 0;           // bytes of text, or pooled items
    const void* data_ = nullptr;  // into the arena's pools
    std::unique_ptr<std::vector<PickleValue>> grown_;
    std::unique_ptr<PickleTorchParts> torch_;
};

// Storage that never moves what it holds: chunks filled front to back, the
// first 4 KiB, each next one twice the last up to 1 MiB (a state_dict's
// pickle of a few hundred bytes, unpickled a thousand times over in a
// directory scan, should not clear megabytes each time). What an arena's
// objects point at.
template <class T>
class ChunkPool {
public:
    const T* store(const T* values, size_t n);

private:
    std::vector<std::unique_ptr<T[]>> chunks_;
    T* next_ = nullptr;
    size_t left_ = 0;
    size_t nextChunkBytes_ = 4096;
};

class PickleArena {
public:
    uint32_t add(PickleObject object);
    PickleObject& at(uint32_t index) { return objects_[index]; }
    const PickleObject& at(uint32_t index) const { return objects_[index]; }
    const PickleObject* get(const PickleValue& v) const {
        return v.kind == PickleValue::Kind::Object ? &objects_[static_cast<uint32_t>(v.i)] : nullptr;
    }
    size_t size() const { return objects_.size(); }

    // Gives `object` its bytes or (Tuple, Complex; List, Dict, Set start
    // with them) its items, stored in the arena's pools.
    void setText(PickleObject& object, std::string_view text);
    void setItems(PickleObject& object, std::span<const PickleValue> items);
    // Instance, Subclass: a name and items that grow (a state added by BUILD).
    void setNamedItems(PickleObject& object, std::string_view name, std::span<const PickleValue> items);

    // Convenience accessors for readers of the result: nullopt when the
    // value is not of that kind.
    std::optional<std::string_view> string(const PickleValue& v) const;
    std::optional<int64_t> integer(const PickleValue& v) const;
    // Python-ish description for messages: "int", "str", "tuple", "global os.system".
    std::string describe(const PickleValue& v) const;

private:
    std::deque<PickleObject> objects_;  // grows without moving what it holds (no doubling peak)
    ChunkPool<char> text_;
    ChunkPool<PickleValue> items_;
};

}  // namespace irscope::io

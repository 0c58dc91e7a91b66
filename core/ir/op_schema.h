#pragma once
// An ATen operator schema as the torch-free floor needs it: the arguments, in
// order, and which of them take tensors. `validate` and the .pt2 reader use it
// to tell a dropped None tensor from a missing argument without loading
// libtorch; the executor binds with libtorch's own schema (core/exec/).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::ir {

enum class SchemaArgKind : uint8_t { Tensor, OptionalTensor, TensorList, OptionalTensorList, Other };

struct SchemaArg {
    std::string name;
    std::string type;  // as written, alias annotation removed: "Tensor?", "int[1]", "ScalarType?"
    SchemaArgKind kind = SchemaArgKind::Other;
    bool hasDefault = false;
    bool kwargOnly = false;  // after the schema's `*`
    bool writes = false;     // Tensor(a!): the op writes into it
};

struct OpSchema {
    std::string opType;  // torch_ir's spelling: "aten.clamp.Tensor", "aten.relu.default"
    std::vector<SchemaArg> args;
    bool varargs = false;  // "(...)": a JIT-internal op taking anything (static_runtime::dict_unpack)
};

// Parses "aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor"
// as c10::FunctionSchema prints it. nullopt when it is not of that form.
std::optional<OpSchema> parseOpSchema(std::string_view text);

// The kind of an argument type as written ("Tensor(a!)" is a Tensor).
SchemaArgKind schemaArgKindOf(std::string_view type);

}  // namespace irscope::ir

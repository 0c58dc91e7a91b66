// ExportedProgram JSON -> ir::Graph, following pytorch-ir's GraphAnalyzer
// (torch_ir/analyzer.py) rule by rule, so a .pt2 opens as the IR pytorch-ir
// would have written for it:
//   - graph inputs are the user inputs; weights are the parameter, buffer and
//     tensor-constant placeholders, in signature order, named by their
//     state_dict / constant names (weight_name_mapping placeholder -> name);
//   - a node's inputs are its positional tensor arguments; a weight input has
//     no producer, anything else names the node (or placeholder) that made it;
//   - attrs are the keyword arguments, then _tensor_list_sizes /
//     _tensor_list_none_masks, then the positional non-tensor arguments
//     (a None for a tensor argument is dropped);
//   - a multi-output op's outputs are <node>_0, <node>_1, ... and each output
//     used later is a getitem node (the serialized form names the getitem
//     result directly; "<node>_unused_<i>" marks an output nobody reads).
#include "core/ir/exported_program_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/ir/json_cursor.h"
#include "core/ir/json_io.h"
#include "core/ir/op_schema_table.h"
#include "core/ir/size_expression.h"

namespace irscope::ir {
namespace {

// Ordered: the converter reads one node at a time (small objects, where a
// linear find is cheap) and keeps the arguments' order for attrs.
using json = nlohmann::ordered_json;

// The .pt2's own record of a node, made on first use: every node read here has one.
ir::ExportedNodeFacts& facts(ir::OpNode& op) {
    if (!op.exported) op.exported.emplace();
    return *op.exported;
}

// A union value in either spelling: {"as_tensor": {...}} (PyTorch 2.3 on) or
// {"$type": "as_tensor", "$value": {...}} (2.1, 2.2).
std::pair<std::string, const json*> unionOf(const json& j) {
    if (!j.is_object() || j.empty()) return {"", nullptr};
    if (auto t = j.find("$type"); t != j.end() && t->is_string()) {
        auto v = j.find("$value");
        return {t->get<std::string>(), v == j.end() ? nullptr : &*v};
    }
    return {j.begin().key(), &j.begin().value()};
}

struct Reader {
    const std::string& file;
    const std::string& entry;

    [[noreturn]] void fail(const std::string& where, const std::string& reason) const {
        throw ir::LoadError(file, entry + (where.empty() ? "" : ":" + where), 0, 0, reason);
    }
    const json& at(const json& j, const char* key, const std::string& where) const {
        if (!j.is_object()) fail(where, "expected an object");
        auto it = j.find(key);
        if (it == j.end()) fail(where, std::string("has no \"") + key + "\"");
        return *it;
    }
};

std::string scalarTypeName(int64_t t) {
    const std::string d = dtypeOfScalarType(t);
    return d.empty() ? "torch.unknown" : "torch." + d;
}

double floatOf(const json& v) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {  // the serializer spells non-finite floats as strings
        const auto s = v.get<std::string>();
        if (s == "Infinity" || s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-Infinity" || s == "-inf") return -std::numeric_limits<double>::infinity();
        if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
    }
    return 0.0;
}

// A size from a DOM: {"as_int": 4}; anything else is a symbol, spelled by
// its expression where the file gives one ({"as_expr": {"expr_str": ...}}).
ir::Dim dimOf(const json& v);

// The name of a SymInt / SymFloat / SymBool result or argument given by name
// ({"as_sym_int": {"as_name": "sym_size_int_1"}}), "" otherwise.
std::string symbolicName(const json& argUnion) {
    auto [kind, v] = unionOf(argUnion);
    if (!v || (kind != "as_sym_int" && kind != "as_sym_float" && kind != "as_sym_bool")) return {};
    auto [k, inner] = unionOf(*v);
    return inner && k == "as_name" && inner->is_string() ? inner->get<std::string>() : std::string();
}

// The dtype of the 0-d tensor that holds such a value at run time.
std::string symbolicDtype(const json& argUnion) {
    const std::string kind = unionOf(argUnion).first;
    return kind == "as_sym_float" ? "float64" : kind == "as_sym_bool" ? "bool" : "int64";
}

// Appends the names of the sizes an argument takes by name (as_sym_int, or
// elements of as_sym_ints), each once.
void collectSymbolicNames(const std::string& kind, const json& v, std::vector<std::string>& names) {
    const auto add = [&](const json& element) {
        auto [k, inner] = unionOf(element);
        if (inner && k == "as_name" && inner->is_string() &&
            std::find(names.begin(), names.end(), inner->get<std::string>()) == names.end())
            names.push_back(inner->get<std::string>());
    };
    if (kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool") add(v);
    if (kind == "as_sym_ints" && v.is_array())
        for (const auto& element : v) add(element);
}

// The value pytorch-ir would put in attrs for a non-tensor argument, as its
// IR JSON holds it (torch objects as their str(): "torch.float16", "cpu").
json attrValue(const std::string& kind, const json& v) {
    if (kind == "as_none") return nullptr;
    if (kind == "as_int" || kind == "as_bool" || kind == "as_string") return v;
    if (kind == "as_float") return floatOf(v);
    if (kind == "as_ints" || kind == "as_bools" || kind == "as_strings" || kind == "as_int_lists") return v;
    if (kind == "as_floats") {
        json out = json::array();
        for (const auto& x : v) out.push_back(floatOf(x));
        return out;
    }
    if (kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool") {
        auto [k, inner] = unionOf(v);
        if (inner && (k == "as_int" || k == "as_float" || k == "as_bool")) return *inner;
        if (inner && k == "as_name") return *inner;
        return nullptr;
    }
    if (kind == "as_sym_ints") {
        // A size computed at run time stays the name of the value that holds it.
        json out = json::array();
        for (const auto& x : v) {
            const auto size = dimOf(x).size();
            auto [k, inner] = unionOf(x);
            out.push_back(size ? json(*size) : inner && k == "as_name" ? *inner : json(nullptr));
        }
        return out;
    }
    if (kind == "as_scalar_type") return scalarTypeName(v.get<int64_t>());
    if (kind == "as_memory_format") {
        static const char* const names[] = {"torch.contiguous_format", "torch.contiguous_format", "torch.channels_last",
                                            "torch.channels_last_3d", "torch.preserve_format"};
        const int64_t i = v.is_number_integer() ? v.get<int64_t>() : 0;
        return i >= 0 && i < 5 ? names[i] : "torch.contiguous_format";
    }
    if (kind == "as_layout") {
        const int64_t i = v.is_number_integer() ? v.get<int64_t>() : 0;
        return i == 7 ? "torch.strided" : i == 0 ? "torch.sparse_coo" : "torch.strided";
    }
    if (kind == "as_device") {
        std::string s = v.value("type", "cpu");
        if (auto idx = v.find("index"); idx != v.end() && idx->is_number_integer())
            s += ":" + std::to_string(idx->get<int64_t>());
        return s;
    }
    if (kind == "as_complex") return json::array({v.value("real", 0.0), v.value("imag", 0.0)});
    if (kind == "as_operator" || kind == "as_graph") return v.is_string() ? v : json(kind);
    return nullptr;
}

// Whether the op's argument takes a tensor: from the op's schema
// (core/ir/op_schema_table.h); for an op the table lacks (a custom op), by
// the names ATen gives its optional tensor arguments.
bool isTensorArgument(const std::string& opType, const std::string& argName) {
    if (const ir::OpSchema* schema = ir::findOpSchema(opType)) {
        for (const auto& arg : schema->args)
            if (arg.name == argName) return arg.kind != ir::SchemaArgKind::Other;
        return false;
    }
    static const std::unordered_set<std::string> tensorArgs = {
        "weight",  "bias",       "running_mean", "running_var", "min",   "max", "attn_mask", "per_sample_weights",
        "offsets", "pos_weight", "grad_output",  "mask",        "other", "src", "values"};
    return tensorArgs.count(argName) != 0;
}

// One module of a node's nn_module_stack, serialized "key,path,type" (path may
// hold commas inside brackets: "layers.slice(None, 2, None).0").
struct StackEntry {
    std::string path, type;
};

// torch.export's placeholder for a node its passes made without a module
// stack (torch/_export/passes/_node_metadata_hook.py), and the wrapper class
// its non-strict tracing puts around the model (a local class of
// torch.export._trace): neither is a module of the user's model.
bool isExportInternal(const StackEntry& e) {
    return e.type == "_empty_nn_module_stack_from_metadata_hook" || e.type.find("<locals>") != std::string::npos;
}

// "key,path,type;key,path,type" (outermost first), without export's own entries.
std::vector<StackEntry> moduleStackEntries(const std::string& stack) {
    std::vector<StackEntry> entries;
    size_t begin = 0;
    while (begin <= stack.size()) {
        size_t end = stack.find(';', begin);
        if (end == std::string::npos) end = stack.size();
        std::vector<std::string> fields(1);
        int depth = 0;
        for (size_t i = begin; i < end; ++i) {
            const char c = stack[i];
            if (c == '(' || c == '[') ++depth;
            if (c == ')' || c == ']') --depth;
            if (c == ',' && depth == 0)
                fields.emplace_back();
            else
                fields.back() += c;
        }
        if (fields.size() >= 3) {
            StackEntry e{fields[1], fields.back()};
            if (!isExportInternal(e)) entries.push_back(std::move(e));
        }
        begin = end + 1;
    }
    return entries;
}

// The model's class, as pytorch-ir names a model: the innermost root (path
// "") of the stack, or empty when the stack holds none of the model's own.
std::string modelClassOf(const std::vector<StackEntry>& entries) {
    std::string type;
    for (const auto& e : entries)
        if (e.path.empty()) type = e.type;
    return type.substr(type.rfind('.') + 1);
}

std::string opTypeOf(const std::string& target) {
    if (target == "_operator.getitem" || target == "operator.getitem") return ir::kGetitemOp;
    std::string t = target;
    if (t.rfind("torch.ops.", 0) == 0) t.erase(0, 10);
    // str() of a higher-order op is its bare name (wrap_with_set_grad_enabled).
    if (t.rfind("higher_order.", 0) == 0) t.erase(0, 13);
    return t;
}

}  // namespace

std::string dtypeOfScalarType(int64_t t) {
    switch (t) {
    case 1: return "uint8";
    case 2: return "int8";
    case 3: return "int16";
    case 4: return "int32";
    case 5: return "int64";
    case 6: return "float16";
    case 7: return "float32";
    case 8: return "float64";
    case 9: return "complex32";
    case 10: return "complex64";
    case 11: return "complex128";
    case 12: return "bool";
    case 13: return "bfloat16";
    case 28: return "uint16";
    case 29: return "float8_e4m3fn";
    case 30: return "float8_e5m2";
    case 31: return "float8_e4m3fnuz";
    case 32: return "float8_e5m2fnuz";
    case 33: return "float8_e8m0fnu";
    case 34: return "uint32";
    case 35: return "uint64";
    default: return "";
    }
}

namespace {

// What a node's conversion needs from tensor_values: the shape and dtype.
struct ValueMeta {
    ir::Shape shape;
    std::string dtype;
};

// The parts of the program read before the nodes. The program is read in
// two passes over its text, never as one DOM (a 61-layer MoE's is 40 MB of
// JSON): the first reads tensor_values, the signature and the versions and
// notes where the nodes are; the second reads the nodes one by one.
// One input spec of the signature, as the conversion uses it.
struct InputSpec {
    std::string kind;         // user_input, parameter, buffer, tensor_constant, custom_obj, token, ...
    std::string placeholder;  // the placeholder (a user input's tensor); "" for a non-tensor user input
    std::string original;     // the state_dict / constant name of a weight
};

struct ProgramParts {
    std::string torchVersion;
    std::vector<InputSpec> inputSpecs;  // 70,000 of them in a large MoE: kept compact, not as a DOM
    json outputSpecs = json::array();
    bool haveSignature = false, haveValues = false;
    std::unordered_map<std::string, ValueMeta> values;
    std::vector<ir::SymbolRange> symbolRanges;
    std::map<std::string, std::string> symbolicExpressions;
    size_t nodesOffset = std::string::npos;
    int64_t schemaMajor = 0, schemaMinor = 0;
};

// A number meant as an integer; -1 for a fraction, an infinity or one out of range.
int64_t intOf(ir::JsonCursor& c) {
    const auto n = c.readNumber();
    if (n.isInteger) return n.integer;
    return std::isfinite(n.real) && n.real == std::floor(n.real) && std::fabs(n.real) < 9.0e18
               ? static_cast<int64_t>(n.real)
               : -1;
}

// An object read key by key: `read(key)` reads or skips each value, the key
// on the cursor's path for messages (each call has its own key string, so
// nested objects keep theirs).
template <class Read>
void forEachKey(ir::JsonCursor& c, Read read) {
    c.beginObject();
    std::string key;
    while (c.nextKey(key)) {
        c.pushKey(key);
        read(key);
        c.pop();
    }
}

// An array read element by element: `read(index)`.
template <class Read>
void forEachElement(ir::JsonCursor& c, Read read) {
    c.beginArray();
    for (int64_t i = 0; c.nextElement(); ++i) {
        c.pushIndex(i);
        read(i);
        c.pop();
    }
}

bool startsNumber(char c) { return c == '-' || (c >= '0' && c <= '9'); }

// sympy's srepr of a size, as torch.export writes it, made readable:
// "Mul(Integer(2), Symbol('s27', ...))" -> "2*s27" (ir/size_expression.h).
std::string symbolText(const std::string& expr) { return ir::readableSizeExpression(expr); }

ir::Dim dimOf(const json& v) {
    auto [kind, value] = unionOf(v);
    if (kind == "as_int" && value && value->is_number_integer()) return value->get<int64_t>();
    if (kind == "as_expr" && value && value->is_object()) {
        const auto expr = value->find("expr_str");
        return ir::Dim::symbol(expr != value->end() && expr->is_string() ? symbolText(expr->get<std::string>())
                                                                         : std::string());
    }
    return ir::Dim::unreadable();  // neither an integer nor an expression
}

// A size: {"as_int": 4} (or {"$type": "as_int", "$value": 4} before PyTorch
// 2.3), read in place: a large program has hundreds of thousands of them.
// An expression is a symbol, as dimOf says; anything else is unreadable.
ir::Dim readSymInt(ir::JsonCursor& c) {
    if (c.peek() != '{') {
        c.skipValue();
        return ir::Dim::unreadable();
    }
    std::string type, symbol;
    int64_t value = 0;
    bool number = false;
    forEachKey(c, [&](const std::string& key) {
        if (key == "$type" && c.peek() == '"') {
            c.readString(type);
        } else if ((key == "as_int" || key == "$value") && startsNumber(c.peek())) {
            const auto n = c.readNumber();
            number = n.isInteger;
            value = n.integer;
            if (key == "as_int") type = "as_int";
        } else if (key == "as_expr" && c.peek() == '{') {
            type = "as_expr";
            forEachKey(c, [&](const std::string& exprKey) {
                if (exprKey == "expr_str" && c.peek() == '"') {
                    std::string expr;
                    c.readString(expr);
                    symbol = symbolText(expr);
                } else {
                    c.skipValue();
                }
            });
        } else {
            c.skipValue();
        }
    });
    if (number && type == "as_int") return value;
    if (type == "as_expr" || !symbol.empty()) return ir::Dim::symbol(symbol);
    return ir::Dim::unreadable();
}

ValueMeta readValueMeta(ir::JsonCursor& c) {
    ValueMeta m;
    forEachKey(c, [&](const std::string& key) {
        if (key == "dtype" && startsNumber(c.peek()))
            m.dtype = dtypeOfScalarType(intOf(c));
        else if (key == "sizes" && c.peek() == '[') {
            forEachElement(c, [&](int64_t) { m.shape.push_back(readSymInt(c)); });
        } else
            c.skipValue();
    });
    return m;
}

// The same from a DOM: a subgraph's tensor_values, read with its node.
ValueMeta valueMetaOf(const json& meta) {
    ValueMeta m;
    if (auto d = meta.find("dtype"); d != meta.end() && d->is_number_integer())
        m.dtype = dtypeOfScalarType(d->get<int64_t>());
    if (auto sizes = meta.find("sizes"); sizes != meta.end() && sizes->is_array())
        for (const json& dim : *sizes) m.shape.push_back(dimOf(dim));
    return m;
}

void readGraphParts(ir::JsonCursor& c, ProgramParts& parts) {
    forEachKey(c, [&](const std::string& key) {
        if (key == "nodes") {
            parts.nodesOffset = c.offset();
            c.skipValue();
        } else if (key == "tensor_values" && c.peek() == '{') {
            parts.haveValues = true;
            forEachKey(c, [&](const std::string& name) { parts.values[name] = readValueMeta(c); });
        } else if ((key == "sym_int_values" || key == "sym_float_values" || key == "sym_bool_values") &&
                   c.peek() == '{') {
            // Each symbolic value's expression over the program's symbols.
            forEachKey(c, [&](const std::string& name) {
                const ir::Dim value = readSymInt(c);
                if (!value.expression().empty()) parts.symbolicExpressions[name] = value.expression();
            });
        } else {
            c.skipValue();
        }
    });
}

// The oldest name of a from_node chain (a JSON list of {"name", "from_node":
// [...]}, serialized as a string): the node the first program had. "" when
// there is none or it does not parse.
std::string originOf(const std::string& fromNode) {
    if (fromNode.empty()) return {};
    const json chain = json::parse(fromNode, nullptr, false);
    const json* at = chain.is_array() && !chain.empty() ? &chain[0] : nullptr;
    std::string name;
    for (int depth = 0; at && at->is_object() && depth < 64; ++depth) {
        if (auto n = at->find("name"); n != at->end() && n->is_string()) name = n->get<std::string>();
        auto next = at->find("from_node");
        at = next != at->end() && next->is_array() && !next->empty() ? &(*next)[0] : nullptr;
    }
    return name;
}

// One node: its arguments and results as a small DOM; the metadata's stack
// trace, module stack and provenance read straight into strings, the rest of
// it skipped (torch_fn, source_fn_stack, custom: most of a node's bytes).
json readNode(ir::JsonCursor& c, std::string& stackTrace, std::string& moduleStack, std::string& origin) {
    json node = json::object();
    stackTrace.clear();
    moduleStack.clear();
    origin.clear();
    forEachKey(c, [&](const std::string& key) {
        if (key != "metadata" || c.peek() != '{') {
            node[key] = c.readValue();
            return;
        }
        forEachKey(c, [&](const std::string& metaKey) {
            if (metaKey == "stack_trace" && c.peek() == '"')
                c.readString(stackTrace);
            else if (metaKey == "nn_module_stack" && c.peek() == '"')
                c.readString(moduleStack);
            else if (metaKey == "from_node" && c.peek() == '"') {
                std::string fromNode;
                c.readString(fromNode);
                origin = originOf(fromNode);
            } else
                c.skipValue();
        });
    });
    return node;
}

InputSpec inputSpecOf(const json& j, const Reader& r, const std::string& where) {
    InputSpec out;
    auto [kind, spec] = unionOf(j);
    if (!spec) r.fail(where, "is not an input spec");
    out.kind = kind;
    if (kind == "user_input") {
        auto [argKind, arg] = unionOf(r.at(*spec, "arg", where));
        if (argKind == "as_tensor" && arg) out.placeholder = r.at(*arg, "name", where + ".arg").get<std::string>();
        return out;  // a scalar or None user input: not a tensor input
    }
    const char* nameKey = kind == "parameter"         ? "parameter_name"
                          : kind == "buffer"          ? "buffer_name"
                          : kind == "tensor_constant" ? "tensor_constant_name"
                                                      : nullptr;
    if (!nameKey) return out;  // custom objects, tokens, constant inputs: no tensor placeholder
    out.placeholder = r.at(r.at(*spec, "arg", where), "name", where + ".arg").get<std::string>();
    out.original = r.at(*spec, nameKey, where).get<std::string>();
    return out;
}

// The signature's input specs, compact, in order (`onSpec` takes each).
template <class OnSpec>
void readInputSpecs(ir::JsonCursor& c, const Reader& r, OnSpec onSpec) {
    forEachElement(c, [&](int64_t i) {
        onSpec(inputSpecOf(c.readValue(), r, "graph_module.signature.input_specs[" + std::to_string(i) + "]"));
    });
}

void readSignature(ir::JsonCursor& c, const Reader& r, ProgramParts& parts) {
    bool sawInputs = false;
    forEachKey(c, [&](const std::string& key) {
        if (key == "input_specs" && c.peek() == '[') {
            sawInputs = true;
            readInputSpecs(c, r, [&](InputSpec spec) { parts.inputSpecs.push_back(std::move(spec)); });
        } else if (key == "output_specs" && c.peek() == '[') {
            parts.outputSpecs = c.readValue();
        } else {
            c.skipValue();
        }
    });
    if (!sawInputs) r.fail("graph_module.signature", "has no \"input_specs\" list");
}

ProgramParts readProgramParts(ir::JsonCursor& c, const Reader& r) {
    ProgramParts parts;
    forEachKey(c, [&](const std::string& key) {
        if (key == "graph_module" && c.peek() == '{') {
            forEachKey(c, [&](const std::string& inner) {
                if (inner == "graph" && c.peek() == '{') {
                    readGraphParts(c, parts);
                } else if (inner == "signature" && c.peek() == '{') {
                    readSignature(c, r, parts);
                    parts.haveSignature = true;
                } else {
                    c.skipValue();
                }
            });
        } else if (key == "torch_version" && c.peek() == '"') {
            c.readString(parts.torchVersion);
        } else if (key == "range_constraints" && c.peek() == '{') {
            forEachKey(c, [&](const std::string& symbol) {
                const json range = c.readValue();
                ir::SymbolRange s{symbol, 0, INT64_MAX};
                if (auto lo = range.find("min_val"); lo != range.end() && lo->is_number_integer())
                    s.min = lo->get<int64_t>();
                // An unbounded max is int_oo, written as a string or a huge number.
                if (auto hi = range.find("max_val"); hi != range.end() && hi->is_number_integer())
                    s.max = hi->get<int64_t>();
                parts.symbolRanges.push_back(std::move(s));
            });
        } else if (key == "schema_version" && c.peek() == '{') {
            const json v = c.readValue();
            if (auto m = v.find("major"); m != v.end() && m->is_number_integer()) parts.schemaMajor = m->get<int64_t>();
            if (auto m = v.find("minor"); m != v.end() && m->is_number_integer()) parts.schemaMinor = m->get<int64_t>();
        } else {
            c.skipValue();
        }
    });
    c.finish();
    return parts;
}

}  // namespace

namespace {

// Builds one graph from its serialized nodes: the program's own, or a
// higher-order op's subgraph (cond's branches, a loop's body, an autocast
// region), which torch.export writes inline as a whole graph of its own
// (inputs, nodes, outputs, tensor_values) and which is read the same way.
class GraphBuilder {
public:
    GraphBuilder(const Reader& r, ir::Graph& g, const std::unordered_map<std::string, ValueMeta>& values)
        : r_(r), g_(g), values_(values) {}

    // name -> (shape, dtype) of every tensor in the graph.
    ir::TensorMeta metaOf(const std::string& name, const std::string& where) const {
        auto it = values_.find(name);
        if (it == values_.end()) r_.fail(where, "names tensor '" + name + "', which tensor_values does not describe");
        ir::TensorMeta m;
        m.name = name;
        m.shape = it->second.shape;
        m.dtype = it->second.dtype;
        return m;
    }

    void addInput(const ir::TensorMeta& meta) {
        g_.graphInputs.push_back(meta);
        outputsOf_[meta.name] = {meta};
        producerOf_[meta.name] = {meta.name, 0};
    }

    void addWeight(const std::string& placeholder, const std::string& original, const ir::TensorMeta& meta) {
        weightOf_.emplace(placeholder, g_.weights.size());
        g_.weightNameMapping.emplace_back(placeholder, original);
        ir::TensorMeta w = meta;
        w.name = original;
        g_.weights.push_back(std::move(w));
    }

    std::vector<ir::TensorMeta> inputMetas(const std::string& tensor, const std::string& where) {
        std::vector<ir::TensorMeta> out;
        // A weight: the placeholder, with no producer.
        if (const auto w = weightOf_.find(tensor); w != weightOf_.end()) {
            out.push_back(g_.weights[w->second]);
            out.back().name = tensor;
            return out;
        }
        const auto p = producerOf_.find(tensor);
        if (p == producerOf_.end()) r_.fail(where, "reads tensor '" + tensor + "', which no earlier node makes");
        const std::string& node = p->second.first;
        const auto& metas = outputsOf_[node];
        for (size_t k = 0; k < metas.size(); ++k) {
            ir::TensorMeta m = metas[k];
            m.producerNode = node;
            m.producerOutputIdx = static_cast<int64_t>(k);
            out.push_back(std::move(m));
        }
        return out;
    }

    // The program's outputs, as pytorch-ir lists them: every output of the node that makes `tensor`.
    void addProgramOutput(const std::string& tensor) {
        auto p = producerOf_.find(tensor);
        const std::string node = p == producerOf_.end() ? tensor : p->second.first;
        for (const auto& m : outputsOf_[node]) g_.graphOutputs.push_back(m);
    }

    // A subgraph's output: exactly the tensor it names.
    void addSubgraphOutput(const std::string& tensor, const std::string& where) {
        const auto p = producerOf_.find(tensor);
        if (p == producerOf_.end()) r_.fail(where, "returns tensor '" + tensor + "', which no node of it makes");
        const auto& metas = outputsOf_[p->second.first];
        const auto k = static_cast<size_t>(p->second.second);
        if (k >= metas.size()) r_.fail(where, "returns tensor '" + tensor + "', which its node does not make");
        ir::TensorMeta m = metas[k];
        m.producerNode = p->second.first;
        m.producerOutputIdx = p->second.second;
        g_.graphOutputs.push_back(std::move(m));
    }

    // One serialized node (`op` holds its stack trace already), and the getitem
    // nodes for the used elements of a tuple result.
    void addNode(const json& node, ir::OpNode op, const std::string& moduleStack, size_t n, const std::string& where) {
        const Reader& r = r_;
        ir::Graph& g = g_;
        auto& producerOf = producerOf_;
        auto& outputsOf = outputsOf_;
        const auto metaOf = [this](const std::string& name, const std::string& at) { return this->metaOf(name, at); };
        const auto inputMetas = [this](const std::string& t, const std::string& at) { return this->inputMetas(t, at); };
        op.name = node.value("name", "");
        op.opType = opTypeOf(r.at(node, "target", where).get<std::string>());
        if (!moduleStack.empty()) {
            const auto entries = moduleStackEntries(moduleStack);
            if (!entries.empty()) facts(op).modulePath = entries.back().path;
            for (const auto& e : entries) g.moduleClasses.try_emplace(e.path, e.type.substr(e.type.rfind('.') + 1));
            // pytorch-ir names the model after its class: the root of nn_module_stack.
            if (g.modelName.empty()) g.modelName = modelClassOf(entries);
        }
        if (op.name.empty()) op.name = "node_" + std::to_string(n);

        // Outputs: one tensor (named as the node), or a tuple (node_0, node_1, ...)
        // whose used elements become getitem nodes after this one.
        std::vector<std::pair<std::string, int64_t>> tupleElements;  // (serialized name, index)
        const json& outs = r.at(node, "outputs", where);
        // One tensor named as the node. A result named otherwise is the first
        // element of a tuple (a higher-order op's one-element tuple).
        const bool single = outs.size() == 1 && unionOf(outs[0]).first == "as_tensor" &&
                            unionOf(outs[0]).second->value("name", "") == op.name;
        const std::string symbolicResult = outs.size() == 1 ? symbolicName(outs[0]) : std::string();
        if (!symbolicResult.empty()) {
            // A size, numel or expression over sizes (sym_size.int): a value
            // later nodes take by name, so it is drawn as an edge and runs as a
            // 0-d tensor (the executor reads its item where an int is due).
            ir::TensorMeta meta;
            meta.name = symbolicResult;
            meta.dtype = symbolicDtype(outs[0]);
            op.outputs.push_back(meta);
            producerOf[symbolicResult] = {op.name, 0};
        } else if (single) {
            const std::string t = r.at(*unionOf(outs[0]).second, "name", where + ".outputs[0]").get<std::string>();
            auto meta = metaOf(t, where + ".outputs[0]");
            meta.name = op.name;
            op.outputs.push_back(meta);
            producerOf[t] = {op.name, 0};
        } else {
            std::vector<std::string> names;
            for (const auto& o : outs) {
                auto [kind, v] = unionOf(o);
                if (kind == "as_tensor" && v) names.push_back(v->value("name", ""));
                if (kind == "as_tensors" && v)
                    for (const auto& t : *v) names.push_back(t.value("name", ""));
            }
            for (size_t k = 0; k < names.size(); ++k) {
                auto meta = metaOf(names[k], where + ".outputs");
                meta.name = op.name + "_" + std::to_string(k);
                op.outputs.push_back(meta);
                if (names[k].rfind(op.name + "_unused_", 0) != 0) tupleElements.emplace_back(names[k], k);
            }
        }

        // Inputs and attrs.
        // Ordered: attrs keep the arguments' order, as pytorch-ir's dicts do.
        nlohmann::ordered_json keywordAttrs = nlohmann::ordered_json::object(),
                               positionalAttrs = nlohmann::ordered_json::object();
        json listSizes = json::array(), noneMasks = json::array();
        const json& args = r.at(node, "inputs", where);
        // A higher-order op has no schema: pytorch-ir keeps only its keyword arguments.
        const bool higherOrder =
            r.at(node, "target", where).get<std::string>().rfind("torch.ops.higher_order.", 0) == 0;
        std::vector<std::string> symbolic;  // sizes this node takes by name (as_sym_int), in order
        for (size_t a = 0; a < args.size(); ++a) {
            const std::string argWhere = where + ".inputs[" + std::to_string(a) + "]";
            const json& named = args[a];
            const std::string argName = named.value("name", "");
            const bool keyword = named.value("kind", 1) == 2;
            auto [kind, v] = unionOf(r.at(named, "arg", argWhere));
            if (!v) r.fail(argWhere, "has no argument value");
            collectSymbolicNames(kind, *v, symbolic);
            if (keyword) {
                // pytorch-ir copies node.kwargs whole: a tensor there is its node's name.
                if (kind == "as_tensor")
                    keywordAttrs[argName] = v->value("name", "");
                else
                    keywordAttrs[argName] = attrValue(kind, *v);
                continue;
            }
            if (higherOrder) {
                // Kept beside the node for running it, never written back: its
                // subgraphs, how many inputs each tensor argument took, and its
                // other arguments in order (wrap_with_autocast's device and dtype).
                if (kind == "as_graph" && v->is_object() && v->contains("graph"))
                    op.subgraphs.push_back(
                        {v->value("name", ""), std::make_shared<const ir::Graph>(
                                                   subgraphOf((*v)["graph"], argWhere + ".arg.as_graph.graph"))});
                else if (kind == "as_tensor")
                    op.inputGroups.push_back(1);
                else if (kind == "as_tensors")
                    op.inputGroups.push_back(static_cast<int32_t>(v->size()));
                else
                    op.higherOrderArgs.push_back(attrValue(kind, *v));
            }
            if (kind == "as_tensor") {
                for (auto& m : inputMetas(v->value("name", ""), argWhere)) op.inputs.push_back(std::move(m));
            } else if (kind == "as_optional_tensor") {
                auto [k2, t] = unionOf(*v);
                if (k2 == "as_tensor" && t)
                    for (auto& m : inputMetas(t->value("name", ""), argWhere)) op.inputs.push_back(std::move(m));
                else
                    facts(op).noneArguments.push_back(argName);
            } else if (kind == "as_tensors" || kind == "as_optional_tensors") {
                int64_t count = 0;
                json mask = json::array();
                bool anyNone = false;
                for (const auto& element : *v) {
                    std::string t;
                    if (kind == "as_tensors")
                        t = element.value("name", "");
                    else if (auto [k2, e] = unionOf(element); k2 == "as_tensor" && e)
                        t = e->value("name", "");
                    mask.push_back(t.empty());
                    anyNone = anyNone || t.empty();
                    if (t.empty()) continue;
                    ++count;
                    for (auto& m : inputMetas(t, argWhere)) op.inputs.push_back(std::move(m));
                }
                listSizes.push_back(count);
                if (anyNone) noneMasks.push_back(mask);
            } else if (kind == "as_none") {
                // pytorch-ir drops a None given for a Tensor argument and keeps
                // None for others; the serialized form spells both as_none.
                // The program still says which argument was None: kept beside the
                // node, never written back (ir/optional_tensor_readings.h).
                if (!isTensorArgument(op.opType, argName))
                    positionalAttrs[argName] = nullptr;
                else
                    facts(op).noneArguments.push_back(argName);
            } else {
                positionalAttrs[argName] = attrValue(kind, *v);
            }
        }
        // The sizes it takes by name follow its tensor inputs: edges from the
        // nodes that compute them; the binder reads them where their names
        // stand in the attrs (core/exec/engine/op_binding.cpp).
        for (const auto& name : symbolic)
            if (producerOf.count(name))
                for (auto& m : inputMetas(name, where)) op.inputs.push_back(std::move(m));
        op.attrs = ir::AttrMap::object();
        for (auto& [k, v] : keywordAttrs.items()) op.attrs[k] = v;
        if (higherOrder) {
            listSizes = noneMasks = json();
            positionalAttrs = nullptr;
        }
        if (!listSizes.empty()) op.attrs["_tensor_list_sizes"] = listSizes;
        if (!noneMasks.empty()) op.attrs["_tensor_list_none_masks"] = noneMasks;
        if (positionalAttrs.is_object())
            for (auto& [k, v] : positionalAttrs.items()) op.attrs[k] = v;
        if (op.isGetitem() && !op.attrs.contains("index")) op.attrs["index"] = 0;

        outputsOf[op.name] = op.outputs;
        const std::string producer = op.name;
        const auto producerOutputs = op.outputs;
        g.nodes.push_back(std::move(op));

        for (const auto& [tensor, index] : tupleElements) {
            ir::OpNode item;
            item.name = tensor;
            item.opType = ir::kGetitemOp;
            for (size_t k = 0; k < producerOutputs.size(); ++k) {
                ir::TensorMeta m = producerOutputs[k];
                m.producerNode = producer;
                m.producerOutputIdx = static_cast<int64_t>(k);
                item.inputs.push_back(std::move(m));
            }
            ir::TensorMeta out = producerOutputs[index];
            out.name = tensor;
            item.outputs.push_back(out);
            item.attrs = ir::AttrMap::object();
            item.attrs["index"] = index;
            facts(item).modulePath = g.nodes.back().recordedModule();
            outputsOf[tensor] = item.outputs;
            producerOf[tensor] = {tensor, 0};
            g.nodes.push_back(std::move(item));
        }
    }

private:
    // A higher-order op's subgraph, from its inline DOM.
    ir::Graph subgraphOf(const json& graph, const std::string& where) {
        std::unordered_map<std::string, ValueMeta> values;
        if (auto tv = graph.find("tensor_values"); tv != graph.end() && tv->is_object())
            for (const auto& [name, meta] : tv->items()) values[name] = valueMetaOf(meta);
        ir::Graph sub;
        GraphBuilder b(r_, sub, values);
        const json& inputs = r_.at(graph, "inputs", where);
        for (size_t i = 0; i < inputs.size(); ++i) {
            auto [kind, v] = unionOf(inputs[i]);
            const std::string at = where + ".inputs[" + std::to_string(i) + "]";
            if (kind != "as_tensor" || !v) r_.fail(at, "is not a tensor input (irscope runs subgraphs over tensors)");
            b.addInput(b.metaOf(v->value("name", ""), at));
        }
        const json& nodes = r_.at(graph, "nodes", where);
        for (size_t k = 0; k < nodes.size(); ++k) {
            ir::OpNode op;
            std::string moduleStack;
            if (auto meta = nodes[k].find("metadata"); meta != nodes[k].end() && meta->is_object()) {
                facts(op).stackTrace = meta->value("stack_trace", "");
                moduleStack = meta->value("nn_module_stack", "");
                facts(op).origin = originOf(meta->value("from_node", ""));
            }
            b.addNode(nodes[k], std::move(op), moduleStack, k, where + ".nodes[" + std::to_string(k) + "]");
        }
        const json& outputs = r_.at(graph, "outputs", where);
        for (size_t i = 0; i < outputs.size(); ++i) {
            auto [kind, v] = unionOf(outputs[i]);
            const std::string at = where + ".outputs[" + std::to_string(i) + "]";
            if (kind != "as_tensor" || !v) r_.fail(at, "is not a tensor output (irscope runs subgraphs over tensors)");
            b.addSubgraphOutput(v->value("name", ""), at);
        }
        return sub;
    }

    const Reader& r_;
    ir::Graph& g_;
    const std::unordered_map<std::string, ValueMeta>& values_;
    // placeholder -> its weight in g.weights (70,000 in a large MoE: no copy of the meta).
    std::unordered_map<std::string, size_t> weightOf_;
    std::unordered_map<std::string, std::vector<ir::TensorMeta>> outputsOf_;       // node or placeholder -> outputs
    std::unordered_map<std::string, std::pair<std::string, int64_t>> producerOf_;  // tensor -> (node, index)
};

ir::Graph convertProgram(std::string_view text, const std::string& file, const std::string& entry) {
    const Reader r{file, entry};
    ir::JsonCursor c(text, file, 256);
    const ProgramParts parts = readProgramParts(c, r);
    // PyTorch 2.1 wrote schema 1 ... 2.13 writes 8; a later major may change what a field means.
    if (parts.schemaMajor > 8)
        r.fail("schema_version", "uses export schema version " + std::to_string(parts.schemaMajor) + "." +
                                     std::to_string(parts.schemaMinor) +
                                     "; irscope reads versions 1 to 8 (PyTorch 2.1 to 2.13)");
    if (parts.nodesOffset == std::string::npos) r.fail("graph_module.graph", "has no \"nodes\"");
    if (!parts.haveValues) r.fail("graph_module.graph", "has no \"tensor_values\" object");
    if (!parts.haveSignature) r.fail("graph_module", "has no \"signature\"");

    ir::Graph g;
    g.pytorchVersion = parts.torchVersion;
    g.symbolRanges = parts.symbolRanges;
    g.symbolicExpressions = parts.symbolicExpressions;

    GraphBuilder builder(r, g, parts.values);

    // The signature: which placeholders are user inputs and which are weights.
    for (size_t i = 0; i < parts.inputSpecs.size(); ++i) {
        const InputSpec& spec = parts.inputSpecs[i];
        if (spec.placeholder.empty()) continue;  // a non-tensor user input, a custom object, a token
        const auto meta =
            builder.metaOf(spec.placeholder, "graph_module.signature.input_specs[" + std::to_string(i) + "]");
        if (spec.kind == "user_input")
            builder.addInput(meta);
        else
            builder.addWeight(spec.placeholder, spec.original, meta);
    }

    // The second pass: the nodes, one at a time.
    c.seek(parts.nodesOffset);
    c.pushKey("graph_module");
    c.pushKey("graph");
    c.pushKey("nodes");
    c.beginArray();
    std::string moduleStack;
    for (size_t n = 0; c.nextElement(); ++n) {
        const std::string where = "graph_module.graph.nodes[" + std::to_string(n) + "]";
        c.pushIndex(static_cast<int64_t>(n));
        ir::OpNode op;
        const json node = readNode(c, facts(op).stackTrace, moduleStack, facts(op).origin);
        c.pop();
        builder.addNode(node, std::move(op), moduleStack, n, where);
    }

    // Graph outputs: the user outputs, as their nodes' outputs.
    const json& outputSpecs = parts.outputSpecs;
    for (size_t i = 0; i < outputSpecs.size(); ++i) {
        auto [kind, spec] = unionOf(outputSpecs[i]);
        if (kind != "user_output" || !spec) continue;
        const json& argUnion = r.at(*spec, "arg", "graph_module.signature.output_specs[" + std::to_string(i) + "]");
        auto [argKind, arg] = unionOf(argUnion);
        if (argKind != "as_tensor" || !arg) continue;
        builder.addProgramOutput(arg->value("name", ""));
    }

    return g;
}

}  // namespace

ir::Graph graphFromExportedProgram(std::string_view text, const std::string& file, const std::string& entry) {
    try {
        return convertProgram(text, file, entry);
    } catch (const ir::LoadError& e) {
        if (e.jsonPath().rfind(entry, 0) == 0) throw;  // ours, already naming the record
        // The cursor's: a syntax error, at a JSON path and line of the record.
        throw ir::LoadError(file, entry + (e.jsonPath().empty() ? "" : ":" + e.jsonPath()), e.line(), e.column(),
                            e.reason());
    }
}

std::vector<std::string> exportedProgramUserInputs(std::string_view text, const std::string& file,
                                                   const std::string& entry) {
    const Reader r{file, entry};
    std::vector<std::string> names;
    try {
        ir::JsonCursor c(text, file, 256);
        const auto skipOr = [&](bool take, auto read) { take ? read() : c.skipValue(); };
        forEachKey(c, [&](const std::string& key) {
            skipOr(key == "graph_module" && c.peek() == '{', [&] {
                forEachKey(c, [&](const std::string& inner) {
                    skipOr(inner == "signature" && c.peek() == '{', [&] {
                        forEachKey(c, [&](const std::string& specKey) {
                            skipOr(specKey == "input_specs" && c.peek() == '[', [&] {
                                readInputSpecs(c, r, [&](const InputSpec& spec) {
                                    if (spec.kind == "user_input" && !spec.placeholder.empty())
                                        names.push_back(spec.placeholder);
                                });
                            });
                        });
                    });
                });
            });
        });
    } catch (const ir::LoadError& e) {
        if (e.jsonPath().rfind(entry, 0) == 0) throw;
        throw ir::LoadError(file, entry + (e.jsonPath().empty() ? "" : ":" + e.jsonPath()), e.line(), e.column(),
                            e.reason());
    }
    return names;
}
}  // namespace irscope::ir

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
#include "core/io/catalog/pt2/exported_program_graph.h"

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/ir/json_io.h"
#include "core/ir/op_schema_table.h"

namespace irscope::io {
namespace {

using nlohmann::json;

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

int64_t symIntOf(const json& v) {
    auto [kind, value] = unionOf(v);
    if (kind == "as_int" && value && value->is_number_integer()) return value->get<int64_t>();
    return ir::kInvalidDim;  // symbolic: pytorch-ir refuses such programs; we draw them
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
        json out = json::array();
        for (const auto& x : v) {
            const int64_t d = symIntOf(x);
            out.push_back(d == ir::kInvalidDim ? json(nullptr) : json(d));
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

// "key,path,type;key,path,type" (outermost first) -> the innermost path. A
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

// path may hold commas inside brackets ("layers.slice(None, 2, None).0").
std::string innermostModulePath(const std::string& stack) {
    const std::string last = stack.substr(stack.rfind(';') == std::string::npos ? 0 : stack.rfind(';') + 1);
    std::vector<std::string> fields(1);
    int depth = 0;
    for (char c : last) {
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == ',' && depth == 0)
            fields.emplace_back();
        else
            fields.back() += c;
    }
    return fields.size() >= 2 ? fields[1] : "";
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

ir::Graph graphFromExportedProgram(const json& program, const std::string& file, const std::string& entry) {
    const Reader r{file, entry};
    const json& module = r.at(program, "graph_module", "");
    const json& graph = r.at(module, "graph", "graph_module");
    const json& signature = r.at(module, "signature", "graph_module");
    const json& values = r.at(graph, "tensor_values", "graph_module.graph");
    const json& nodes = r.at(graph, "nodes", "graph_module.graph");
    if (!values.is_object()) r.fail("graph_module.graph.tensor_values", "expected an object");
    if (!nodes.is_array()) r.fail("graph_module.graph.nodes", "expected a list");

    ir::Graph g;
    g.pytorchVersion = program.value("torch_version", "");

    // name -> (shape, dtype) of every tensor in the program.
    auto metaOf = [&](const std::string& name, const std::string& where) {
        auto it = values.find(name);
        if (it == values.end()) r.fail(where, "names tensor '" + name + "', which tensor_values does not describe");
        ir::TensorMeta m;
        m.name = name;
        if (auto sizes = it->find("sizes"); sizes != it->end() && sizes->is_array())
            for (const auto& d : *sizes) m.shape.push_back(symIntOf(d));
        if (auto dtype = it->find("dtype"); dtype != it->end() && dtype->is_number_integer())
            m.dtype = dtypeOfScalarType(dtype->get<int64_t>());
        return m;
    };

    // The signature: which placeholders are user inputs and which are weights.
    std::unordered_set<std::string> weightPlaceholders;
    std::unordered_map<std::string, std::vector<ir::TensorMeta>> outputsOf;       // node or placeholder -> outputs
    std::unordered_map<std::string, std::pair<std::string, int64_t>> producerOf;  // tensor -> (node, index)
    const json& inputSpecs = r.at(signature, "input_specs", "graph_module.signature");
    for (size_t i = 0; i < inputSpecs.size(); ++i) {
        const std::string where = "graph_module.signature.input_specs[" + std::to_string(i) + "]";
        auto [kind, spec] = unionOf(inputSpecs[i]);
        if (!spec) r.fail(where, "is not an input spec");
        if (kind == "user_input") {
            auto [argKind, arg] = unionOf(r.at(*spec, "arg", where));
            if (argKind != "as_tensor" || !arg) continue;  // a scalar or None user input: not a tensor input
            const std::string name = r.at(*arg, "name", where + ".arg").get<std::string>();
            auto meta = metaOf(name, where);
            g.graphInputs.push_back(meta);
            outputsOf[name] = {meta};
            producerOf[name] = {name, 0};
            continue;
        }
        const char* nameKey = kind == "parameter"         ? "parameter_name"
                              : kind == "buffer"          ? "buffer_name"
                              : kind == "tensor_constant" ? "tensor_constant_name"
                                                          : nullptr;
        if (!nameKey) continue;  // custom objects, tokens, constant inputs: no tensor placeholder
        const std::string placeholder = r.at(r.at(*spec, "arg", where), "name", where + ".arg").get<std::string>();
        const std::string original = r.at(*spec, nameKey, where).get<std::string>();
        auto meta = metaOf(placeholder, where);
        weightPlaceholders.insert(placeholder);
        g.weightNameMapping.emplace_back(placeholder, original);
        ir::TensorMeta w = meta;
        w.name = original;
        g.weights.push_back(w);
        outputsOf[placeholder] = {meta};
    }

    auto inputMetas = [&](const std::string& tensor, const std::string& where) {
        std::vector<ir::TensorMeta> out;
        const auto p = producerOf.find(tensor);
        const bool weight = weightPlaceholders.count(tensor) > 0;
        if (!weight && p == producerOf.end())
            r.fail(where, "reads tensor '" + tensor + "', which no earlier node makes");
        const std::string node = weight ? tensor : p->second.first;
        const auto& metas = outputsOf[node];
        for (size_t k = 0; k < metas.size(); ++k) {
            ir::TensorMeta m = metas[k];
            if (!weight) {
                m.producerNode = node;
                m.producerOutputIdx = static_cast<int64_t>(k);
            }
            out.push_back(std::move(m));
        }
        return out;
    };

    for (size_t n = 0; n < nodes.size(); ++n) {
        const std::string where = "graph_module.graph.nodes[" + std::to_string(n) + "]";
        const json& node = nodes[n];
        ir::OpNode op;
        op.name = node.value("name", "");
        op.opType = opTypeOf(r.at(node, "target", where).get<std::string>());
        if (auto meta = node.find("metadata"); meta != node.end() && meta->is_object()) {
            if (auto trace = meta->find("stack_trace"); trace != meta->end() && trace->is_string())
                op.stackTrace = trace->get<std::string>();
            if (auto stack = meta->find("nn_module_stack"); stack != meta->end() && stack->is_string())
                op.modulePath = innermostModulePath(stack->get<std::string>());
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
        if (single) {
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
        for (size_t a = 0; a < args.size(); ++a) {
            const std::string argWhere = where + ".inputs[" + std::to_string(a) + "]";
            const json& named = args[a];
            const std::string argName = named.value("name", "");
            const bool keyword = named.value("kind", 1) == 2;
            auto [kind, v] = unionOf(r.at(named, "arg", argWhere));
            if (!v) r.fail(argWhere, "has no argument value");
            if (keyword) {
                // pytorch-ir copies node.kwargs whole: a tensor there is its node's name.
                if (kind == "as_tensor")
                    keywordAttrs[argName] = v->value("name", "");
                else
                    keywordAttrs[argName] = attrValue(kind, *v);
                continue;
            }
            if (kind == "as_tensor") {
                for (auto& m : inputMetas(v->value("name", ""), argWhere)) op.inputs.push_back(std::move(m));
            } else if (kind == "as_optional_tensor") {
                auto [k2, t] = unionOf(*v);
                if (k2 == "as_tensor" && t)
                    for (auto& m : inputMetas(t->value("name", ""), argWhere)) op.inputs.push_back(std::move(m));
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
                if (!isTensorArgument(op.opType, argName)) positionalAttrs[argName] = nullptr;
            } else {
                positionalAttrs[argName] = attrValue(kind, *v);
            }
        }
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
            item.modulePath = g.nodes.back().modulePath;
            outputsOf[tensor] = item.outputs;
            producerOf[tensor] = {tensor, 0};
            g.nodes.push_back(std::move(item));
        }
    }

    // Graph outputs: the user outputs, as their nodes' outputs.
    const json& outputSpecs = r.at(signature, "output_specs", "graph_module.signature");
    for (size_t i = 0; i < outputSpecs.size(); ++i) {
        auto [kind, spec] = unionOf(outputSpecs[i]);
        if (kind != "user_output" || !spec) continue;
        const json& argUnion = r.at(*spec, "arg", "graph_module.signature.output_specs[" + std::to_string(i) + "]");
        auto [argKind, arg] = unionOf(argUnion);
        if (argKind != "as_tensor" || !arg) continue;
        const std::string t = arg->value("name", "");
        auto p = producerOf.find(t);
        const std::string node = p == producerOf.end() ? t : p->second.first;
        for (const auto& m : outputsOf[node]) g.graphOutputs.push_back(m);
    }

    // pytorch-ir names the model after its class: the root of nn_module_stack.
    for (const auto& node : nodes) {
        const auto meta = node.find("metadata");
        if (meta == node.end() || !meta->is_object()) continue;
        const std::string stack = meta->value("nn_module_stack", "");
        if (stack.empty()) continue;
        const std::string root = stack.substr(0, stack.find(';'));
        const std::string type = root.substr(root.rfind(',') + 1);
        g.modelName = type.substr(type.rfind('.') + 1);
        break;
    }
    return g;
}

}  // namespace irscope::io

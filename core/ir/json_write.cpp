// The saving half of json_io.h: a Graph as torch_ir writes it (its field
// order, Python's json.dump(indent=2) spelling), written through a temporary
// file so that a failure never leaves a half-written IR behind.
#include "core/ir/json_io.h"

#include "core/ir/constant_packing.h"
#include "core/ir/dtype.h"
#include "core/ir/file_replace.h"
#include "core/ir/python_json_writer.h"

namespace irscope::ir {

namespace {

void writeTensorMeta(PythonJsonWriter& w, const TensorMeta& meta) {
    w.beginObject();
    w.key("name");
    w.value(meta.name);
    w.key("shape");
    w.beginArray();
    // torch_ir's shapes are numbers: a symbol or an unreadable dim is null.
    for (const Dim& dim : meta.shape) {
        if (const auto size = dim.size())
            w.value(*size);
        else
            w.null();
    }
    w.endArray();
    if (meta.hasDtype()) {
        w.key("dtype");
        w.value(meta.dtype);
    }
    if (meta.producerNode) {
        w.key("producer_node");
        w.value(*meta.producerNode);
        w.key("producer_output_idx");
        w.value(meta.producerOutputIdx);
    }
    w.endObject();
}

void writeTensorMetaList(PythonJsonWriter& w, const std::vector<TensorMeta>& list) {
    w.beginArray();
    for (const auto& meta : list) writeTensorMeta(w, meta);
    w.endArray();
}

void writeNode(PythonJsonWriter& w, const OpNode& node) {
    w.beginObject();
    w.key("name");
    w.value(node.name);
    w.key("op_type");
    w.value(node.opType);
    w.key("inputs");
    writeTensorMetaList(w, node.inputs);
    w.key("outputs");
    writeTensorMetaList(w, node.outputs);
    w.key("attrs");
    w.json(node.attrs);
    w.endObject();
}

// A usable constant as nested lists of its dtype; any other as the file had it.
void writeConstants(PythonJsonWriter& w, const Graph& graph) {
    w.beginObject();
    for (const auto& [name, value] : graph.constants) {
        w.key(name);
        w.beginObject();
        w.key("data");
        const auto dtype = parseDType(value.dtype);
        if (value.usable() && dtype)
            writeConstantData(w, *dtype, value);
        else
            w.json(value.rawData);
        w.key("dtype");
        w.value(value.dtype);
        w.endObject();
    }
    w.endObject();
}

}  // namespace

std::string graphToJson(const Graph& graph) {
    std::string out;
    out.reserve(1 << 16);
    PythonJsonWriter w(out);
    w.beginObject();
    w.key("model_name");
    w.value(graph.modelName);
    w.key("pytorch_version");
    w.value(graph.pytorchVersion);
    w.key("graph_inputs");
    writeTensorMetaList(w, graph.graphInputs);
    w.key("graph_outputs");
    writeTensorMetaList(w, graph.graphOutputs);
    w.key("weights");
    writeTensorMetaList(w, graph.weights);
    w.key("weight_name_mapping");
    w.beginObject();
    for (const auto& [placeholder, original] : graph.weightNameMapping) {
        w.key(placeholder);
        w.value(original);
    }
    w.endObject();
    w.key("nodes");
    w.beginArray();
    for (const auto& node : graph.nodes) writeNode(w, node);
    w.endArray();
    if (!graph.constants.empty()) {  // torch_ir writes "constants" only when there are some
        w.key("constants");
        writeConstants(w, graph);
    }
    w.endObject();
    return out;
}

void saveGraphFile(const Graph& graph, const std::string& path) { replaceFileContents(path, graphToJson(graph)); }

}  // namespace irscope::ir

#include "core/export/info_summary.h"

#include "core/ir/symbol_ranges.h"

#include <algorithm>
#include <unordered_map>

#include "core/ir/python_json_writer.h"

namespace irscope::exporter {
namespace {

std::string toDecimal(unsigned __int128 value) {
    if (value == 0) return "0";
    std::string digits;
    while (value > 0) {
        digits += static_cast<char>('0' + static_cast<int>(value % 10));
        value /= 10;
    }
    return {digits.rbegin(), digits.rend()};
}

}  // namespace

std::string withThousands(unsigned __int128 value) {
    const std::string digits = toDecimal(value);
    std::string text;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) text += ',';
        text += digits[i];
    }
    return text;
}

InfoSummary summarize(const ir::Graph& graph) {
    InfoSummary info;
    info.modelName = graph.modelName;
    info.numNodes = graph.nodes.size();
    info.numInputs = graph.graphInputs.size();
    info.numOutputs = graph.graphOutputs.size();
    info.numWeights = graph.weights.size();
    constexpr unsigned __int128 kMax = ~static_cast<unsigned __int128>(0);
    for (const auto& weight : graph.weights) {
        unsigned __int128 count = 1;
        for (const ir::Dim& dim : weight.shape) {
            const auto d = static_cast<unsigned __int128>(std::max<int64_t>(dim.size().value_or(0), 0));
            count = (d != 0 && count > kMax / d) ? kMax : count * d;  // saturate rather than wrap
        }
        info.totalParameters = info.totalParameters > kMax - count ? kMax : info.totalParameters + count;
    }
    // pytorch-ir builds these as Python dicts keyed by name: a name listed
    // twice (a graph output returned twice) keeps its first place and its
    // last shape.
    auto byName = [](const std::vector<ir::TensorMeta>& metas, std::vector<std::pair<std::string, ir::Shape>>& out) {
        std::unordered_map<std::string, size_t> at;
        for (const auto& m : metas) {
            if (auto [it, fresh] = at.emplace(m.name, out.size()); !fresh)
                out[it->second].second = m.shape;
            else
                out.emplace_back(m.name, m.shape);
        }
    };
    byName(graph.graphInputs, info.inputShapes);
    byName(graph.graphOutputs, info.outputShapes);
    info.symbols = graph.symbolRanges;

    std::unordered_map<std::string, size_t> position;
    for (const auto& node : graph.nodes) {
        auto [it, fresh] = position.emplace(node.opType, info.opDistribution.size());
        if (fresh) info.opDistribution.emplace_back(node.opType, 0);
        ++info.opDistribution[it->second].second;
    }
    std::stable_sort(info.opDistribution.begin(), info.opDistribution.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return info;
}

std::string formatInfoText(const InfoSummary& info) {
    std::string out;
    out += "Model: " + info.modelName + "\n";
    out += "Nodes: " + std::to_string(info.numNodes) + "\n";
    out += "Inputs: " + std::to_string(info.numInputs) + "\n";
    out += "Outputs: " + std::to_string(info.numOutputs) + "\n";
    out += "Weights: " + std::to_string(info.numWeights) + "\n";
    out += "Total parameters: " + withThousands(info.totalParameters) + "\n";
    out += "\nInput shapes:\n";
    for (const auto& [name, shape] : info.inputShapes) out += "  " + name + ": " + ir::shapeToList(shape) + "\n";
    out += "\nOutput shapes:\n";
    for (const auto& [name, shape] : info.outputShapes) out += "  " + name + ": " + ir::shapeToList(shape) + "\n";
    if (!info.symbols.empty()) {
        out += "\nSymbols:\n";
        for (const auto& s : info.symbols) out += "  " + ir::formatSymbolRange(s) + "\n";
    }
    out += "\nOp distribution:\n";
    for (const auto& [op, count] : info.opDistribution) out += "  " + op + ": " + std::to_string(count) + "\n";
    return out;
}

std::string formatInfoJson(const InfoSummary& info) {
    std::string out;
    ir::PythonJsonWriter w(out);
    auto shapes = [&w](const std::vector<std::pair<std::string, ir::Shape>>& list) {
        w.beginObject();
        for (const auto& [name, shape] : list) {
            w.key(name);
            w.beginArray();
            // A symbol by its expression ("s27"), an unreadable dim as null.
            for (const ir::Dim& dim : shape) {
                if (const auto size = dim.size())
                    w.value(*size);
                else if (!dim.expression().empty())
                    w.value(dim.expression());
                else
                    w.null();
            }
            w.endArray();
        }
        w.endObject();
    };
    w.beginObject();
    w.key("model_name");
    w.value(info.modelName);
    w.key("num_nodes");
    w.value(static_cast<int64_t>(info.numNodes));
    w.key("num_inputs");
    w.value(static_cast<int64_t>(info.numInputs));
    w.key("num_outputs");
    w.value(static_cast<int64_t>(info.numOutputs));
    w.key("num_weights");
    w.value(static_cast<int64_t>(info.numWeights));
    w.key("total_parameters");
    w.integerLiteral(toDecimal(info.totalParameters));  // Python ints have no size limit
    w.key("input_shapes");
    shapes(info.inputShapes);
    w.key("output_shapes");
    shapes(info.outputShapes);
    w.key("op_distribution");
    w.beginObject();
    for (const auto& [op, count] : info.opDistribution) {
        w.key(op);
        w.value(static_cast<int64_t>(count));
    }
    w.endObject();
    w.endObject();
    return out + "\n";
}

}  // namespace irscope::exporter

#include "core/ir/graph_index.h"

#include <algorithm>

namespace irscope::ir {
namespace {

const std::vector<Use> kNoUses;
const std::vector<std::string> kNoNames;

TensorKind kindFromPrefix(std::string_view placeholder) {
    if (placeholder.substr(0, 2) == "p_") return TensorKind::Parameter;
    if (placeholder.substr(0, 2) == "b_") return TensorKind::Buffer;
    if (placeholder.substr(0, 2) == "c_") return TensorKind::Constant;
    return TensorKind::OtherWeight;
}

void sortUnique(std::vector<int64_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

const char* tensorKindName(TensorKind kind) {
    switch (kind) {
    case TensorKind::Activation: return "activation";
    case TensorKind::GraphInput: return "input";
    case TensorKind::Parameter: return "parameter";
    case TensorKind::Buffer: return "buffer";
    case TensorKind::Constant: return "constant";
    case TensorKind::OtherWeight: return "weight";
    case TensorKind::Unknown: return "unknown";
    }
    return "unknown";
}

bool isWeightKind(TensorKind kind) {
    return kind == TensorKind::Parameter || kind == TensorKind::Buffer || kind == TensorKind::Constant ||
           kind == TensorKind::OtherWeight;
}

GraphIndex::GraphIndex(const Graph& graph) : graph_(graph) {
    indexNames();
    for (const auto& [placeholder, original] : graph.weightNameMapping)
        if (kindOf(placeholder) == TensorKind::Constant && !constant(original))
            constantsWithoutValue_.emplace_back(placeholder, original);
    reserveSlots();
    const auto& nodes = graph.nodes;
    size_t outputSlot = 0;
    for (size_t n = 0; n < nodes.size(); ++n) {
        const auto& node = nodes[n];
        const auto nodeId = static_cast<int64_t>(n);
        inputOffset_.push_back(static_cast<int64_t>(sources_.size()));
        outputOffset_.push_back(static_cast<int64_t>(outputSlot));
        for (size_t i = 0; i < node.inputs.size(); ++i) {
            ValueSource src = resolveInput(node.inputs[i], nodeId);
            recordUse(src, Use{nodeId, static_cast<int64_t>(i)});
            sources_.push_back(std::move(src));
        }
        // After the inputs: a name resolves to outputs of earlier nodes only.
        for (size_t o = 0; o < node.outputs.size(); ++o)
            producerByTensor_.insert_or_assign(node.outputs[o].name, std::pair{nodeId, static_cast<int64_t>(o)});
        outputSlot += node.outputs.size();
    }
    inputOffset_.push_back(static_cast<int64_t>(sources_.size()));
    outputOffset_.push_back(static_cast<int64_t>(outputSlot));
}

void GraphIndex::indexNames() {
    const Graph& graph = graph_;
    const auto& nodes = graph.nodes;
    nodeByName_.reserve(nodes.size());
    graphInputByName_.reserve(graph.graphInputs.size());
    weightByOriginal_.reserve(graph.weights.size());
    originalByPlaceholder_.reserve(graph.weightNameMapping.size());
    placeholdersByOriginal_.reserve(graph.weightNameMapping.size());
    constantByName_.reserve(graph.constants.size());
    for (size_t i = 0; i < nodes.size(); ++i) nodeByName_.try_emplace(nodes[i].name, static_cast<int64_t>(i));
    for (size_t i = 0; i < graph.graphInputs.size(); ++i)
        graphInputByName_.try_emplace(graph.graphInputs[i].name, static_cast<int64_t>(i));
    for (size_t i = 0; i < graph.weights.size(); ++i)
        weightByOriginal_.try_emplace(graph.weights[i].name, static_cast<int64_t>(i));
    for (const auto& [placeholder, original] : graph.weightNameMapping) {
        originalByPlaceholder_.try_emplace(placeholder, &original);
        placeholdersByOriginal_[original].push_back(placeholder);
    }
    for (size_t i = 0; i < graph.constants.size(); ++i)
        constantByName_.try_emplace(graph.constants[i].first, static_cast<int64_t>(i));
}

void GraphIndex::reserveSlots() {
    const auto& nodes = graph_.nodes;
    graphInputConsumers_.resize(graph_.graphInputs.size());
    weightUses_.resize(graph_.weights.size());
    inputOffset_.reserve(nodes.size() + 1);
    outputOffset_.reserve(nodes.size() + 1);
    size_t inputTotal = 0, outputTotal = 0;
    for (const auto& node : nodes) {
        inputTotal += node.inputs.size();
        outputTotal += node.outputs.size();
    }
    sources_.reserve(inputTotal);
    consumers_.resize(outputTotal);
    producerByTensor_.reserve(outputTotal);
}

ValueSource GraphIndex::resolveInput(const TensorMeta& input, int64_t nodeId) const {
    ValueSource src;
    if (input.producerNode) {
        // Producers must come earlier in the file; a forward reference stays
        // Missing (validation reports the order violation).
        auto producer = nodeByName_.find(*input.producerNode);
        if (producer != nodeByName_.end() && producer->second < nodeId) {
            src = {ValueSource::Kind::NodeOutput, producer->second, input.producerOutputIdx, {}};
        } else if (auto gi = graphInputByName_.find(*input.producerNode); gi != graphInputByName_.end()) {
            src = {ValueSource::Kind::GraphInput, gi->second, 0, {}};
        }
    } else if (auto gi = graphInputByName_.find(input.name); gi != graphInputByName_.end()) {
        src = {ValueSource::Kind::GraphInput, gi->second, 0, {}};
    } else if (auto out = producerByTensor_.find(input.name); out != producerByTensor_.end()) {
        src = {ValueSource::Kind::NodeOutput, out->second.first, out->second.second, {}};
    } else if (auto mapped = originalByPlaceholder_.find(input.name); mapped != originalByPlaceholder_.end()) {
        auto w = weightByOriginal_.find(*mapped->second);
        src = {ValueSource::Kind::Weight, w == weightByOriginal_.end() ? -1 : w->second, 0, input.name};
    } else if (auto w = weightByOriginal_.find(input.name); w != weightByOriginal_.end()) {
        src = {ValueSource::Kind::Weight, w->second, 0, input.name};
    } else if (constantByName_.count(input.name)) {
        src = {ValueSource::Kind::Weight, -1, 0, input.name};
    }
    return src;
}

void GraphIndex::recordUse(const ValueSource& src, Use use) {
    switch (src.kind) {
    case ValueSource::Kind::NodeOutput: {
        const auto& producer = graph_.nodes[static_cast<size_t>(src.index)];
        if (src.outputIndex >= 0 && src.outputIndex < static_cast<int64_t>(producer.outputs.size()))
            consumers_[static_cast<size_t>(outputOffset_[static_cast<size_t>(src.index)] + src.outputIndex)].push_back(
                use);
        break;
    }
    case ValueSource::Kind::GraphInput: graphInputConsumers_[static_cast<size_t>(src.index)].push_back(use); break;
    case ValueSource::Kind::Weight:
        if (src.index >= 0) weightUses_[static_cast<size_t>(src.index)].push_back(use);
        break;
    case ValueSource::Kind::Missing: break;
    }
}

std::optional<int64_t> GraphIndex::nodeIndex(std::string_view name) const {
    auto it = nodeByName_.find(name);
    return it == nodeByName_.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

std::optional<int64_t> GraphIndex::graphInputIndex(std::string_view name) const {
    auto it = graphInputByName_.find(name);
    return it == graphInputByName_.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

std::optional<int64_t> GraphIndex::weightIndex(std::string_view name) const {
    if (auto mapped = originalByPlaceholder_.find(name); mapped != originalByPlaceholder_.end()) name = *mapped->second;
    auto it = weightByOriginal_.find(name);
    return it == weightByOriginal_.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

const std::string* GraphIndex::originalName(std::string_view placeholder) const {
    auto it = originalByPlaceholder_.find(placeholder);
    return it == originalByPlaceholder_.end() ? nullptr : it->second;
}

const std::vector<std::string>& GraphIndex::placeholdersOf(std::string_view originalName) const {
    auto it = placeholdersByOriginal_.find(originalName);
    return it == placeholdersByOriginal_.end() ? kNoNames : it->second;
}

const ConstantValue* GraphIndex::constant(std::string_view originalName) const {
    auto it = constantByName_.find(originalName);
    return it == constantByName_.end() ? nullptr : &graph_.constants[static_cast<size_t>(it->second)].second;
}

TensorKind GraphIndex::kindOf(std::string_view name) const {
    if (originalByPlaceholder_.count(name)) return kindFromPrefix(name);
    if (graphInputByName_.count(name)) return TensorKind::GraphInput;
    if (producerByTensor_.count(name)) return TensorKind::Activation;
    if (weightByOriginal_.count(name) || constantByName_.count(name)) {
        const auto& placeholders = placeholdersOf(name);
        return placeholders.empty() ? TensorKind::OtherWeight : kindFromPrefix(placeholders.front());
    }
    return TensorKind::Unknown;
}

const ValueSource& GraphIndex::source(int64_t node, int64_t input) const {
    return sources_.at(static_cast<size_t>(inputOffset_.at(static_cast<size_t>(node)) + input));
}

const std::vector<Use>& GraphIndex::consumersOf(int64_t node, int64_t output) const {
    if (node < 0 || node >= static_cast<int64_t>(graph_.nodes.size())) return kNoUses;
    if (output < 0 || output >= static_cast<int64_t>(graph_.nodes[static_cast<size_t>(node)].outputs.size()))
        return kNoUses;
    return consumers_[static_cast<size_t>(outputOffset_[static_cast<size_t>(node)] + output)];
}

const std::vector<Use>& GraphIndex::consumersOfGraphInput(int64_t input) const {
    if (input < 0 || input >= static_cast<int64_t>(graphInputConsumers_.size())) return kNoUses;
    return graphInputConsumers_[static_cast<size_t>(input)];
}

std::vector<int64_t> GraphIndex::producerNodes(int64_t node) const {
    std::vector<int64_t> result;
    const auto count = static_cast<int64_t>(graph_.nodes.at(static_cast<size_t>(node)).inputs.size());
    for (int64_t i = 0; i < count; ++i) {
        const auto& src = source(node, i);
        if (src.kind == ValueSource::Kind::NodeOutput) result.push_back(src.index);
    }
    sortUnique(result);
    return result;
}

std::vector<int64_t> GraphIndex::consumerNodes(int64_t node) const {
    std::vector<int64_t> result;
    const auto count = static_cast<int64_t>(graph_.nodes.at(static_cast<size_t>(node)).outputs.size());
    for (int64_t o = 0; o < count; ++o)
        for (const auto& use : consumersOf(node, o)) result.push_back(use.node);
    sortUnique(result);
    return result;
}

std::optional<std::pair<int64_t, int64_t>> GraphIndex::producerOfTensor(std::string_view tensorName) const {
    auto it = producerByTensor_.find(tensorName);
    return it == producerByTensor_.end() ? std::nullopt : std::optional(it->second);
}

const std::vector<Use>& GraphIndex::usesOfWeight(int64_t weightIndex) const {
    if (weightIndex < 0 || weightIndex >= static_cast<int64_t>(weightUses_.size())) return kNoUses;
    return weightUses_[static_cast<size_t>(weightIndex)];
}

}  // namespace irscope::ir

#include "core/exec/engine/runtime_checks.h"

#include <iomanip>
#include <sstream>

#include <ATen/ATen.h>

#include "core/exec/engine/executor.h"
#include "core/ir/symbolic_ops.h"

namespace irscope::exec {
namespace {

// A 0-d value as Python prints the number it stands for.
std::string checkedValueText(const at::Tensor& t) {
    if (!t.defined() || t.numel() != 1) return {};
    if (t.scalar_type() == at::kBool) return t.item<bool>() ? "True" : "False";
    if (at::isFloatingType(t.scalar_type())) {
        std::ostringstream s;
        s << std::setprecision(6) << t.item<double>();
        return s.str();
    }
    return std::to_string(t.item<int64_t>());
}

const ir::OpNode* checkOperandProducer(const ir::Graph& graph, const ir::TensorMeta& input) {
    if (!input.producerNode) return nullptr;
    for (const auto& n : graph.nodes)
        if (n.name == *input.producerNode) return &n;
    return nullptr;
}

}  // namespace

bool isRuntimeCheck(const std::string& opType) {
    return opType.rfind("aten._assert_scalar", 0) == 0 || opType.rfind("aten._functional_assert_scalar", 0) == 0 ||
           opType.rfind("aten._assert_async", 0) == 0 || opType.rfind("aten._functional_assert_async", 0) == 0 ||
           opType.rfind("aten.sym_constrain_range", 0) == 0 ||
           opType.rfind("aten._functional_sym_constrain_range", 0) == 0 ||
           opType.rfind("aten._assert_tensor_metadata", 0) == 0;
}

bool isCheckFailure(const ir::OpNode& node, const std::string& message) {
    if (auto it = node.attrs.find("assert_msg"); it != node.attrs.end() && it->is_string())
        return message.find(it->get<std::string>()) != std::string::npos;
    // sym_constrain_range: "Invalid value range for N between [min, max]";
    // _assert_tensor_metadata: "Tensor sizes mismatch" / "dtype mismatch".
    return message.find("Invalid value range") != std::string::npos || message.find("mismatch") != std::string::npos;
}

std::string runtimeCheckValues(const Executor& executor, const ir::Graph& graph, int64_t node) {
    if (node < 0 || node >= static_cast<int64_t>(graph.nodes.size())) return {};
    // The check reads a condition (ge_1 = item >= 1); the condition reads
    // the values to show. A check of a value itself (sym_constrain_range(u0))
    // shows that value.
    std::string out;
    const auto add = [&](const ir::TensorMeta& value) {
        const std::string text = checkedValueText(executor.valueOf(value.name));
        if (text.empty()) return;
        std::string what = value.name + " = " + text;
        if (const ir::OpNode* p = checkOperandProducer(graph, value);
            p && (p->opType.rfind("aten.item", 0) == 0 || p->opType.rfind("aten._local_scalar_dense", 0) == 0) &&
            !p->inputs.empty())
            what += " (" + p->inputs.front().name + ".item())";
        out += (out.empty() ? "" : ", ") + what;
    };
    for (const auto& input : graph.nodes[static_cast<size_t>(node)].inputs) {
        const ir::OpNode* condition = checkOperandProducer(graph, input);
        if (condition && input.shape.empty() && !condition->inputs.empty() && ir::isSymbolicOpType(condition->opType)) {
            for (const auto& operand : condition->inputs)
                if (operand.shape.empty()) add(operand);
        } else if (input.shape.empty()) {
            add(input);
        }
    }
    return out.empty() ? std::string() : "where " + out;
}

std::vector<std::string> inputsBehind(const ir::GraphIndex& index, int64_t node) {
    const ir::Graph& graph = index.graph();
    if (node < 0 || node >= static_cast<int64_t>(graph.nodes.size())) return {};
    std::vector<bool> seen(graph.nodes.size(), false), isInput(graph.graphInputs.size(), false);
    std::vector<int64_t> todo{node};
    seen[static_cast<size_t>(node)] = true;
    while (!todo.empty()) {
        const int64_t n = todo.back();
        todo.pop_back();
        const auto inputs = static_cast<int64_t>(graph.nodes[static_cast<size_t>(n)].inputs.size());
        for (int64_t k = 0; k < inputs; ++k) {
            const ir::ValueSource& source = index.source(n, k);
            if (source.kind == ir::ValueSource::Kind::GraphInput && source.index >= 0)
                isInput[static_cast<size_t>(source.index)] = true;
            else if (source.kind == ir::ValueSource::Kind::NodeOutput && source.index >= 0 &&
                     !seen[static_cast<size_t>(source.index)]) {
                seen[static_cast<size_t>(source.index)] = true;
                todo.push_back(source.index);
            }
        }
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < isInput.size(); ++i)
        if (isInput[i]) out.push_back(graph.graphInputs[i].name);
    return out;
}

}  // namespace irscope::exec

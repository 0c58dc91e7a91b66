#include "core/ir/higher_order_ops.h"

namespace irscope::ir {
namespace {

struct HigherOrderOp {
    std::string_view name;
    std::string_view madeBy;  // what in the model's forward() exports as this op
    std::string_view remedy;
};

// The higher-order ops torch.export emits into an exported program's graph.
constexpr HigherOrderOp kOps[] = {
    {"wrap_with_set_grad_enabled", "torch.no_grad() or torch.enable_grad() inside forward()",
     "export under torch.no_grad() around the call instead of inside forward(), or call "
     "ExportedProgram.run_decompositions() before extract_ir, which inlines the region"},
    {"wrap_with_autocast", "torch.autocast inside forward()",
     "export the model already in the dtype it computes in (model.to(dtype)) without autocast, or call "
     "ExportedProgram.run_decompositions() before extract_ir, which inlines the region"},
    {"cond", "torch.cond (data-dependent if)",
     "export each branch as its own model, or make the condition static before export"},
    {"while_loop", "torch._higher_order_ops.while_loop", "unroll the loop for a fixed count before export"},
    {"map", "torch._higher_order_ops.map", "unroll the map for the example's size before export"},
    {"scan", "torch._higher_order_ops.scan", "unroll the scan for the example's size before export"},
    {"associative_scan", "torch._higher_order_ops.associative_scan", "unroll the scan before export"},
    {"invoke_subgraph", "a nested compiled region (torch.compiler.nested_compile_region)",
     "export without the nested compile region"},
    {"auto_functionalized", "a custom op that mutates its inputs", "call run_decompositions() before extract_ir"},
    {"auto_functionalized_v2", "a custom op that mutates its inputs", "call run_decompositions() before extract_ir"},
    {"with_effects", "an op with side effects (e.g. a print or a custom effectful op)",
     "remove the side effect from forward() before export"},
    {"flex_attention", "torch.nn.attention.flex_attention", "export with scaled_dot_product_attention instead"},
    {"strict_mode", "torch._export.wrappers._StrictMode", "export without strict mode regions"},
    {"out_dtype", "torch._higher_order_ops.out_dtype", "cast the op's result with .to(dtype) instead"},
    {"run_const_graph", "constant folding of a region", "export without constant folding"},
    {"call_torchbind", "a method of a TorchBind object (a C++ class registered with torch.classes)",
     "keep the object's work outside the exported forward(), or export its tensors as inputs; irscope holds "
     "no TorchBind objects"},
    {"executorch_call_delegate", "an ExecuTorch delegate (a lowered region)", "extract the IR before lowering"},
};

}  // namespace

std::optional<std::string> higherOrderOpExplanation(std::string_view opType) {
    for (std::string_view prefix : {"torch.ops.higher_order.", "higher_order."})
        if (opType.substr(0, prefix.size()) == prefix) opType.remove_prefix(prefix.size());
    for (const auto& op : kOps) {
        if (opType != op.name) continue;
        std::string s = "'";
        s += op.name;
        s += "' is a higher-order op (";
        s += op.madeBy;
        s += " exports as one): it runs a subgraph of the exported program, and pytorch-ir's IR does not "
             "contain that subgraph, so this node cannot be run. To get an IR without it: ";
        s += op.remedy;
        s += ". irscope draws the node and runs the graph up to it";
        return s;
    }
    return std::nullopt;
}

}  // namespace irscope::ir

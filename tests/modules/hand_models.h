#pragma once
// Hand-built Llama-shaped graphs with the module of every op written down
// (what each op's nn.Module forward would be), for the module tests.
#include <map>
#include <string>

#include "modules/ir_builder.h"

namespace irscope::test {

// One Llama decoder layer: RMSNorm, attention with RoPE from a shared table, residual, MLP or MoE, residual.
inline std::string addLayer(IrBuilder& b, int i, const std::string& h, bool moe,
                            std::map<std::string, std::string>& truth) {
    const std::string L = "layers." + std::to_string(i), s = "_" + std::to_string(i);
    auto op = [&](const std::string& name, const char* type, std::vector<std::string> from, std::vector<std::string> w,
                  const std::string& module) {
        truth[name + s] = module;
        return b.op(name + s, type, from, w);
    };
    const auto pow = op("pow", "aten.pow.Tensor_Scalar", {h}, {}, L + ".input_layernorm");
    const auto mean = op("mean", "aten.mean.dim", {pow}, {}, L + ".input_layernorm");
    const auto rsqrt = op("rsqrt", "aten.rsqrt.default", {mean}, {}, L + ".input_layernorm");
    const auto mul = op("mul", "aten.mul.Tensor", {h, rsqrt}, {}, L + ".input_layernorm");
    const auto norm = op("mulw", "aten.mul.Tensor", {mul}, {L + ".input_layernorm.weight"}, L + ".input_layernorm");
    const auto q = op("q", "aten.linear.default", {norm}, {L + ".self_attn.q_proj.weight"}, L + ".self_attn.q_proj");
    const auto k = op("k", "aten.linear.default", {norm}, {L + ".self_attn.k_proj.weight"}, L + ".self_attn.k_proj");
    const auto vq = op("view_q", "aten.view.default", {q}, {}, L + ".self_attn");
    const auto vk = op("view_k", "aten.view.default", {k}, {}, L + ".self_attn");
    const auto rq = op("rope_q", "aten.mul.Tensor", {vq}, {"rope.cos"}, L + ".self_attn");
    const auto rk = op("rope_k", "aten.mul.Tensor", {vk}, {"rope.cos"}, L + ".self_attn");
    const auto mm = op("mm", "aten.matmul.default", {rq, rk}, {}, L + ".self_attn");
    const auto sm = op("softmax", "aten.softmax.int", {mm}, {}, L + ".self_attn");
    const auto o = op("o", "aten.linear.default", {sm}, {L + ".self_attn.o_proj.weight"}, L + ".self_attn.o_proj");
    const auto add1 = op("add1", "aten.add.Tensor", {h, o}, {}, L);
    std::string out;
    if (!moe) {
        const auto up = op("up", "aten.linear.default", {add1}, {L + ".mlp.up_proj.weight"}, L + ".mlp.up_proj");
        const auto act = op("silu", "aten.silu.default", {up}, {}, L + ".mlp");
        out = op("down", "aten.linear.default", {act}, {L + ".mlp.down_proj.weight"}, L + ".mlp.down_proj");
    } else {
        const auto gate = op("gate", "aten.linear.default", {add1}, {L + ".mlp.gate.weight"}, L + ".mlp.gate");
        const auto sig = op("sigmoid", "aten.sigmoid.default", {gate}, {}, L + ".mlp");
        const auto topk = op("topk", "aten.topk.default", {sig}, {}, L + ".mlp");
        std::vector<std::string> experts;
        for (int e = 0; e < 12; ++e) experts.push_back(L + ".mlp.experts." + std::to_string(e) + ".up_proj.weight");
        const auto stack = op("stack", "aten.stack.default", {}, experts, L + ".mlp");
        const auto ein = op("einsum", "aten.einsum.default", {add1, stack}, {}, L + ".mlp");
        const auto mix = op("mix", "aten.mul.Tensor", {ein, topk}, {}, L + ".mlp");
        out = op("sum", "aten.sum.dim_IntList", {mix}, {}, L + ".mlp");
    }
    return op("add2", "aten.add.Tensor", {add1, out}, {}, L);
}

struct Case {
    ir::Graph graph;
    std::string json;  // the same graph as a torch_ir file
    std::map<std::string, std::string> truth;
};

inline Case llama(int layers, bool moe) {
    IrBuilder b({"input_ids"});
    Case c;
    c.truth["embed"] = "embed_tokens";
    std::string h = b.op("embed", "aten.embedding.default", {"input_ids"}, {"embed_tokens.weight"});
    for (int i = 0; i < layers; ++i) h = addLayer(b, i, h, moe && i > 0, c.truth);
    for (const char* n : {"fpow", "fmean", "frsqrt", "fmul"}) c.truth[n] = "norm";
    const auto p = b.op("fpow", "aten.pow.Tensor_Scalar", {h});
    const auto m = b.op("fmean", "aten.mean.dim", {p});
    const auto r = b.op("frsqrt", "aten.rsqrt.default", {m});
    const auto x = b.op("fmul", "aten.mul.Tensor", {h, r});
    c.truth["fnorm"] = "norm";
    const auto n = b.op("fnorm", "aten.mul.Tensor", {x}, {"norm.weight"});
    c.truth["logits"] = "lm_head";
    b.output(b.op("logits", "aten.linear.default", {n}, {"lm_head.weight"}));
    c.graph = b.graph();
    c.json = b.json();
    return c;
}

}  // namespace irscope::test

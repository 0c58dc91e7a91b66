#include "core/exec/reference/dump_check.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

#include "core/exec/engine/exec_types.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/tolerance.h"
#include "core/exec/numerics/verify.h"
#include "core/io/tensor_file.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

namespace {

struct Group {
    const ir::DumpGroup* spec = nullptr;
    std::vector<int64_t> nodes;  // sorted
    std::vector<std::string> outputs;
    std::vector<std::string> keys;
    std::vector<at::Tensor> backend;  // the dump's values, in the program's layout and dtype
};

std::string shapeText(at::IntArrayRef s) { return indexText(s.vec()); }

// The group's nodes, from its selector.
std::vector<int64_t> nodesOf(const ir::DumpGroup& g, const ir::GraphIndex& index, const DumpCheckRequest& r) {
    const std::string where = r.groupsPath + ": groups." + g.name;
    std::vector<int64_t> out;
    switch (g.selector) {
    case ir::DumpGroup::Selector::Module: {
        const auto nodes = r.moduleNodes ? r.moduleNodes(g.module) : std::nullopt;
        if (!nodes) throw std::runtime_error(where + ": no module '" + g.module + "' (`irscope modules` lists them)");
        if (nodes->empty()) throw std::runtime_error(where + ": module '" + g.module + "' holds no op");
        out = *nodes;
        break;
    }
    case ir::DumpGroup::Selector::Nodes:
        for (const auto& n : g.names) {
            const auto i = index.nodeIndex(n);
            if (!i) throw std::runtime_error(where + ": no node '" + n + "'");
            out.push_back(*i);
        }
        break;
    case ir::DumpGroup::Selector::Outputs:
        for (const auto& t : g.names) {
            const auto p = index.producerOfTensor(t);
            if (!p) throw std::runtime_error(where + ": no node makes a tensor '" + t + "'");
            out.push_back(p->first);
        }
        break;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// What the group hands on: its tensors read by a node outside it, or
// returned (the index's consumer lists: no scan of the graph per group).
std::vector<std::string> outputsOf(const ir::DumpGroup& g, const std::vector<int64_t>& nodes,
                                   const ir::GraphIndex& index) {
    if (g.selector == ir::DumpGroup::Selector::Outputs) return g.names;
    const ir::Graph& graph = index.graph();
    const std::set<int64_t> inside(nodes.begin(), nodes.end());
    std::set<std::string> returned;
    for (const auto& o : graph.graphOutputs) returned.insert(o.name);
    std::vector<std::string> out;
    for (int64_t i : nodes) {
        const auto& outputs = graph.nodes[static_cast<size_t>(i)].outputs;
        for (size_t k = 0; k < outputs.size(); ++k) {
            const auto& users = index.consumersOf(i, static_cast<int64_t>(k));
            const bool readOutside =
                std::any_of(users.begin(), users.end(), [&](const ir::Use& u) { return !inside.count(u.node); });
            if (readOutside || returned.count(outputs[k].name)) out.push_back(outputs[k].name);
        }
    }
    if (out.empty() && !graph.nodes[static_cast<size_t>(nodes.back())].outputs.empty())
        out.push_back(graph.nodes[static_cast<size_t>(nodes.back())].outputs.front().name);
    return out;
}

// A dumped value brought back to the program's layout and dtype.
at::Tensor fromDump(const at::Tensor& dumped, const ir::DumpGroup& g, const at::Tensor& like, const std::string& key,
                    const DumpCheckRequest& r) {
    const std::string where = r.dumpPath + ": '" + key + "' (group " + g.name + ")";
    at::Tensor t = dumped;
    if (!g.permutation.empty()) {
        if (t.dim() != static_cast<int64_t>(g.permutation.size()))
            throw std::runtime_error(where + ": layout " + g.layoutText + " has " +
                                     std::to_string(g.permutation.size()) + " dimensions; the value has " +
                                     std::to_string(t.dim()) + " (shape " + shapeText(t.sizes()) + ")");
        std::vector<int64_t> inverse(g.permutation.size());
        for (size_t i = 0; i < g.permutation.size(); ++i) inverse[static_cast<size_t>(g.permutation[i])] = i;
        t = t.permute(inverse);
    }
    if (g.quantized()) {
        if (at::isFloatingType(t.scalar_type()))
            throw std::runtime_error(where + ": the group says " + g.dtype + ", the value is " + dtypeNameOf(t));
        t = (t.to(at::kDouble) - static_cast<double>(g.zeroPoint)) * g.scale;
    }
    if (!t.sizes().equals(like.sizes()))
        throw std::runtime_error(
            where + ": shape " + shapeText(dumped.sizes()) +
            (g.permutation.empty() ? "" : " (" + shapeText(t.sizes()) + " in the program's layout)") +
            " where the program's value has " + shapeText(like.sizes()) +
            (g.permutation.empty() && dumped.dim() == 4 ? "; is it NHWC? say \"layout\"" : ""));
    return t.to(like.scalar_type()).contiguous();
}

}  // namespace

DumpCheckReport checkDump(const ir::Graph& graph, const DumpCheckRequest& r) {
    const ir::GraphIndex index(graph);
    std::vector<Group> groups;
    for (const auto& spec : r.groups) {
        Group g;
        g.spec = &spec;
        g.nodes = nodesOf(spec, index, r);
        g.outputs = outputsOf(spec, g.nodes, index);
        groups.push_back(std::move(g));
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.nodes.back() < b.nodes.back(); });

    // The dump's keys: a group's name (its one output), NAME.k, a tensor name
    // or a node name (its first output). Every key must mean something.
    std::set<std::string> used;
    for (auto& g : groups) {
        for (size_t k = 0; k < g.outputs.size(); ++k) {
            const auto producer = index.producerOfTensor(g.outputs[k]);
            std::vector<std::string> candidates;
            if (g.outputs.size() == 1) candidates.push_back(g.spec->name);
            candidates.push_back(g.spec->name + "." + std::to_string(k));
            candidates.push_back(g.outputs[k]);
            if (producer && producer->second == 0)
                candidates.push_back(graph.nodes[static_cast<size_t>(producer->first)].name);
            std::string found;
            for (const auto& c : candidates)
                if (r.dump.find(c)) {
                    found = c;
                    break;
                }
            if (found.empty()) {
                std::string looked;
                for (const auto& c : candidates) looked += (looked.empty() ? "'" : ", '") + c + "'";
                throw std::runtime_error(r.dumpPath + ": no value for group " + g.spec->name + " output '" +
                                         g.outputs[k] + "' (looked for " + looked + ")");
            }
            g.keys.push_back(found);
            used.insert(found);
        }
    }
    for (const auto& e : r.dump)
        if (!used.count(e.name))
            throw std::runtime_error(r.dumpPath + ": key '" + e.name + "' matches no group of " + r.groupsPath +
                                     " (keys: group names, NAME.k, tensor "
                                     "or node names of a group's outputs)");

    // The program's own run, every group output kept.
    Session clean(graph, RetentionPolicy::FreeAfterLastUse);
    clean.setWeights(r.weights);
    clean.setConstants(r.constants);
    clean.setInputs(r.inputs);
    if (const auto missing = clean.preflight(); !missing.empty())
        throw std::runtime_error("the program's run lacks " + std::to_string(missing.size()) +
                                 " value(s): " + formatMissingValue(missing.front()));
    for (const auto& g : groups)
        for (const auto& o : g.outputs) clean.setPinned(o, true);
    const RunResult full = clean.runToEnd();
    if (full.reason == StopReason::Failed && full.error)
        throw std::runtime_error("the program's own run failed at node '" + full.error->nodeName +
                                 "': " + full.error->message);
    std::map<std::string, at::Tensor> program;
    for (const auto& g : groups)
        for (const auto& o : g.outputs) {
            at::Tensor t;
            if (!clean.value(o, t)) throw std::runtime_error("the program's run kept no value of '" + o + "'");
            program[o] = t;
        }
    for (auto& g : groups)
        for (size_t k = 0; k < g.outputs.size(); ++k)
            g.backend.push_back(fromDump(*r.dump.find(g.keys[k]), *g.spec, program[g.outputs[k]], g.keys[k], r));

    // Each group recomputed from the backend's values of everything dumped before it.
    DumpCheckReport report;
    Session local(graph, RetentionPolicy::FreeAfterLastUse);
    local.setWeights(r.weights);
    local.setConstants(r.constants);
    local.setInputs(r.inputs);
    for (const auto& g : groups) {
        DumpGroupResult out;
        out.group = g.spec->name;
        out.module = g.spec->selector == ir::DumpGroup::Selector::Module ? g.spec->module : "";
        for (int64_t i : g.nodes) out.nodes.push_back(graph.nodes[static_cast<size_t>(i)].name);
        out.outputs = g.outputs;
        out.dumpKeys = g.keys;
        for (const auto& name : local.overriddenTensors()) local.clearOverride(name);
        local.reset();
        const std::set<int64_t> inside(g.nodes.begin(), g.nodes.end());
        for (const auto& other : groups)
            for (size_t k = 0; k < other.outputs.size(); ++k) {
                const auto p = index.producerOfTensor(other.outputs[k]);
                if (p && !inside.count(p->first) && p->first < g.nodes.back())
                    local.setOverride(other.outputs[k], other.backend[k]);
            }
        for (const auto& o : g.outputs) local.setPinned(o, true);
        const RunResult run = local.runTo(g.nodes.back());
        if (run.reason == StopReason::Failed && run.error)
            throw std::runtime_error("group " + g.spec->name + ": the program on the backend's values failed at '" +
                                     run.error->nodeName + "': " + run.error->message);
        bool localOk = true, programOk = true;
        for (size_t k = 0; k < g.outputs.size(); ++k) {
            at::Tensor recomputed;
            if (!local.value(g.outputs[k], recomputed))
                throw std::runtime_error("group " + g.spec->name + ": no value of '" + g.outputs[k] + "'");
            const DtypeTolerance base = defaultTolerance(recomputed.scalar_type());
            Tolerance tol;
            tol.rtol = base.rtol;
            tol.atol = base.atol + (g.spec->quantized() ? g.spec->scale / 2 : 0.0);
            const Comparison vsLocal = compareTensors(g.outputs[k], g.backend[k], recomputed, tol);
            const Comparison vsProgram = compareTensors(g.outputs[k], g.backend[k], program[g.outputs[k]], tol);
            out.maxAbsLocal = std::max(out.maxAbsLocal, vsLocal.maxAbsDiff);
            out.maxAbsProgram = std::max(out.maxAbsProgram, vsProgram.maxAbsDiff);
            out.allowed =
                std::max(out.allowed, *tol.atol + *tol.rtol * recomputed.abs().max().to(at::kDouble).item<double>());
            localOk = localOk && vsLocal.matched;
            programOk = programOk && vsProgram.matched;
        }
        char buf[160];
        if (!localOk) {
            out.verdict = "backend fault";
            std::snprintf(buf, sizeof buf, "%.3g from the group computed on the backend's own inputs (allowed %.3g)",
                          out.maxAbsLocal, out.allowed);
        } else if (!programOk) {
            out.verdict = "inherits";
            std::snprintf(buf, sizeof buf,
                          "%.3g from the program's own run, but right on the backend's inputs (%.3g): an earlier "
                          "group's error",
                          out.maxAbsProgram, out.maxAbsLocal);
        } else {
            out.verdict = "ok";
            std::snprintf(buf, sizeof buf, "%.3g from the program's own run (allowed %.3g)", out.maxAbsProgram,
                          out.allowed);
        }
        out.detail = buf;
        if (report.firstFault < 0 && out.verdict == "backend fault")
            report.firstFault = static_cast<int>(report.groups.size());
        report.groups.push_back(std::move(out));
    }
    return report;
}

io::TensorMap readDumpValues(const std::string& path) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(path)) return io::readTensorFile(path);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(path))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    io::TensorMap out;
    for (const auto& f : files) {
        const io::TensorMap one = io::readTensorFile(f.string());
        const bool byStem = f.extension() == ".npy" && one.size() == 1;
        for (const auto& e : one) {
            const std::string key = byStem ? f.stem().string() : e.name;
            if (out.find(key))
                throw std::runtime_error(f.string() + ": key '" + key + "' is in another file of " + path + " too");
            out.insert(key, e.tensor, e.source);
        }
    }
    if (out.empty()) throw std::runtime_error(path + ": a folder with no tensor file");
    return out;
}

std::string dumpCheckJson(const DumpCheckReport& report, const std::string& program, const std::string& dump) {
    using json = nlohmann::ordered_json;
    const auto number = [](double v) { return std::isfinite(v) ? json(v) : json(std::isnan(v) ? "nan" : "inf"); };
    const auto groupJson = [&](const DumpGroupResult& g) {
        return json{{"group", g.group},
                    {"module", g.module},
                    {"nodes", g.nodes},
                    {"outputs", g.outputs},
                    {"dump_keys", g.dumpKeys},
                    {"max_abs", number(g.maxAbsLocal)},
                    {"vs_program", number(g.maxAbsProgram)},
                    {"allowed", number(g.allowed)},
                    {"verdict", g.verdict},
                    {"detail", g.detail}};
    };
    json groups = json::array();
    for (const auto& g : report.groups) groups.push_back(groupJson(g));
    json doc{{"backend", "dump"},
             {"program", program},
             {"dump", dump},
             {"groups", std::move(groups)},
             {"first_fault", report.firstFault >= 0 ? groupJson(report.groups[static_cast<size_t>(report.firstFault)])
                                                    : json(nullptr)}};
    return doc.dump(2) + "\n";
}

}  // namespace irscope::exec

#pragma once
// The Debugger's insides, shared by the files that implement it: values and
// run control (debugger.cpp) and the numerical checks and node data
// (debugger_checks.cpp). Internal to core (torch headers).
#include <ATen/ATen.h>

#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/exec/debugger/debugger.h"
#include "core/exec/debugger/run_checks.h"
#include "core/exec/debugger/subgraph_frames.h"
#include "core/exec/engine/executor.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/tensor_probes.h"
#include "core/exec/values/value_sources.h"
#include "core/exec/values/value_tables.h"
#include "core/exec/values/value_text.h"
#include "core/export/node_data.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

// The first failing row as a divergence (a second run as the reference has
// no tensors to compare afterwards: its check's rows say it).
DivergenceInfo firstFailingRow(const std::vector<OutputError>& rows, const ReferenceChoice& choice);

// A typed nested list as a tensor of `dtype` (debugger.cpp): for typed
// constants and typed overrides.
at::Tensor tensorFromText(const ParsedValues& parsed, c10::ScalarType dtype);

struct Debugger::Impl {
    Impl(const ir::Graph& g, RetentionPolicy p) : graph(g), session(g, p), frames(g), sources(g), checks(g) {}

    const ir::Graph& graph;
    Session session;
    SubgraphFrames frames;  // its own lock
    mutable std::mutex m;   // everything below
    ValueSources sources;
    io::TensorMap effectiveInputs;
    Tolerance tolerance;  // unset: the dtypes' defaults (tolerance.h)
    std::vector<MissingValue> missing;
    std::unordered_set<std::string> missingNodes;
    mutable NodeOverlays overlays;
    std::optional<exporter::NodeData> imported;  // node data loaded as an overlay
    std::string importedPath;
    RunChecks checks;  // its own lock; rebuilt on the run lane only

    const ir::GraphIndex& index() const { return session.executor().index(); }

    std::string originalOf(const std::string& name) const {
        if (const std::string* o = index().originalName(name)) return *o;
        return name;
    }

    void refreshMissing() {
        missing = session.preflight();
        missingNodes.clear();
        for (const auto& mv : missing)
            if (!awaitsStateDict(mv, sources))
                for (const auto& n : mv.nodes) missingNodes.insert(n);
    }

    // Actual value: what the node computed (in local mode the run holds the
    // reference's in its place), the session's (node outputs, inputs,
    // registry), else any loaded file entry.
    at::Tensor actual(const std::string& name) const {
        at::Tensor t;
        if (SubgraphFrames::isQualified(name)) {
            frames.value(session, name, t);
            return t;
        }
        t = checks.ownValue(name);
        if (t.defined()) return t;
        if (session.value(name, t)) return t;
        std::lock_guard lock(m);
        return sources.fileValue(name);
    }
    // The reference the user chose: a second run's value, else the files'.
    at::Tensor reference(const std::string& name) const {
        if (checks.runsReference()) return checks.runValue(name);
        if (checks.choice().kind == ReferenceChoice::Kind::Program) return checks.programValue(name);
        std::lock_guard lock(m);
        return sources.reference(name);
    }
    at::Tensor get(const std::string& name, ValueSide side) const {
        if (side == ValueSide::Actual) return actual(name);
        if (side == ValueSide::Reference) return reference(name);
        return difference(actual(name), reference(name));
    }
    // The 2-D slice at `lead` that `side` shows, cut by `cut` before anything
    // is converted: a Difference subtracts the two cut slices, never the whole tensors.
    template <class Cut>
    at::Tensor slice(const std::string& name, ValueSide side, const std::vector<int64_t>& lead, Cut&& cut) const {
        if (side != ValueSide::Difference) {
            at::Tensor t = get(name, side);
            return t.defined() ? cut(sliceView(t, lead)) : t;
        }
        at::Tensor a = actual(name), r = reference(name);
        if (!a.defined() || !r.defined() || !a.sizes().equals(r.sizes())) return {};
        return difference(cut(sliceView(a, lead)), cut(sliceView(r, lead)));
    }

    void recordRun(int64_t node) {
        const auto outs = session.executor().outputsOf(node);
        const OutputStats s = outputStats(outs);
        std::lock_guard lock(m);
        overlays.recordRun(node, s.maxAbs, s.nanOrInf, !outs.empty());
    }
};

}  // namespace irscope::exec

#pragma once
// DebuggerCore: what the Debugger and its parts share: the session, the
// frames, the value sources, the checks, and the few operations more than one
// part needs (a stop described, values changed, the checks rebuilt). Internal
// to core (torch headers); the parts reach it through their own reference.
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

// io::writeTensorFile with its failure as std::runtime_error (debugger_values.cpp).
void writeTensorsOrThrow(const io::TensorMap& tensors, const std::string& path);

struct DebuggerCore {
    DebuggerCore(const ir::Graph& g, RetentionPolicy p) : graph(g), session(g, p), frames(g), sources(g), checks(g) {}

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

    int64_t cursor() const { return session.progress(); }
    int64_t nodeCount() const { return session.nodeCount(); }

    // Run control (debugger.cpp).
    void reset();
    RunStatus step();
    // Runs to `last` (inclusive) as Session::runTo does, stopping inside the
    // first higher-order op on the way whose recorded calls reach a subgraph
    // breakpoint; from inside a frame, first the rest of that op's calls.
    RunStatus runTo(int64_t last);
    RunStatus finish(const RunResult& result) const;
    // How the run stands in the frame (debugger_frames.cpp).
    RunStatus inFrame(StopReason reason, const std::string& how) const;

    // Values changed: the overlays and the pre-flight check start over
    // (debugger_values.cpp), and so do the checks.
    void valuesChanged();
    void applyConstants();
    void applyInputs();
    void load(ValueFile kind, const std::string& path, const DebuggerValues::LoadProgress& progress);

    // The checks (debugger_checks.cpp): rebuilt from the values and tolerance now.
    void rebuildChecks();
    void clearOverlays();
    std::vector<OutputError> errorRows() const {
        uint64_t epoch = 0;
        return checks.rowsFrom(0, epoch);
    }
    Tolerance currentTolerance() const {
        std::lock_guard lock(m);
        return tolerance;
    }

    void recordRun(int64_t node) {
        const auto outs = session.executor().outputsOf(node);
        const OutputStats s = outputStats(outs);
        std::lock_guard lock(m);
        overlays.recordRun(node, s.maxAbs, s.nanOrInf, !outs.empty());
    }
};

}  // namespace irscope::exec

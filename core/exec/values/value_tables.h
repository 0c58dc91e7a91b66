#pragma once
// The rows of the values tables (value_rows.h) computed from the value
// sources: one per weight or constant with its effective value under
// value_precedence.h's order and what is wrong with it, one per graph input,
// one per missing value with its remedy. Pure functions; internal to core.
#include <vector>

#include "core/exec/values/value_rows.h"
#include "core/exec/values/value_sources.h"
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

std::vector<WeightRow> weightRows(const ir::Graph& graph, const ir::GraphIndex& index, const ValueSources& sources);
std::vector<InputRow> inputRows(const ir::Graph& graph, const ValueSources& sources,
                                const io::TensorMap& effectiveInputs);
std::vector<MissingRow> missingRows(const std::vector<MissingValue>& missing, const ValueSources& sources);

// A parameter or buffer while no state_dict is loaded: waiting, not an alarm.
bool awaitsStateDict(const MissingValue& missing, const ValueSources& sources);

}  // namespace irscope::exec

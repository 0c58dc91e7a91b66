#pragma once
// Whether a newly opened graph is the same model as the one open before (a
// reload, a new export of it, its meta-device twin), so that the value files
// the user loaded for the old one still apply to it. The window carries a
// session's files over only then: opening an unrelated model starts clean,
// as Netron and Model Explorer do, instead of reporting another model's
// weights as "missing" and its buffers as "unused in file".
//
// Judged by what the files are keyed by: the state_dict keys (weights,
// buffers, constants, each with its shape) and the graph inputs' names. Same
// model when at least half of the new graph's keys were the old graph's with
// the same shape and the model's class name is the same (an edited model
// keeps most of them; two different models share few, if any), or nine in
// ten under another class name; with no weights on either side, when the
// inputs' names agree and the model names do.
#include "core/ir/graph.h"

namespace irscope::ir {

bool isSameModel(const Graph& before, const Graph& after);

}  // namespace irscope::ir

#include "core/exec/repro/cut_values.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "core/exec/engine/session.h"
#include "core/io/tensor_map.h"

namespace irscope::exec {

void pinCut(Session& session, const ir::Subgraph& cut) {
    for (const auto& n : cut.inputs) session.setPinned(n, true);
    for (const auto& n : cut.outputs) session.setPinned(n, true);
}

void cutValues(const Session& session, const ir::Subgraph& cut, io::TensorMap& inputs, io::TensorMap& expected) {
    auto take = [&](const std::string& name, io::TensorMap& into, const char* role) {
        at::Tensor t;
        if (!session.value(name, t))
            throw std::runtime_error("'" + name + "' (" + role +
                                     ") has no value: run up to the selection's last node first, keeping it");
        into.insert(name, t.contiguous());
    };
    for (const auto& n : cut.inputs) take(n, inputs, "a value entering the selection");
    for (const auto& n : cut.outputs) take(n, expected, "a value the selection produces");
}

}  // namespace irscope::exec

#include "core/exec/numerics/node_times.h"

#include <limits>

#include "core/exec/engine/session.h"

namespace irscope::exec {

std::vector<double> nodeTimesMs(const Session& session) {
    std::vector<double> out(static_cast<size_t>(session.nodeCount()), std::numeric_limits<double>::quiet_NaN());
    for (int64_t i = 0; i < session.nodeCount(); ++i)
        if (session.state(i) == NodeState::Done) out[static_cast<size_t>(i)] = session.seconds(i) * 1e3;
    return out;
}

}  // namespace irscope::exec

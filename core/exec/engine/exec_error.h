#pragma once
// The one exception type of core/exec: always names the node (and, when it is
// about an argument, the argument) so a message can be shown as is.
#include <stdexcept>
#include <string>

#include "core/exec/engine/exec_types.h"

namespace irscope::exec {

class ExecError : public std::runtime_error {
public:
    ExecError(std::string node, std::string opType, std::string reason)
        : std::runtime_error(format(node, opType, reason)),
          node_(std::move(node)),
          opType_(std::move(opType)),
          reason_(std::move(reason)) {}

    const std::string& node() const { return node_; }
    const std::string& opType() const { return opType_; }
    const std::string& reason() const { return reason_; }

private:
    static std::string format(const std::string& node, const std::string& op, const std::string& reason) {
        if (node.empty()) return reason;
        return "node '" + node + "' (" + op + "): " + reason;
    }
    std::string node_, opType_, reason_;
};

// An input of the node has no value at all (a constant the meta extraction
// dropped, a weight the state_dict lacks): not a failure of the node, which
// never ran. Session turns it into StopReason::MissingValue.
class MissingInputError : public ExecError {
public:
    MissingInputError(std::string node, std::string opType, MissingValue value)
        : ExecError(node, opType, missingValueMessage(value, node)), value_(std::move(value)) {}
    const MissingValue& value() const { return value_; }

private:
    MissingValue value_;
};

}  // namespace irscope::exec

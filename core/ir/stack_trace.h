#pragma once
// Where in the user's code a node came from. torch.export records each node's
// Python stack (`stack_trace` in a .pt2's node metadata) as a traceback:
//   File "/home/me/model.py", line 42, in forward
//       x = self.proj(x)
//   File ".../torch/nn/modules/linear.py", line 134, in forward
//       return F.linear(input, self.weight, self.bias)
// The frame a user wants is the innermost one in *their* code, not PyTorch's
// own modules: that is the line they would edit.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::ir {

struct StackFrame {
    std::string file;
    int64_t line = 0;
    std::string function;
    std::string code;  // the source line, trimmed ("" when the trace has none)
};

std::vector<StackFrame> parseStackTrace(std::string_view trace);

// The innermost frame outside PyTorch's own package (a path with
// "/torch/" in it), else the innermost frame; nullopt for an empty trace.
std::optional<StackFrame> userFrame(std::string_view trace);

}  // namespace irscope::ir

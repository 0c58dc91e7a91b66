#pragma once
// A call's positional arguments as torch.save((args, {})) writes them: what a
// .pt2 keeps as its example inputs (data/sample_inputs/<program>.pt), which
// torch.export.load reads back. Torch headers.
#include <ATen/ATen.h>

#include <string>
#include <vector>

namespace irscope::io {

// The bytes of the torch.save zip. `what` names the file in messages. Throws
// TensorFileError for a tensor that is not a dense CPU tensor of a dtype
// torch.save's legacy storages hold.
std::string torchSaveOfArguments(const std::vector<at::Tensor>& args, const std::string& what);

}  // namespace irscope::io

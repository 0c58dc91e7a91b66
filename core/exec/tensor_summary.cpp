#include "core/exec/tensor_summary.h"
#include "core/io/tensor_dtype.h"

#include <ATen/ATen.h>

namespace irscope::exec {

TensorSummary summarize(const at::Tensor& tensor) {
    TensorSummary s;
    if (!tensor.defined()) return s;
    s.shape = tensor.sizes().vec();
    s.dtype = io::scalarTypeName(tensor.scalar_type());
    s.numel = tensor.numel();
    s.bytes = static_cast<size_t>(s.numel) * tensor.element_size();
    if (s.numel == 0) return s;
    at::NoGradGuard guard;
    at::Tensor x = tensor.is_complex() ? tensor.abs() : tensor;
    x = x.to(at::kDouble);
    s.zeros = (x == 0).sum().item<int64_t>();
    at::Tensor nan = x.isnan(), inf = x.isinf();
    s.nans = nan.sum().item<int64_t>();
    s.infs = inf.sum().item<int64_t>();
    at::Tensor fin = x.masked_select(~(nan | inf));
    s.finite = fin.numel();
    if (s.finite > 0) {
        s.min = fin.min().item<double>();
        s.max = fin.max().item<double>();
        s.mean = fin.mean().item<double>();
        s.std = s.finite > 1 ? fin.std().item<double>() : 0.0;   // unbiased, as torch.std
    }
    return s;
}

}  // namespace irscope::exec

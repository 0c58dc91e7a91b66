#include "core/exec/values/random_inputs.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "core/exec/engine/attr_convert.h"

namespace irscope::exec {

std::vector<int64_t> concreteInputShape(const ir::Shape& irShape) {
    std::vector<int64_t> shape;
    shape.reserve(irShape.size());
    for (const ir::Dim& d : irShape) {
        const int64_t size = d.size().value_or(1);  // a symbol or an unreadable dim: 1
        shape.push_back(size < 0 ? 1 : size);
    }
    return shape;
}

io::TensorMap makeRandomInputs(const ir::Graph& graph, int64_t seed) {
    at::manual_seed(static_cast<uint64_t>(seed));
    io::TensorMap m;
    for (const auto& in : graph.graphInputs) {
        const auto st = scalarTypeOfIrDtype(in.dtype).value_or(at::kFloat);
        const auto shape = concreteInputShape(in.shape);
        at::Tensor t;
        if (st == at::kBool)
            t = at::randint(0, 2, shape).to(at::kBool);
        else if (at::isIntegralType(st, false))
            t = at::randint(0, 10, shape, at::TensorOptions().dtype(st));
        else
            t = at::randn(shape).to(st);
        m.insert(in.name, t, "random");
    }
    return m;
}

at::Tensor makeFilledInput(const ir::TensorMeta& input, double value) {
    const auto st = scalarTypeOfIrDtype(input.dtype).value_or(at::kFloat);
    return at::full(concreteInputShape(input.shape), value, at::TensorOptions().dtype(st));
}

}  // namespace irscope::exec

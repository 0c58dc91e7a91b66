#pragma once
// Helpers for exec tests: IR graphs from JSON text, tensor maps, closeness.
// Torch headers first: Qt's `slots` macro breaks ATen's.
#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/exec/numerics/tolerance.h"
#include "core/io/tensor_map.h"
#include "core/ir/json_io.h"

namespace irscope::exec::test {

using json = nlohmann::ordered_json;

inline json meta(const std::string& name, std::vector<int64_t> shape, const std::string& dtype = "float32",
                 const std::string& producer = "", int64_t idx = 0) {
    json m = json::object();
    m["name"] = name;
    m["shape"] = shape;
    m["dtype"] = dtype;
    if (!producer.empty()) {
        m["producer_node"] = producer;
        m["producer_output_idx"] = idx;
    }
    return m;
}

inline json node(const std::string& name, const std::string& op, json inputs, json outputs,
                 json attrs = json::object()) {
    json n = json::object();
    n["name"] = name;
    n["op_type"] = op;
    n["inputs"] = std::move(inputs);
    n["outputs"] = std::move(outputs);
    n["attrs"] = std::move(attrs);
    return n;
}

inline ir::Graph graphOf(json inputs, json outputs, json nodes, json weights = json::array(),
                         json mapping = json::object()) {
    json g = json::object();
    g["model_name"] = "Test";
    g["pytorch_version"] = "2.5.0";
    g["graph_inputs"] = std::move(inputs);
    g["graph_outputs"] = std::move(outputs);
    g["weights"] = std::move(weights);
    g["weight_name_mapping"] = std::move(mapping);
    g["nodes"] = std::move(nodes);
    return ir::parseGraph(g.dump(), "test.json");
}

inline io::TensorMap mapOf(std::initializer_list<std::pair<std::string, at::Tensor>> items) {
    io::TensorMap m;
    for (const auto& [k, v] : items) m.insert(k, v);
    return m;
}

inline bool close(const at::Tensor& a, const at::Tensor& b, double rtol = 1e-5, double atol = 1e-6) {
    return a.sizes().equals(b.sizes()) && at::allclose(a.to(at::kDouble), b.to(at::kDouble), rtol, atol, true);
}

// The reference intermediates were computed by PyTorch on the machine that
// made the fixtures; another CPU's BLAS kernels round a matmul differently by
// an ulp (1.2e-07 near 0.6, over torch.allclose's atol of 1e-8). The planted
// errors are 1.0 and 0.5: an atol of 1e-6 still tells them apart.
inline const Tolerance kUlps{1e-5, 1e-6};

// data/ir/numerics.json: the planted-error expectations.
inline nlohmann::json numerics() {
    std::ifstream f(std::string(IRSCOPE_TEST_DATA) + "/ir/numerics.json");
    return nlohmann::json::parse(f);
}

// got within `rel` of want (relative; absolute near zero).
inline bool near(double got, double want, double rel) {
    return std::fabs(got - want) <= rel * std::max(1e-12, std::fabs(want));
}

}  // namespace irscope::exec::test

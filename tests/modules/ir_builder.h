#pragma once
// A tiny builder of torch_ir JSON for hand-checked module tests: each op
// names its activation inputs (node or graph input names) and its weights by
// original name (placeholders p_<name with '_'> are made for them).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ir/json_io.h"

namespace irscope::test {

class IrBuilder {
public:
    explicit IrBuilder(std::vector<std::string> inputs = {"x"}) {
        ir_ = {{"model_name", "Hand"},
               {"pytorch_version", "2.5.1"},
               {"graph_inputs", nlohmann::json::array()},
               {"graph_outputs", nlohmann::json::array()},
               {"weights", nlohmann::json::array()},
               {"weight_name_mapping", nlohmann::json::object()},
               {"nodes", nlohmann::json::array()}};
        for (const auto& in : inputs)
            ir_["graph_inputs"].push_back(
                {{"name", in}, {"shape", {1, 4}}, {"dtype", "float32"}, {"producer_node", in}});
    }

    // Adds an op; returns its name.
    std::string op(const std::string& name, const std::string& opType, const std::vector<std::string>& from,
                   const std::vector<std::string>& weights = {}) {
        nlohmann::json node = {{"name", name},
                               {"op_type", opType},
                               {"inputs", nlohmann::json::array()},
                               {"outputs", {{{"name", name}, {"shape", {1, 4}}, {"dtype", "float32"}}}},
                               {"attrs", nlohmann::json::object()}};
        for (const auto& f : from)
            node["inputs"].push_back({{"name", f},
                                      {"shape", {1, 4}},
                                      {"dtype", "float32"},
                                      {"producer_node", f},
                                      {"producer_output_idx", 0}});
        for (const auto& w : weights) {
            std::string ph = "p_" + w;
            for (auto& c : ph)
                if (c == '.') c = '_';
            if (!ir_["weight_name_mapping"].contains(ph)) {
                ir_["weight_name_mapping"][ph] = w;
                ir_["weights"].push_back({{"name", w}, {"shape", {4, 4}}, {"dtype", "float32"}});
            }
            node["inputs"].push_back({{"name", ph}, {"shape", {4, 4}}, {"dtype", "float32"}});
        }
        ir_["nodes"].push_back(node);
        return name;
    }
    void output(const std::string& node) {
        ir_["graph_outputs"].push_back({{"name", node},
                                        {"shape", {1, 4}},
                                        {"dtype", "float32"},
                                        {"producer_node", node},
                                        {"producer_output_idx", 0}});
    }
    ir::Graph graph() const { return ir::parseGraph(ir_.dump(), "hand.json"); }
    std::string json() const { return ir_.dump(2); }

private:
    nlohmann::json ir_;
};

}  // namespace irscope::test

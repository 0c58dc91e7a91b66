#include "commands/quantization_report.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/cli_io.h"
#include "cli/command.h"
#include "core/exec/reference/quantization_compare.h"
#include "core/io/tensor_file.h"
#include "core/ir/archive_path.h"

namespace irscope::cli {
namespace {

using json = nlohmann::ordered_json;

// JSON has no infinity: an exact match is "inf" (a string), as the other reports write it.
json number(double v) {
    if (std::isnan(v)) return nullptr;
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

std::string db(double v) {
    if (std::isinf(v)) return v > 0 ? "inf dB" : "-inf dB";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f dB", v);
    return buf;
}

json toJson(const exec::QuantizationComparison& c, const ir::Graph& q, const std::string& referenceProgram) {
    json r;
    r["reference_program"] = referenceProgram;
    r["sqnr"] =
        "10*log10(sum(ref^2) / sum((ref - q)^2)) in dB, the float program's value as the signal "
        "(PyTorch's compute_sqnr: 20*log10(norm(ref) / norm(ref - q)))";
    r["output_sqnr_db"] = number(c.outputSqnrDb);
    json nodes = json::array();
    for (const auto& e : c.nodes)
        nodes.push_back({{"node", e.nodeName},
                         {"reference_node", e.referenceNode},
                         {"output", e.output},
                         {"reference_tensor", e.referenceTensor},
                         {"sqnr_db", number(e.sqnrDb)},
                         {"mse", number(e.mse)},
                         {"max_abs", number(e.maxAbs)},
                         {"cosine", number(e.cosine)}});
    r["nodes"] = std::move(nodes);
    json unpaired = json::array();
    for (const auto& u : c.pairing.unpaired)
        unpaired.push_back({{"node", q.nodes[static_cast<size_t>(u.node)].name}, {"reason", u.reason}});
    r["unpaired"] = std::move(unpaired);
    json sensitivity = json::array();
    for (const auto& s : c.sensitivity)
        sensitivity.push_back({{"node", s.quantize}, {"tensor", s.tensor}, {"output_sqnr_db", number(s.outputSqnrDb)}});
    r["sensitivity"] = std::move(sensitivity);
    json weights = json::array();
    for (const auto& w : c.weights) {
        json row{{"weight", w.weight}, {"reference_weight", w.referenceWeight}, {"sqnr_db", number(w.sqnrDb)}};
        if (w.axis >= 0) {
            row["axis"] = w.axis;
            json channels = json::array();
            for (double v : w.channelSqnrDb) channels.push_back(number(v));
            row["channel_sqnr_db"] = std::move(channels);
            row["outlier_channels"] = w.outlierChannels;
        }
        weights.push_back(std::move(row));
    }
    r["weights"] = std::move(weights);
    return r;
}

void printSummary(const exec::QuantizationComparison& c, const std::string& referenceProgram) {
    std::cout << "against the float program " << referenceProgram << ": output SQNR " << db(c.outputSqnrDb) << ", "
              << c.nodes.size() << " tensors paired, " << c.pairing.unpaired.size() << " nodes unpaired\n";
    std::vector<const exec::PairedError*> worst;
    for (const auto& e : c.nodes) worst.push_back(&e);
    std::stable_sort(worst.begin(), worst.end(), [](const auto* a, const auto* b) { return a->sqnrDb < b->sqnrDb; });
    std::cout << "lowest SQNR:\n";
    for (size_t i = 0; i < worst.size() && i < 5; ++i)
        std::cout << "  " << worst[i]->nodeName << " (float: " << worst[i]->referenceTensor << ")  "
                  << db(worst[i]->sqnrDb) << "\n";
    if (!c.sensitivity.empty()) {
        std::cout << "keep in float, best first (output SQNR with that tensor in float):\n";
        for (size_t i = 0; i < c.sensitivity.size() && i < 5; ++i)
            std::cout << "  " << c.sensitivity[i].tensor << " (" << c.sensitivity[i].quantize << ")  "
                      << db(c.sensitivity[i].outputSqnrDb) << "\n";
    }
    for (const auto& w : c.weights) {
        std::cout << "weight " << w.weight << " (float: " << w.referenceWeight << ")  " << db(w.sqnrDb);
        if (!w.outlierChannels.empty()) {
            std::cout << ", outlier channels:";
            for (int64_t ch : w.outlierChannels) std::cout << " " << ch;
        }
        std::cout << "\n";
    }
}

}  // namespace

int runQuantizationReport(const QuantizationReportRequest& r) {
    const auto reference = loadGraphOrReport("run", r.referenceProgram);
    if (!reference) return kExitUsage;
    io::TensorMap archiveWeights;
    if (!r.referenceWeights) {
        if (!ir::isArchivePath(r.referenceProgram)) {
            std::cerr << "irscope run: --reference-program " << r.referenceProgram
                      << " is an IR: give its state_dict with --reference-weights\n";
            return kExitUsage;
        }
        try {
            archiveWeights = io::readTensorFile(r.referenceProgram);
        } catch (const std::exception& e) {
            std::cerr << "irscope run: --reference-program: " << e.what() << "\n";
            return kExitUsage;
        }
    }
    const io::TensorMap& referenceWeights = r.referenceWeights ? *r.referenceWeights : archiveWeights;
    const exec::QuantizationComparison c =
        exec::compareQuantized(*r.quantized, *r.quantizedWeights, *reference, referenceWeights, *r.inputs);
    if (!c.problem.empty()) {
        std::cerr << "irscope run: --reference-program: " << c.problem << "\n";
        return kExitUsage;
    }
    const json report = toJson(c, *r.quantized, r.referenceProgram);
    if (r.reportPath) {
        std::ofstream f(*r.reportPath);
        f << report.dump(2) << "\n";
        if (!f) {
            std::cerr << "irscope run: --report: cannot write " << *r.reportPath << "\n";
            return kExitUsage;
        }
    }
    if (r.json)
        std::cout << report.dump(2) << "\n";
    else
        printSummary(c, r.referenceProgram);
    return kExitOk;
}

}  // namespace irscope::cli

// irscope tensors: what a tensor file holds, one row per tensor.
#include <cmath>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/arg_parser.h"
#include "core/io/catalog/tensor_listing.h"

namespace irscope::cli {
namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
    return s + "]";
}

std::string number(const std::optional<double>& v) {
    if (!v) return "";
    if (std::isnan(*v)) return "nan";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", *v);
    return buf;
}

nlohmann::ordered_json jsonNumber(const std::optional<double>& v) {
    if (!v || !std::isfinite(*v)) return nullptr;  // JSON has no NaN/inf
    return *v;
}

// torch.min / max / mean of a listed tensor; none for an empty or non-floating one.
std::optional<double> statOf(const io::TensorListing& r, double (io::TensorSummary::*stat)() const) {
    if (!r.stats || r.stats->numel == 0) return std::nullopt;
    return ((*r.stats).*stat)();
}

int runTensors(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--json", "--no-stats"}, {"--select"}, {}});
    requirePositional(parsed, 1, 1,
                      "FILE (a .pt/.pth/.bin, .safetensors, .npy file, a directory of .npy, or a sharded checkpoint)");
    io::ReadOptions options;
    options.select = parsed.value("--select").value_or("");
    const bool stats = !parsed.has("--no-stats");
    const auto rows = io::listTensorFile(parsed.positional[0], options, stats);

    if (parsed.has("--json")) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const auto& r : rows) {
            nlohmann::ordered_json o{{"name", r.name}, {"dtype", r.dtype}, {"shape", r.shape}};
            if (stats && r.supported && statOf(r, &io::TensorSummary::torchMin)) {
                o["min"] = jsonNumber(statOf(r, &io::TensorSummary::torchMin));
                o["max"] = jsonNumber(statOf(r, &io::TensorSummary::torchMax));
                o["mean"] = jsonNumber(statOf(r, &io::TensorSummary::torchMean));
            }
            if (!r.supported) {
                o["supported"] = false;
                o["note"] = r.note;
            }
            out.push_back(std::move(o));
        }
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }

    std::vector<std::vector<std::string>> table;
    table.push_back(stats ? std::vector<std::string>{"NAME", "DTYPE", "SHAPE", "MIN", "MAX", "MEAN"}
                          : std::vector<std::string>{"NAME", "DTYPE", "SHAPE"});
    for (const auto& r : rows) {
        std::vector<std::string> row{r.name, r.dtype, shapeText(r.shape)};
        if (!r.supported) {
            if (stats) row.insert(row.end(), {"", "", ""});
            row.push_back(r.note);  // says "not supported" and why, after the columns
        } else if (stats) {
            row.push_back(number(statOf(r, &io::TensorSummary::torchMin)));
            row.push_back(number(statOf(r, &io::TensorSummary::torchMax)));
            row.push_back(number(statOf(r, &io::TensorSummary::torchMean)));
        }
        table.push_back(std::move(row));
    }
    std::vector<size_t> width;
    for (const auto& row : table)
        for (size_t c = 0; c < row.size(); ++c) {
            if (width.size() <= c) width.push_back(0);
            width[c] = std::max(width[c], row[c].size());
        }
    for (const auto& row : table) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            line += row[c];
            if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 2, ' ');
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        std::cout << line << "\n";
    }
    return kExitOk;
}

const CommandRegistration registration{
    Command{"tensors", "list the tensors of a .pt/.safetensors/.npy file: name, dtype, shape, stats",
            "Usage: irscope tensors FILE [--json] [--no-stats] [--select KEY]\n\n"
            "Lists every tensor in FILE, one row each: name, dtype (torch_ir spelling:\n"
            "float32, bfloat16, int64, ...), shape, and min/max/mean of floating tensors.\n"
            "FILE may be a torch.save file (.pt/.pth/.bin, zip or legacy format), a\n"
            ".safetensors file, an .npy file, a directory of .npy files, or a sharded\n"
            "Hugging Face checkpoint (its *.index.json, or the directory of shards); the format is\n"
            "detected from the content. Pickles are read by a restricted unpickler:\n"
            "nothing in a file is ever executed, and files that ask for anything but\n"
            "tensors and plain data are refused. Nested checkpoints list their tensors\n"
            "with dotted names (state_dict.fc1.weight). Tensors of dtypes libtorch 1.13\n"
            "lacks (float8, uint16, ...) are listed as not supported.\n\n"
            "Options:\n"
            "  --json          an array of objects with name, dtype, shape (and min, max,\n"
            "                  mean; null when NaN or infinite)\n"
            "  --no-stats      leave out min/max/mean: reads no tensor data\n"
            "  --select KEY    only the nested dict KEY (e.g. state_dict, model.encoder),\n"
            "                  names relative to it\n\n"
            "Exit status: 0 on success, 2 when FILE cannot be read (the reason on stderr).\n",
            runTensors}};

}  // namespace
}  // namespace irscope::cli

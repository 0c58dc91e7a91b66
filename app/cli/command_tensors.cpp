// irscope tensors: what a tensor file holds, one row per tensor.
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/arg_parser.h"
#include "core/io/catalog/tensor_geometry.h"
#include "core/io/catalog/tensor_listing.h"

namespace irscope::cli {
namespace {

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
            if (!r.subclass.empty()) o["subclass"] = r.subclass;
            out.push_back(std::move(o));
        }
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }

    // Cells are views of the listing or short strings (shapes and numbers fit
    // the small-string buffer): 100,000 rows cost no allocation each.
    struct Row {
        std::string_view name, dtype;
        std::string shape;
        std::array<std::string, 3> stats;  // MIN MAX MEAN
        std::string_view note;             // says "not supported" and why, after the columns
    };
    std::vector<Row> table;
    table.reserve(rows.size() + 1);
    table.push_back({"NAME", "DTYPE", "SHAPE", {"MIN", "MAX", "MEAN"}, {}});
    for (const auto& r : rows) {
        Row row{r.name, r.dtype, io::shapeText(r.shape), {}, {}};
        if (!r.supported)
            row.note = r.note;
        else if (!r.subclass.empty())
            row.note = r.subclass;
        else if (stats)
            row.stats = {number(statOf(r, &io::TensorSummary::torchMin)),
                         number(statOf(r, &io::TensorSummary::torchMax)),
                         number(statOf(r, &io::TensorSummary::torchMean))};
        table.push_back(std::move(row));
    }
    const size_t columns = stats ? 6 : 3;
    std::array<size_t, 6> width{};
    auto cell = [](const Row& row, size_t c) -> std::string_view {
        switch (c) {
        case 0: return row.name;
        case 1: return row.dtype;
        case 2: return row.shape;
        default: return row.stats[c - 3];
        }
    };
    for (const Row& row : table)
        for (size_t c = 0; c < columns; ++c) width[c] = std::max(width[c], cell(row, c).size());
    std::string out;
    for (const Row& row : table) {
        const size_t start = out.size();
        for (size_t c = 0; c < columns; ++c) {
            out += cell(row, c);
            if (c + 1 < columns) out.append(width[c] - cell(row, c).size() + 2, ' ');
        }
        if (!row.note.empty()) (out += "  ") += row.note;
        while (out.size() > start && out.back() == ' ') out.pop_back();
        out += '\n';
        if (out.size() > (1 << 20)) {
            std::fwrite(out.data(), 1, out.size(), stdout);
            out.clear();
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return kExitOk;
}

const CommandRegistration commandTensorsRegistration{
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

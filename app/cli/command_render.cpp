// irscope render: the graph drawing, headless (layout engine + SVG export).
#include <algorithm>
#include <cctype>
#include <iostream>
#include <optional>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/export/svg_export.h"
#include "core/ir/graph_index.h"
#include "launcher/module_loader.h"

namespace irscope::cli {
namespace {

std::string lowerExtension(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

// The PNG renderer is the graph view's own, in the GUI module (Qt).
int renderPngInGuiModule(const ir::Graph& graph, bool includeWeights, double scale, const std::string& out) {
    std::string error;
    bool engineLoaded = false;  // the renderer never needs it
    const auto* module = app::loadGuiModule(error, engineLoaded);
    if (!module || !module->gui) {
        std::cerr << "irscope render: PNG needs the GUI module: " << (error.empty() ? "not a GUI module" : error)
                  << "\n";
        return kExitUsage;
    }
    return module->gui->renderPng(graph, includeWeights, scale, out);
}

int runRender(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--no-weights"}, {"--output", "--scale", "--depth"}, {{"-o", "--output"}}});
    requirePositional(parsed, 1, 1, "IR (a torch_ir JSON file or a .pt2 archive)");
    const auto out = parsed.value("--output");
    if (!out || out->empty()) throw UsageError("-o OUT.svg or -o OUT.png is required");
    const std::string ext = lowerExtension(*out);
    if (ext != "svg" && ext != "png") throw UsageError("cannot tell the format of '" + *out + "': use .svg or .png");
    exporter::SvgOptions options;
    if (auto scale = parsed.doubleValue("--scale")) {
        if (!(*scale > 0) || *scale > 100) throw UsageError("--scale must be a number in (0, 100]");
        options.scale = *scale;
    }
    // --depth: the collapsed drawing; absent or "all": every op (the default).
    std::optional<int> depth;
    if (auto d = parsed.value("--depth"); d && *d != "all") {
        if (*d == "auto")
            depth = -1;
        else if (auto n = parsed.intValue("--depth"); n && *n >= 0 && *n <= 1000)
            depth = static_cast<int>(*n);
        else
            throw UsageError("--depth must be a number >= 0, 'auto' or 'all'");
    }
    auto graph = loadGraphOrReport("render", parsed.positional[0]);
    if (!graph) return kExitUsage;
    const ir::GraphIndex index(*graph);
    if (depth) {
        if (ext == "png") throw UsageError("--depth draws SVG only for now: use -o OUT.svg");
        const std::string svg =
            exporter::graphToSvgByModule(*graph, index, !parsed.has("--no-weights"), *depth, options);
        return writeOutput("render", out, svg) ? kExitOk : kExitUsage;
    }
    if (ext == "png") return renderPngInGuiModule(*graph, !parsed.has("--no-weights"), options.scale, *out);
    const std::string svg = exporter::graphToSvg(*graph, index, !parsed.has("--no-weights"), options);
    return writeOutput("render", out, svg) ? kExitOk : kExitUsage;
}

const CommandRegistration commandRenderRegistration{
    Command{"render", "Draw the graph to an SVG (or PNG) file, as the graph view shows it",
            "Usage: irscope render IR -o OUT.svg|OUT.png [--no-weights] [--scale S] [--depth N|auto|all]\n\n"
            "Lays the graph out (layered, top to bottom) and writes the drawing:\n"
            "ops as boxes coloured by family with their output shape, graph inputs\n"
            "and weights (p_/b_/c_) as parallelograms with dashed edges, outputs as\n"
            "trapezoids, shapes on the edges. Each SVG element carries its node's\n"
            "name (id and <title>).\n\n"
            "Options:\n"
            "  -o, --output F  the file to write; its extension picks the format\n"
            "  --no-weights    leave out weights, buffers and constants\n"
            "  --scale S       scale the picture's size by S (default 1)\n"
            "  --depth N       draw by module: modules down to depth N open, the rest as\n"
            "                  one box each (1: the model's children; ModuleLists open\n"
            "                  with their parent); 'auto': the window's first view (at\n"
            "                  most ~150 items); 'all' (default): every op\n\n"
            "Exit status: 0 on success, 2 on bad arguments or when a file cannot be\n"
            "read or written.\n",
            runRender}};

}  // namespace
}  // namespace irscope::cli

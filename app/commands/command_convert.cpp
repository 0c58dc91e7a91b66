// irscope convert: any readable tensor file to .pt, .safetensors or .npy; and
// a torch.export archive (.pt2) to pytorch-ir's IR JSON (plus its weights), so
// the rest of a user's pytorch-ir tooling reads what torch.export saved.
#include <iostream>

#include "cli/arg_parser.h"
#include "core/io/catalog/tensor_format.h"
#include "core/io/sharded_writer.h"
#include "core/io/tensor_convert.h"
#include "core/ir/json_io.h"

namespace irscope::cli {
namespace {

int runConvert(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(
        args, {{"--quiet", "--pytorch-shards"}, {"--select", "--shard-size", "--weights"}, {{"-q", "--quiet"}}});
    requirePositional(parsed, 2, 2, "IN and OUT");
    if (io::lowerExtension(parsed.positional[1]) == ".json") {
        // An archive's program as pytorch-ir's IR; its tensors with --weights.
        const ir::Graph graph = ir::loadGraphFile(parsed.positional[0]);
        ir::saveGraphFile(graph, parsed.positional[1]);
        if (!parsed.has("--quiet"))
            std::cerr << "wrote " << graph.nodes.size() << " nodes to " << parsed.positional[1] << "\n";
        if (auto weights = parsed.value("--weights")) {
            const size_t n = io::convertTensorFile(parsed.positional[0], *weights, {});
            if (!parsed.has("--quiet"))
                std::cerr << "wrote " << n << (n == 1 ? " tensor" : " tensors") << " to " << *weights << "\n";
        }
        return kExitOk;
    }
    if (parsed.has("--weights")) throw UsageError("--weights goes with an IR output (OUT.json)");
    io::ReadOptions options;
    options.select = parsed.value("--select").value_or("");
    if (auto size = parsed.value("--shard-size")) {
        const auto bytes = io::parseShardSize(*size);
        if (!bytes) throw UsageError("--shard-size: '" + *size + "' is not a size (e.g. 5GB, 500MB, 2GiB)");
        const auto files = io::convertToShards(parsed.positional[0], parsed.positional[1], *bytes,
                                               parsed.has("--pytorch-shards"), options);
        if (!parsed.has("--quiet"))
            std::cerr << "wrote " << files.size() << (files.size() == 1 ? " file" : " files") << " to "
                      << parsed.positional[1] << "\n";
        return kExitOk;
    }
    const size_t n = io::convertTensorFile(parsed.positional[0], parsed.positional[1], options);
    if (!parsed.has("--quiet"))
        std::cerr << "wrote " << n << (n == 1 ? " tensor" : " tensors") << " to " << parsed.positional[1] << "\n";
    return kExitOk;
}

const CommandRegistration commandConvertRegistration{
    Command{"convert", "convert tensor files between .pt, .safetensors and .npy, bit-exact",
            "Usage: irscope convert IN OUT [--select KEY] [-q]\n"
            "       irscope convert IN OUT_DIR --shard-size SIZE [--pytorch-shards]\n"
            "       irscope convert MODEL.pt2 OUT.json [--weights OUT_WEIGHTS]\n\n"
            "Reads IN (torch.save zip or legacy, .safetensors, .npy, a directory of .npy,\n"
            "or a sharded Hugging Face checkpoint: its *.index.json or its directory;\n"
            "detected from the content, zip checksums verified) and writes OUT in the\n"
            "format its extension names:\n"
            "  .pt .pth .bin   torch.save zip format: an OrderedDict of tensors that\n"
            "                  torch.load(OUT, weights_only=True) reads; shared storages\n"
            "                  (tied weights, views) stay shared\n"
            "  .safetensors    the safetensors format\n"
            "  .npy            NumPy, for exactly one tensor\n"
            "Values and dtypes are copied bit for bit. OUT is written to a temporary file\n"
            "and renamed, so a failed conversion leaves nothing behind. A dtype the output\n"
            "format lacks (bfloat16 in .npy, complex128 in .safetensors) or a tensor IN\n"
            "holds but irscope cannot load (float8, ...) is an error, never dropped.\n\n"
            "A torch.export archive (.pt2) converts to OUT.json, the IR pytorch-ir's\n"
            "extract_ir writes for the same program; --weights also writes the weights\n"
            "and constants inside it, in the format its extension names.\n\n"
            "With --shard-size, OUT_DIR gets a sharded checkpoint as huggingface_hub\n"
            "writes one: model-00001-of-0000N.safetensors ... and\n"
            "model.safetensors.index.json (one shard: model.safetensors, no index).\n\n"
            "Options:\n"
            "  --shard-size SIZE  largest shard, e.g. 5GB (10^9 bytes), 500MB, 2GiB\n"
            "  --pytorch-shards   .bin shards (pytorch_model-0000K-of-0000N.bin) instead\n"
            "  --weights FILE  with a .pt2 to OUT.json: also write its weights and constants\n"
            "  --select KEY    convert only the nested dict KEY of a checkpoint\n"
            "                  (e.g. state_dict), names relative to it\n"
            "  -q, --quiet     do not report the number of tensors written on stderr\n\n"
            "Exit status: 0 on success, 2 when IN cannot be read or OUT cannot be written\n"
            "(the reason on stderr).\n",
            runConvert}};

}  // namespace
}  // namespace irscope::cli

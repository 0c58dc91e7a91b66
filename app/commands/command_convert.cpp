// irscope convert: any readable tensor file to .pt, .safetensors or .npy.
#include <iostream>

#include "cli/arg_parser.h"
#include "core/io/tensor_convert.h"

namespace irscope::cli {
namespace {

int runConvert(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--quiet"}, {"--select"}, {{"-q", "--quiet"}}});
    requirePositional(parsed, 2, 2, "IN and OUT");
    io::ReadOptions options;
    options.select = parsed.value("--select").value_or("");
    const size_t n = io::convertTensorFile(parsed.positional[0], parsed.positional[1], options);
    if (!parsed.has("--quiet"))
        std::cerr << "wrote " << n << (n == 1 ? " tensor" : " tensors") << " to " << parsed.positional[1] << "\n";
    return kExitOk;
}

const CommandRegistration registration{
    Command{"convert", "convert tensor files between .pt, .safetensors and .npy, bit-exact",
            "Usage: irscope convert IN OUT [--select KEY] [-q]\n\n"
            "Reads IN (torch.save zip or legacy, .safetensors, .npy or a directory of .npy;\n"
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
            "Options:\n"
            "  --select KEY    convert only the nested dict KEY of a checkpoint\n"
            "                  (e.g. state_dict), names relative to it\n"
            "  -q, --quiet     do not report the number of tensors written on stderr\n\n"
            "Exit status: 0 on success, 2 when IN cannot be read or OUT cannot be written\n"
            "(the reason on stderr).\n",
            runConvert}};

}  // namespace
}  // namespace irscope::cli

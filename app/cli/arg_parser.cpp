#include "cli/arg_parser.h"

#include <charconv>
#include <cstdlib>

namespace irscope::cli {

std::optional<std::string> ParsedArgs::value(const std::string& option) const {
    auto it = values_.find(option);
    if (it == values_.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

std::vector<std::string> ParsedArgs::values(const std::string& option) const {
    auto it = values_.find(option);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::optional<long long> ParsedArgs::intValue(const std::string& option) const {
    auto text = value(option);
    if (!text) return std::nullopt;
    long long result = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), result);
    if (ec != std::errc() || end != text->data() + text->size())
        throw UsageError(option + " expects an integer, got '" + *text + "'");
    return result;
}

std::optional<double> ParsedArgs::doubleValue(const std::string& option) const {
    auto text = value(option);
    if (!text) return std::nullopt;
    char* end = nullptr;
    double result = std::strtod(text->c_str(), &end);
    if (text->empty() || end != text->c_str() + text->size())
        throw UsageError(option + " expects a number, got '" + *text + "'");
    return result;
}

ParsedArgs parseArgs(const std::vector<std::string>& args, const OptionSpec& spec) {
    ParsedArgs parsed;
    bool optionsEnded = false;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
            parsed.positional.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsEnded = true;
            continue;
        }
        std::optional<std::string> inlineValue;
        if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        if (auto alias = spec.aliases.find(arg); alias != spec.aliases.end()) arg = alias->second;
        if (spec.flags.count(arg)) {
            if (inlineValue) throw UsageError(arg + " takes no value");
            parsed.add(arg, "");
        } else if (spec.valued.count(arg)) {
            if (inlineValue) {
                parsed.add(arg, *inlineValue);
            } else {
                if (i + 1 >= args.size()) throw UsageError(arg + " needs a value");
                parsed.add(arg, args[++i]);
            }
        } else {
            throw UsageError("unknown option '" + arg + "'");
        }
    }
    return parsed;
}

void requirePositional(const ParsedArgs& parsed, size_t min, size_t max, const std::string& what) {
    size_t n = parsed.positional.size();
    if (n < min) throw UsageError("missing " + what);
    if (n > max) throw UsageError("unexpected argument '" + parsed.positional[max] + "'");
}

}  // namespace irscope::cli

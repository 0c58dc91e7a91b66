#pragma once
// A small, strict command-line parser shared by the subcommands: every option
// is declared, anything undeclared is a usage error (exit 2, one line).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/command.h"

namespace irscope::cli {

struct OptionSpec {
    std::set<std::string> flags;                 // e.g. {"--json", "--no-weights"}
    std::set<std::string> valued;                // e.g. {"--output", "--max-nodes"}
    std::map<std::string, std::string> aliases;  // e.g. {{"-o", "--output"}}
};

class ParsedArgs {
public:
    std::vector<std::string> positional;

    bool has(const std::string& option) const { return values_.count(option) != 0; }
    // Last occurrence wins, as with most Unix tools.
    std::optional<std::string> value(const std::string& option) const;
    std::vector<std::string> values(const std::string& option) const;
    // Parses an integer option; throws UsageError naming the option when malformed.
    std::optional<long long> intValue(const std::string& option) const;
    std::optional<double> doubleValue(const std::string& option) const;

    void add(const std::string& option, std::string value) { values_[option].push_back(std::move(value)); }

private:
    std::map<std::string, std::vector<std::string>> values_;
};

// Accepts "--opt value" and "--opt=value"; "--" ends option parsing.
ParsedArgs parseArgs(const std::vector<std::string>& args, const OptionSpec& spec);

// Throws UsageError unless positional.size() is within [min, max].
void requirePositional(const ParsedArgs& parsed, size_t min, size_t max, const std::string& what);

}  // namespace irscope::cli

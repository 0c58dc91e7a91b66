#include "core/ir/op_schema.h"

namespace irscope::ir {
namespace {

std::string_view trimSpaces(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// Walks `text` from `from`, calling `at(i, depth)` for every character
// outside quoted strings with the bracket depth after it; stops when `at`
// returns true. Defaults hold brackets ("int[2] stride=[1, 1]") and quoted
// strings ("str reduce=\"mean\""), whose commas and parentheses do not count.
template <class At>
void walkTopLevel(std::string_view text, size_t from, At at) {
    int depth = 0;
    char quote = 0;
    for (size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (quote) {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            continue;
        }
        depth += (c == '(' || c == '[') ? 1 : (c == ')' || c == ']') ? -1 : 0;
        if (at(i, depth)) return;
    }
}

// Splits an argument list at its top-level commas.
std::vector<std::string_view> splitArguments(std::string_view list) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    walkTopLevel(list, 0, [&](size_t i, int depth) {
        if (list[i] == ',' && depth == 0) {
            parts.push_back(trimSpaces(list.substr(start, i - start)));
            start = i + 1;
        }
        return false;
    });
    if (auto last = trimSpaces(list.substr(start)); !last.empty()) parts.push_back(last);
    return parts;
}

}  // namespace

SchemaArgKind schemaArgKindOf(std::string_view type) {
    if (type == "Tensor") return SchemaArgKind::Tensor;
    if (type == "Tensor?") return SchemaArgKind::OptionalTensor;
    if (type == "Tensor[]") return SchemaArgKind::TensorList;
    if (type == "Tensor?[]") return SchemaArgKind::OptionalTensorList;
    return SchemaArgKind::Other;
}

std::optional<OpSchema> parseOpSchema(std::string_view text) {
    const size_t open = text.find('(');
    const size_t colons = text.find("::");
    if (open == std::string_view::npos || colons == std::string_view::npos || colons > open) return std::nullopt;
    // The argument list ends at the parenthesis matching `open`.
    size_t close = std::string_view::npos;
    walkTopLevel(text, open, [&](size_t i, int depth) {
        if (text[i] == ')' && depth == 0) close = i;
        return close != std::string_view::npos;
    });
    if (close == std::string_view::npos) return std::nullopt;

    OpSchema schema;
    const std::string_view qualified = text.substr(0, open);
    const std::string_view ns = qualified.substr(0, colons);
    std::string_view name = qualified.substr(colons + 2);
    if (ns.empty() || name.empty()) return std::nullopt;
    schema.opType = std::string(ns) + "." + std::string(name);
    if (name.find('.') == std::string_view::npos) schema.opType += ".default";

    bool kwargOnly = false;
    for (std::string_view part : splitArguments(text.substr(open + 1, close - open - 1))) {
        if (part == "...") {
            schema.varargs = true;
            continue;
        }
        if (part == "*") {
            kwargOnly = true;
            continue;
        }
        SchemaArg arg;
        arg.kwargOnly = kwargOnly;
        if (const size_t eq = part.find('='); eq != std::string_view::npos) {
            arg.hasDefault = true;
            part = trimSpaces(part.substr(0, eq));
        }
        const size_t space = part.rfind(' ');
        if (space == std::string_view::npos) return std::nullopt;
        arg.name = std::string(trimSpaces(part.substr(space + 1)));
        std::string_view type = trimSpaces(part.substr(0, space));
        // "Tensor(a!)", "Tensor(a -> *)[]": the alias annotation says what the
        // op does with the memory, not what it takes.
        std::string plain;
        for (size_t i = 0; i < type.size(); ++i) {
            if (type[i] != '(') {
                plain += type[i];
                continue;
            }
            const size_t end = type.find(')', i);
            if (end == std::string_view::npos) return std::nullopt;
            arg.writes = arg.writes || type.substr(i, end - i).find('!') != std::string_view::npos;
            i = end;
        }
        arg.type = plain;
        arg.kind = schemaArgKindOf(plain);
        if (arg.name.empty() || arg.type.empty()) return std::nullopt;
        schema.args.push_back(std::move(arg));
    }
    return schema;
}

}  // namespace irscope::ir

#include "core/ir/size_expression.h"

#include <cctype>
#include <memory>
#include <utility>
#include <vector>

namespace irscope::ir {
namespace {

// Expr := atom | Name '(' Expr (',' Expr)* ')'
struct Node {
    std::string head;  // a function name, or the atom itself
    std::vector<Node> args;
    bool call = false;
};

class Parser {
public:
    explicit Parser(std::string_view text) : s_(text) {}
    std::optional<Node> parseAll() {
        auto n = parse();
        skipSpace();
        if (!n || i_ != s_.size()) return std::nullopt;
        return n;
    }

private:
    void skipSpace() {
        while (i_ < s_.size() && s_[i_] == ' ') ++i_;
    }
    // A size is a few levels deep; a file nesting thousands is not read as one
    // (and cannot run the reader out of stack).
    static constexpr int kMaxDepth = 64;

    std::optional<Node> parse(int depth = 0) {
        if (depth > kMaxDepth) return std::nullopt;
        skipSpace();
        const size_t start = i_;
        while (i_ < s_.size() &&
               (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '-' || s_[i_] == '.'))
            ++i_;
        if (i_ == start) return std::nullopt;
        Node n;
        n.head = std::string(s_.substr(start, i_ - start));
        skipSpace();
        if (i_ < s_.size() && s_[i_] == '(') {
            n.call = true;
            ++i_;
            for (;;) {
                auto arg = parse(depth + 1);
                if (!arg) return std::nullopt;
                n.args.push_back(std::move(*arg));
                skipSpace();
                if (i_ < s_.size() && s_[i_] == ',') {
                    ++i_;
                    continue;
                }
                if (i_ < s_.size() && s_[i_] == ')') {
                    ++i_;
                    break;
                }
                return std::nullopt;
            }
        }
        return n;
    }
    std::string_view s_;
    size_t i_ = 0;
};

bool isInteger(const std::string& t) {
    if (t.empty()) return false;
    size_t k = t[0] == '-' ? 1 : 0;
    if (k == t.size()) return false;
    for (; k < t.size(); ++k)
        if (!std::isdigit(static_cast<unsigned char>(t[k]))) return false;
    return true;
}

// Precedence, loosest first: 0 sum, 1 division or modulo, 2 product,
// 3 power, 4 atom (a name, a number, a call). Python gives *, // and % one
// level; a product's operands that divide are bracketed all the same, so
// that 2*(s0//2) never reads as (2*s0)//2.
std::string text(const Node& n, int& precedence) {
    precedence = 4;
    if (!n.call) return n.head;
    std::vector<std::string> parts;
    std::vector<int> precs;
    for (const auto& a : n.args) {
        int p = 0;
        parts.push_back(text(a, p));
        precs.push_back(p);
    }
    const auto wrap = [&](size_t k, int need) { return precs[k] < need ? "(" + parts[k] + ")" : parts[k]; };
    if (n.head == "Add") {
        precedence = 0;
        std::string out;
        for (size_t k = 0; k < parts.size(); ++k) {
            // Numbers last, as a user writes s - 1, not -1 + s (sympy puts them first).
            const size_t j = isInteger(parts[0]) ? (k + 1) % parts.size() : k;
            const std::string& p = parts[j];
            if (out.empty())
                out = p;
            else if (!p.empty() && p[0] == '-')
                out += " - " + p.substr(1);
            else
                out += " + " + p;
        }
        return out;
    }
    if (n.head == "Mul") {
        precedence = 2;
        std::string out;
        for (size_t k = 0; k < parts.size(); ++k) {
            if (k == 0 && parts[k] == "-1" && parts.size() > 1) {
                out = "-";
                continue;
            }
            out += (out.empty() || out == "-" ? "" : "*") + wrap(k, 2);
        }
        return out;
    }
    if ((n.head == "FloorDiv" || n.head == "Mod" || n.head == "CleanDiv" || n.head == "PythonMod" ||
         n.head == "FloatTrueDiv" || n.head == "IntTrueDiv") &&
        parts.size() == 2) {
        precedence = 1;
        const char* op = n.head == "Mod" || n.head == "PythonMod"      ? " % "
                         : n.head.find("TrueDiv") != std::string::npos ? "/"
                                                                       : "//";
        return wrap(0, 2) + op + wrap(1, 4);
    }
    if ((n.head == "Pow" || n.head == "FloatPow" || n.head == "PowByNatural") && parts.size() == 2) {
        precedence = 3;
        return wrap(0, 4) + "**" + wrap(1, 4);
    }
    // Comparisons, as sympy names them (GreaterThan is >=, StrictGreaterThan >).
    static const std::pair<const char*, const char*> kRelations[] = {
        {"GreaterThan", " >= "}, {"StrictGreaterThan", " > "},
        {"LessThan", " <= "},    {"StrictLessThan", " < "},
        {"Eq", " == "},          {"Ne", " != "}};
    for (const auto& [head, op] : kRelations)
        if (n.head == head && parts.size() == 2) {
            precedence = -1;
            return parts[0] + op + parts[1];
        }
    if (n.head == "ToFloat" && parts.size() == 1) return "float(" + parts[0] + ")";
    if ((n.head == "TruncToInt" || n.head == "Trunc") && parts.size() == 1) return "int(" + parts[0] + ")";
    std::string out = n.head + "(";
    for (size_t k = 0; k < parts.size(); ++k) out += (k ? ", " : "") + parts[k];
    return out + ")";
}

// Drops sympy's wrappers: Symbol('s27', positive=True, integer=True) -> s27,
// Integer(2) -> 2, Float('-0.5', precision=53) -> -0.5.
std::string withoutWrappers(std::string_view expr) {
    std::string out;
    for (size_t i = 0; i < expr.size();) {
        const bool symbol = expr.compare(i, 8, "Symbol('") == 0;
        const bool real =
            expr.compare(i, 7, "Float('") == 0 && (i == 0 || !std::isalnum(static_cast<unsigned char>(expr[i - 1])));
        if (symbol || real) {
            const size_t from = i + (symbol ? 8 : 7);
            const size_t end = expr.find('\'', from);
            const size_t close = end == std::string_view::npos ? end : expr.find(')', end);
            if (close == std::string_view::npos) return std::string(expr);
            out += expr.substr(from, end - from);
            i = close + 1;
        } else if (expr.compare(i, 8, "Integer(") == 0 &&
                   (i == 0 || !std::isalnum(static_cast<unsigned char>(expr[i - 1])))) {
            const size_t close = expr.find(')', i);
            if (close == std::string_view::npos) return std::string(expr);
            out += expr.substr(i + 8, close - i - 8);
            i = close + 1;
        } else {
            out += expr[i++];
        }
    }
    return out;
}

}  // namespace

std::string readableSizeExpression(std::string_view srepr) {
    const std::string stripped = withoutWrappers(srepr);
    auto tree = Parser(stripped).parseAll();
    if (!tree) return stripped;
    int precedence = 0;
    return text(*tree, precedence);
}

std::optional<AffineSize> affineSize(std::string_view readable) {
    // Terms separated by " + " / " - "; each a number, a symbol, or k*symbol.
    AffineSize a;
    a.coefficient = 0;
    std::string s(readable);
    size_t i = 0;
    int sign = 1;
    while (i < s.size()) {
        size_t end = i;
        while (end < s.size() && !(s[end] == ' ' && end + 2 < s.size() && (s[end + 1] == '+' || s[end + 1] == '-')))
            ++end;
        std::string term = s.substr(i, end - i);
        if (!term.empty() && term[0] == '-') {
            sign = -sign;
            term.erase(0, 1);
        }
        if (isInteger(term)) {
            a.offset += sign * std::stoll(term);
        } else {
            int64_t k = 1;
            std::string symbol = term;
            if (const size_t star = term.find('*'); star != std::string::npos) {
                if (!isInteger(term.substr(0, star))) return std::nullopt;
                k = std::stoll(term.substr(0, star));
                symbol = term.substr(star + 1);
            }
            if (symbol.empty() || !std::isalpha(static_cast<unsigned char>(symbol[0]))) return std::nullopt;
            for (char c : symbol)
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
            if (!a.symbol.empty() && a.symbol != symbol) return std::nullopt;
            a.symbol = symbol;
            a.coefficient += sign * k;
        }
        if (end >= s.size()) break;
        sign = s[end + 1] == '-' ? -1 : 1;
        i = end + 3;
    }
    if (a.symbol.empty() || a.coefficient == 0) return std::nullopt;
    return a;
}

}  // namespace irscope::ir

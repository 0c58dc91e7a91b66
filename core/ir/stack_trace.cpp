// Parsing Python tracebacks as torch.export records them (stack_trace.h).
#include "core/ir/stack_trace.h"

#include <charconv>

namespace irscope::ir {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// `File "PATH", line N, in FUNC` -> a frame; nullopt for any other line.
std::optional<StackFrame> frameLine(std::string_view s) {
    s = trim(s);
    constexpr std::string_view head = "File \"";
    if (s.substr(0, head.size()) != head) return std::nullopt;
    s.remove_prefix(head.size());
    const auto quote = s.find("\", line ");
    if (quote == std::string_view::npos) return std::nullopt;
    StackFrame f;
    f.file = std::string(s.substr(0, quote));
    s.remove_prefix(quote + 8);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), f.line);
    if (ec != std::errc()) return std::nullopt;
    s.remove_prefix(static_cast<size_t>(end - s.data()));
    if (s.substr(0, 5) == ", in ") f.function = std::string(trim(s.substr(5)));
    return f;
}

}  // namespace

std::vector<StackFrame> parseStackTrace(std::string_view trace) {
    std::vector<StackFrame> frames;
    size_t at = 0;
    while (at <= trace.size()) {
        const size_t end = std::min(trace.find('\n', at), trace.size());
        const std::string_view line = trace.substr(at, end - at);
        if (auto f = frameLine(line))
            frames.push_back(std::move(*f));
        else if (!frames.empty() && frames.back().code.empty() && !trim(line).empty())
            frames.back().code = std::string(trim(line));
        at = end + 1;
    }
    return frames;
}

std::optional<StackFrame> userFrame(std::string_view trace) {
    const auto frames = parseStackTrace(trace);
    if (frames.empty()) return std::nullopt;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
        if (it->file.find("/torch/") == std::string::npos) return *it;
    return frames.back();
}

}  // namespace irscope::ir

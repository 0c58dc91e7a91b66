// The single-instance socket's message parser over arbitrary bytes, fed in
// pieces of every size the input's first byte picks: it either refuses, waits
// for more, or yields absolute, UTF-8, control-free paths, at most
// kMaxFiles of them, never an empty list.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "widgets/main_window/handoff_message.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using irscope::widgets::HandoffMessage;
    if (size == 0) return 0;
    const size_t piece = 1 + data[0] % 64;
    std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    HandoffMessage m;
    while (!bytes.empty()) {
        const size_t n = bytes.size() < piece ? bytes.size() : piece;
        m.feed(bytes.substr(0, n));
        bytes.remove_prefix(n);
    }
    if (m.state() == HandoffMessage::State::Complete) {
        if (m.files().empty() || m.files().size() > HandoffMessage::kMaxFiles) __builtin_trap();
        for (const auto& f : m.files()) {
            if (f.empty() || f.front() != '/' || !irscope::widgets::isValidUtf8(f)) __builtin_trap();
            for (const char c : f)
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) __builtin_trap();
        }
    }
    if (m.state() == HandoffMessage::State::Refused && m.reason().empty()) __builtin_trap();
    return 0;
}

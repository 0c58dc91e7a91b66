#pragma once
// HandoffMessage: what a second `irscope FILE` may say to the window already
// open (SingleInstance), read as untrusted bytes. The socket is the user's
// own, but any process of theirs can write to it, so the window takes only a
// well-formed list of files and refuses everything else before it touches a
// document: no file named, a path that is not absolute, bytes that are not
// UTF-8 text, control characters, too many or too long lines, a message that
// never ends. Plain C++ (no Qt) so a libFuzzer target can drive it
// (fuzz/fuzz_handoff_message.cpp).
//
// The format: absolute paths, one per line ('\n'), then an empty line.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::widgets {

class HandoffMessage {
public:
    static constexpr size_t kMaxBytes = 64 * 1024;  // a few hundred long paths
    static constexpr size_t kMaxFiles = 256;
    static constexpr size_t kMaxPathBytes = 4096;  // PATH_MAX

    enum class State { Incomplete, Complete, Refused };

    // Takes the next bytes read from the socket. Once Complete or Refused,
    // later bytes are ignored (the server answers and closes).
    State feed(std::string_view bytes);
    State state() const { return state_; }
    // The files, once Complete.
    const std::vector<std::string>& files() const { return files_; }
    // Why it was refused ("line 2 is not an absolute path"), once Refused.
    const std::string& reason() const { return reason_; }

private:
    State refuse(std::string reason);
    State takeLine(std::string_view line);

    State state_ = State::Incomplete;
    std::string pending_;  // bytes of the line not ended yet
    size_t received_ = 0;
    std::vector<std::string> files_;
    std::string reason_;
};

// Whether `text` is well-formed UTF-8 (no overlong forms, no surrogates).
bool isValidUtf8(std::string_view text);

}  // namespace irscope::widgets

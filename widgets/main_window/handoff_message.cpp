#include "widgets/main_window/handoff_message.h"

namespace irscope::widgets {

bool isValidUtf8(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t n;
        unsigned min;
        unsigned cp;
        if ((c & 0xE0) == 0xC0) {
            n = 1, min = 0x80, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2, min = 0x800, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3, min = 0x10000, cp = c & 0x07;
        } else {
            return false;
        }
        if (i + n >= text.size()) return false;  // the sequence is cut short
        for (size_t k = 1; k <= n; ++k) {
            const auto d = static_cast<unsigned char>(text[i + k]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n + 1;
    }
    return true;
}

HandoffMessage::State HandoffMessage::refuse(std::string reason) {
    state_ = State::Refused;
    reason_ = std::move(reason);
    files_.clear();
    pending_.clear();
    return state_;
}

HandoffMessage::State HandoffMessage::feed(std::string_view bytes) {
    if (state_ != State::Incomplete) return state_;
    received_ += bytes.size();
    if (received_ > kMaxBytes) return refuse("the message is longer than " + std::to_string(kMaxBytes / 1024) + " KiB");
    while (!bytes.empty() && state_ == State::Incomplete) {
        const size_t end = bytes.find('\n');
        if (end == std::string_view::npos) {
            pending_.append(bytes);
            if (pending_.size() > kMaxPathBytes)
                return refuse("line " + std::to_string(files_.size() + 1) + " is longer than " +
                              std::to_string(kMaxPathBytes) + " bytes");
            return state_;
        }
        pending_.append(bytes.substr(0, end));
        bytes.remove_prefix(end + 1);
        std::string line = std::move(pending_);
        pending_.clear();
        takeLine(line);
    }
    // Bytes after the empty line: not a list of files.
    if (state_ == State::Complete && !bytes.empty()) return refuse("bytes follow the end of the message");
    return state_;
}

HandoffMessage::State HandoffMessage::takeLine(std::string_view line) {
    const std::string where = "line " + std::to_string(files_.size() + 1);
    if (line.empty()) {
        if (files_.empty()) return refuse("the message names no file");
        return state_ = State::Complete;
    }
    if (line.size() > kMaxPathBytes)
        return refuse(where + " is longer than " + std::to_string(kMaxPathBytes) + " bytes");
    if (files_.size() == kMaxFiles) return refuse("more than " + std::to_string(kMaxFiles) + " files");
    if (!isValidUtf8(line)) return refuse(where + " is not UTF-8 text");
    for (const char c : line)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return refuse(where + " holds a control character");
    if (line.front() != '/') return refuse(where + " is not an absolute path");
    files_.emplace_back(line);
    return state_;
}

}  // namespace irscope::widgets

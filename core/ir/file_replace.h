#pragma once
// Writing a whole file so that the old one stays whole until the new one is:
// the bytes go to a temporary file next to it, which is then renamed over
// it. A failed or interrupted write never leaves a user's file half written.
#include <string>
#include <string_view>

namespace irscope::ir {

// Throws std::runtime_error naming the path and the reason.
void replaceFileContents(const std::string& path, std::string_view bytes);

}  // namespace irscope::ir

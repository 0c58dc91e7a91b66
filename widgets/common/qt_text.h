#pragma once
// std::string / core values as the Qt text panels show them, in one place.
#include <QString>

#include <string>
#include <vector>

#include "core/ir/tensor_meta.h"

namespace irscope::widgets {

inline QString q(const std::string& text) { return QString::fromStdString(text); }

// "[1, 4]", as Python prints a shape (and as `irscope info` does).
inline QString shapeText(const std::vector<int64_t>& shape) { return q(ir::shapeToList(shape)); }
inline QString shapeText(const ir::Shape& shape) { return q(ir::shapeToList(shape)); }

}  // namespace irscope::widgets

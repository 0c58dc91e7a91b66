#include "widgets/common/name_pattern.h"

namespace irscope::widgets {

NamePattern::NamePattern(const QString& text) : text_(text.trimmed()) {
    if (text_.size() >= 2 && text_.startsWith(QLatin1Char('/')) && text_.endsWith(QLatin1Char('/'))) {
        regex_ = true;
        re_ = QRegularExpression(text_.mid(1, text_.size() - 2), QRegularExpression::CaseInsensitiveOption);
        if (!re_.isValid()) error_ = re_.errorString();
    }
}

bool NamePattern::matches(const QString& name) const {
    if (text_.isEmpty()) return true;
    if (!regex_) return name.contains(text_, Qt::CaseInsensitive);
    return re_.isValid() && re_.match(name).hasMatch();
}

}  // namespace irscope::widgets

#pragma once
// NamePattern: what a dock's filter box means, the same in every dock that has
// one (Modules, Weights): plain text matches names that contain it, in any
// case; text between slashes ("/layers\.[0-9]+\.mlp/") is a regular
// expression, searched in the name, also case-insensitively. An invalid
// expression matches nothing and says why (the box shows it in red).
#include <QRegularExpression>
#include <QString>

namespace irscope::widgets {

class NamePattern {
public:
    NamePattern() = default;
    explicit NamePattern(const QString& text);

    bool isEmpty() const { return text_.isEmpty(); }
    bool isValid() const { return error_.isEmpty(); }
    QString error() const { return error_; }  // the expression's fault, "" when valid
    bool matches(const QString& name) const;

private:
    QString text_;
    bool regex_ = false;
    QRegularExpression re_;
    QString error_;
};

}  // namespace irscope::widgets

#pragma once
// Column widths, sort order and splitter positions of every panel, kept
// between launches, as Qt Creator and Visual Studio keep them: a user who
// widened the Weights dock's name column or sorted the Differences by error
// finds it so the next time. Keyed by the objectName each panel gives its
// views and splitters (stable names, checked by widgets.main_window), so the
// window saves them all without knowing any panel.
class QSettings;
class QWidget;

namespace irscope::widgets {

// Writes the state of every named item view's header and every named
// splitter under `root`.
void saveViewStates(const QWidget& root, QSettings& settings);
// Puts back what saveViewStates wrote; a view whose columns were restored is
// marked (userColumns) so that panels stop fitting its columns to contents.
void restoreViewStates(QWidget& root, const QSettings& settings);
// Whether `view`'s columns are the user's (restored, or resized by hand since).
bool userColumns(const QWidget& view);

}  // namespace irscope::widgets

#pragma once
// Where a file dialog starts. QFileDialog's default is the process's working
// directory, so every dialog opened somewhere else and the user walked to
// the model's folder again each time. Now each kind of file remembers the
// folder it was last picked from (QSettings, "dialogs/<kind>"), and a kind
// never used starts beside the model that is open (Qt Creator and RenderDoc
// do the same).
#include <QString>

namespace irscope::widgets {

enum class DialogKind { Ir, Weights, Constants, Inputs, Reference, NodeData, Export, Tensor };

// The folder to start in; `fileName` (optional) is appended to suggest a name.
QString dialogStart(DialogKind kind, const QString& modelPath, const QString& fileName = {});
// Remembers the folder of `chosen` (a file, or a folder for a folder dialog); nothing when empty.
void rememberDialogFolder(DialogKind kind, const QString& chosen);

}  // namespace irscope::widgets

#include "widgets/common/dialog_folders.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace irscope::widgets {

namespace {

QString key(DialogKind kind) {
    switch (kind) {
    case DialogKind::Ir: return QStringLiteral("dialogs/ir");
    case DialogKind::Weights: return QStringLiteral("dialogs/weights");
    case DialogKind::Constants: return QStringLiteral("dialogs/constants");
    case DialogKind::Inputs: return QStringLiteral("dialogs/inputs");
    case DialogKind::Reference: return QStringLiteral("dialogs/reference");
    case DialogKind::NodeData: return QStringLiteral("dialogs/node_data");
    case DialogKind::Export: return QStringLiteral("dialogs/export");
    case DialogKind::Tensor: return QStringLiteral("dialogs/tensor");
    }
    return QStringLiteral("dialogs/other");
}

}  // namespace

QString dialogStart(DialogKind kind, const QString& modelPath, const QString& fileName) {
    QString folder = QSettings().value(key(kind)).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = modelPath.isEmpty() ? QString() : QFileInfo(modelPath).absolutePath();
    if (fileName.isEmpty()) return folder;
    return folder.isEmpty() ? fileName : QDir(folder).filePath(fileName);
}

void rememberDialogFolder(DialogKind kind, const QString& chosen) {
    if (chosen.isEmpty()) return;
    const QFileInfo info(chosen);
    QSettings().setValue(key(kind), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

}  // namespace irscope::widgets

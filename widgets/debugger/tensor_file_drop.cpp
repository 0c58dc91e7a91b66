#include "widgets/debugger/tensor_file_drop.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>

#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"

namespace irscope::widgets {

bool TensorFileDrop::isTensorSource(const QString& path) {
    const QFileInfo info(path);
    if (info.isDir())
        return !QDir(path)
                    .entryList({QStringLiteral("*.index.json"), QStringLiteral("*.safetensors")}, QDir::Files)
                    .isEmpty();
    const QString s = info.suffix().toLower();
    return s == QLatin1String("pt") || s == QLatin1String("pth") || s == QLatin1String("bin") ||
           s == QLatin1String("safetensors") || s == QLatin1String("npy") ||
           info.fileName().toLower().endsWith(QLatin1String(".index.json"));
}

TensorFileDrop::TensorFileDrop(DebugController* c, QObject* parent) : QObject(parent), c_(c) {}

bool TensorFileDrop::eventFilter(QObject*, QEvent* e) {
    if (e->type() != QEvent::DragEnter && e->type() != QEvent::Drop) return false;
    auto* de = static_cast<QDropEvent*>(e);
    if (!de->mimeData()->hasUrls()) return false;
    QStringList tensors;
    for (const QUrl& u : de->mimeData()->urls())
        if (u.isLocalFile() && isTensorSource(u.toLocalFile())) tensors << u.toLocalFile();
    if (tensors.isEmpty()) return false;
    if (e->type() == QEvent::DragEnter) {
        static_cast<QDragEnterEvent*>(e)->acceptProposedAction();
        return true;
    }
    for (const QString& f : tensors) c_->values()->load(kindOf(f), f);
    de->acceptProposedAction();
    return true;
}

exec::ValueFile TensorFileDrop::kindOf(const QString& path) {
    const QString n = QFileInfo(path).fileName().toLower();
    if (QFileInfo(path).isDir() || n.endsWith(QLatin1String(".index.json"))) return exec::ValueFile::Weights;
    if (n.contains(QLatin1String("const"))) return exec::ValueFile::Constants;
    if (n.contains(QLatin1String("input"))) return exec::ValueFile::Inputs;
    if (n.contains(QLatin1String("expected"))) return exec::ValueFile::Expected;
    if (n.contains(QLatin1String("intermediate"))) return exec::ValueFile::ReferenceIntermediates;
    return exec::ValueFile::Weights;
}

}  // namespace irscope::widgets

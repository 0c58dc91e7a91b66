#include "widgets/debugger/tensor_file_drop.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>

#include "widgets/session/debug_controller.h"

namespace irscope::widgets {

namespace {

bool isTensorFile(const QString& path) {
    const QString s = QFileInfo(path).suffix().toLower();
    return s == QLatin1String("pt") || s == QLatin1String("pth") || s == QLatin1String("bin") ||
           s == QLatin1String("safetensors") || s == QLatin1String("npy");
}

}  // namespace

TensorFileDrop::TensorFileDrop(DebugController* c, QObject* parent) : QObject(parent), c_(c) {}

bool TensorFileDrop::eventFilter(QObject*, QEvent* e) {
    if (e->type() != QEvent::DragEnter && e->type() != QEvent::Drop) return false;
    auto* de = static_cast<QDropEvent*>(e);
    if (!de->mimeData()->hasUrls()) return false;
    QStringList tensors;
    for (const QUrl& u : de->mimeData()->urls())
        if (u.isLocalFile() && isTensorFile(u.toLocalFile())) tensors << u.toLocalFile();
    if (tensors.isEmpty()) return false;
    if (e->type() == QEvent::DragEnter) {
        static_cast<QDragEnterEvent*>(e)->acceptProposedAction();
        return true;
    }
    for (const QString& f : tensors) c_->load(kindOf(f), f);
    de->acceptProposedAction();
    return true;
}

exec::ValueFile TensorFileDrop::kindOf(const QString& path) {
    const QString n = QFileInfo(path).fileName().toLower();
    if (n.contains(QLatin1String("const"))) return exec::ValueFile::Constants;
    if (n.contains(QLatin1String("input"))) return exec::ValueFile::Inputs;
    if (n.contains(QLatin1String("expected"))) return exec::ValueFile::Expected;
    if (n.contains(QLatin1String("intermediate"))) return exec::ValueFile::ReferenceIntermediates;
    return exec::ValueFile::Weights;
}

}  // namespace irscope::widgets

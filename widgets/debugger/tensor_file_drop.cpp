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
    for (const QString& f : tensors) load(f);
    de->acceptProposedAction();
    return true;
}

void TensorFileDrop::load(const QString& f) {
    const QString n = QFileInfo(f).fileName().toLower();
    if (n.contains(QLatin1String("const"))) c_->loadConstants(f);
    else if (n.contains(QLatin1String("input"))) c_->loadInputs(f);
    else if (n.contains(QLatin1String("expected"))) c_->loadExpected(f);
    else if (n.contains(QLatin1String("intermediate"))) c_->loadReferenceIntermediates(f);
    else c_->loadWeights(f);
}

}  // namespace irscope::widgets

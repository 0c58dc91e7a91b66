#pragma once
// The named events of the shared session a panel may handle, in the spirit
// of RenderDoc's ICaptureViewer (OnCaptureLoaded, OnSelectedEventChanged,
// OnEventChanged): a panel that implements PanelEvents is told of them by
// the window that installs it (MainWindow::installPanels), so it need not
// find the session's signals itself, and what "a document was opened"
// means (a reload of the same model or another one) is decided once, by the
// session, for every panel. Signals particular to a panel (the layout
// changed, decorations, the controller's value tables) stay its own.
#include <QtGlobal>

namespace irscope::widgets {

struct ItemRef;

class PanelEvents {
public:
    virtual ~PanelEvents() = default;
    // A document is in place. `sameModel`: it replaced the same model (the
    // same file again, a new export of it), so what the user set up for it
    // (filters, queries, entries) applies still; false for another model.
    virtual void documentOpened(bool sameModel) { (void)sameModel; }
    // The selection changed (a node, a tensor, a module, or nothing).
    virtual void selectionChanged(const ItemRef& ref) { (void)ref; }
    // Where the run stands: the next node to run moved (a step, a run, a
    // reset); -1 when there is none.
    virtual void runCursorChanged(qint64 node) { (void)node; }
};

}  // namespace irscope::widgets

#pragma once
// GraphSession: the one object every panel observes (RenderDoc's
// CaptureContext idea). It owns the loaded document and how it is drawn
// (its layout, the modules open or closed, weights shown or not), and two
// parts with signals of their own: what the user picked and where the run
// stands (selectionModel(): graph_selection.h) and what is drawn on the
// graph beyond its shape (decorations(): graph_decorations.h). Panels call
// its methods and listen to its signals; they never talk to each other.
//
// Loading (parse + index + validate + layout) and re-layout run on the
// session's TaskQueue (a low-priority worker lane); progress and results come
// back as continuations. A newer request supersedes an older one of its kind
// (its result is dropped).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include "core/exec/debugger/subgraph_frames.h"
#include "widgets/session/diff_marks.h"
#include "widgets/session/item_ref.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/node_decoration.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

// Bits of GraphSession::itemFlags().
enum ItemFlag : uint8_t {
    kFlagSelected = 1,
    kFlagProducer = 2,     // feeds the selection
    kFlagConsumer = 4,     // reads the selection
    kFlagHighlighted = 8,  // search hit / picked op type
    kFlagRunCursor = 16,   // the run cursor: the next node to run
    kFlagMarked = 32,      // marked for "Extract the marked nodes" (Shift+click, Shift+drag)
};
// Bits of GraphSession::edgeFlags().
enum EdgeFlag : uint8_t { kEdgeIntoSelection = 1, kEdgeOutOfSelection = 2 };

class GraphDecorations;
class GraphSelection;

class GraphSession : public QObject {
    Q_OBJECT
public:
    explicit GraphSession(QObject* parent = nullptr);
    ~GraphSession() override;

    // ---- document
    void openFile(const QString& path);  // asynchronous: loadStarted ... graphLoaded or loadFailed
    void reload();
    void cancelLoad();
    bool isLoading() const { return loading_; }
    bool hasDocument() const { return doc_ != nullptr; }
    QString filePath() const { return doc_ ? doc_->path : QString(); }
    const LoadedDocument* document() const { return doc_.get(); }
    std::shared_ptr<const LoadedDocument> documentPtr() const { return doc_; }
    const DocumentLayout* layout() const { return layout_.get(); }
    std::shared_ptr<const DocumentLayout> layoutPtr() const { return layout_; }
    // Installs an already built document (tests, benchmarks): synchronous.
    // With a drawing the document is shown grouped by module (layout must be its composition).
    void setDocument(std::shared_ptr<LoadedDocument> doc, std::shared_ptr<DocumentLayout> layout,
                     std::shared_ptr<modules::ModuleDrawing> drawing = nullptr);

    // Work an observer needs done for each document before it is shown (the
    // debugger's execution plan of a 100,000-node graph), run on the load
    // worker beside parsing and layout; its result is taken once, in the
    // observer's graphLoaded handler. Documents installed by setDocument
    // have none.
    using Preparation = std::function<std::shared_ptr<void>(const std::shared_ptr<const LoadedDocument>&)>;
    void setPreparation(Preparation prepare);
    std::shared_ptr<void> takePrepared();

    // File ▸ Close: no document (an open still loading is cancelled);
    // graphLoaded tells every observer, which then shows nothing.
    void closeDocument();

    bool showWeights() const { return showWeights_; }
    void setShowWeights(bool show);  // re-lays out on a worker, then layoutChanged

    // ---- modules (the collapsed drawing; expansion is this session's view state)
    // Grouped by module (the default) or every op flat (today's drawing).
    bool groupByModule() const { return groupByModule_; }
    void setGroupByModule(bool grouped);  // re-lays out on a worker, then layoutChanged
    const modules::ModuleTree* moduleTree() const { return doc_ ? doc_->modules.get() : nullptr; }
    const std::vector<std::string>* moduleKinds() const { return drawing_ ? &drawing_->kinds() : nullptr; }
    bool isModuleExpanded(int64_t module) const;
    // Single toggles lay out on the UI thread (one module's contents: milliseconds).
    void setModuleExpanded(int64_t module, bool expanded);
    void toggleModule(int64_t module) { setModuleExpanded(module, !isModuleExpanded(module)); }
    // A higher-order op (cond, while_loop, an autocast region) drawn open, as a
    // frame around its subgraphs, or as its op box; false for other nodes.
    bool hasRegion(int64_t node) const;
    bool isRegionOpen(int64_t node) const;
    void setRegionOpen(int64_t node, bool open);
    // Bulk changes re-lay out on a worker. depth < 0: the first view's depth.
    void expandModulesToDepth(int depth);
    void expandAllModules();
    // The innermost module of a node, or of a module ref's own module; -1 if none.
    int64_t moduleOf(const ItemRef& ref) const;
    // The closed box that hides a node (its outermost closed module), -1 when the node is drawn.
    int64_t closedModuleOf(int64_t node) const;
    // The innermost module around a node that is drawn as a box or frame (not a
    // one-op module, not a ModuleList); 0 (the model) when none.
    int64_t enclosingModuleOf(int64_t node) const;
    // The innermost module a node runs in as the Call Stack lists it (every
    // module but a ModuleList, which holds modules and runs nothing itself);
    // 0 (the model) when none. Step Out finishes this frame.
    int64_t frameModuleOf(int64_t node) const;

    // What the user picked, the run cursor, marks, highlights and the flags
    // the view draws from them (graph_selection.h).
    GraphSelection* selectionModel() const { return selection_; }

    // What is drawn on the graph beyond its shape: run states, overlays,
    // the legend, marks of a comparison (graph_decorations.h).
    GraphDecorations* decorations() const { return decorations_; }

    QString displayName(const ItemRef& ref) const;

    // Valid from graphLoaded on: the document it replaced was the same model
    // (the same file again, a new export of it), so what the user set up for it
    // applies still; false for another model and for the first document.
    bool sameModelAsBefore() const { return sameModelAsBefore_; }

signals:
    void loadStarted(const QString& path);
    void loadProgress(int percent, const QString& stage);
    void loadFailed(const QString& path, const QString& message);
    void loadCancelled(const QString& path);
    void graphLoaded();    // a new document (and its layout) is in place
    void layoutChanged();  // the layout was replaced (weights toggled, modules opened or closed)
    // A module is about to open or close (from the view, the Modules dock or a
    // key), the layout still the old one: views note where its box is on screen.
    void moduleToggling(int64_t module);
    void groupByModuleChanged(bool grouped);
    void layoutBusy(bool busy);
    void showWeightsChanged(bool show);

public:
    // ---- for the session's parts (selection, decorations): the module
    // drawing (nullptr when drawn flat), changed in place, then laid out
    // again now (a reveal, an expansion).
    modules::ModuleDrawing* drawing() const { return drawing_.get(); }
    void relayoutModulesNow();

private:
    bool sameModelAsBefore_ = false;
    // `before`: the document shown when the open began, which the new one is
    // compared with (ir::isSameModel) on the worker.
    TaskQueue::Continuation loadInBackground(const TaskQueue::Context& ctx, const QString& path, bool weights,
                                             bool grouped, const Preparation& prepare,
                                             const std::shared_ptr<const LoadedDocument>& before);
    // Installs `doc`; `sameModel` is its verdict against the document shown now.
    void install(std::shared_ptr<LoadedDocument> doc, std::shared_ptr<DocumentLayout> layout,
                 std::shared_ptr<modules::ModuleDrawing> drawing, bool sameModel);
    void installLayout(std::shared_ptr<DocumentLayout> layout);
    // Lays the current document out on a worker as `configure` sets up a fresh drawing.
    void relayoutInBackground(std::function<void(modules::ModuleDrawing&)> configure);

    std::shared_ptr<LoadedDocument> doc_;
    std::shared_ptr<DocumentLayout> layout_;
    bool showWeights_ = true;
    bool groupByModule_ = true;
    std::shared_ptr<modules::ModuleDrawing> drawing_;  // with groupByModule_: the document's drawing (UI thread)
    Preparation preparation_;
    std::shared_ptr<void> prepared_;  // the document being installed's, until taken
    bool loading_ = false;
    TaskQueue* lane_;  // loads and relayouts

    GraphSelection* selection_;
    GraphDecorations* decorations_;
};

}  // namespace irscope::widgets

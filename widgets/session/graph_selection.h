#pragma once
// GraphSelection: what the user picked and where the run stands, one part of
// the session every panel observes (GraphSession holds it: selectionModel(),
// as a Qt view holds its QItemSelectionModel).
// The selection (a node, tensor, weight, module, or nothing), the run cursor
// (the next node to run; a different thing, named apart), the nodes marked
// for an extract, the highlight (search hits, an op type), the subgraph
// frame the run is in, and the per-item and per-edge flags the view draws
// from all of them. Selecting something hidden in a closed module opens the
// way to it.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>

#include "core/exec/debugger/subgraph_frames.h"
#include "widgets/session/item_ref.h"

namespace irscope::widgets {

class GraphSession;

class GraphSelection : public QObject {
    Q_OBJECT
public:
    explicit GraphSelection(GraphSession& session);

    ItemRef selection() const { return selection_; }
    // focus: ask views to bring it into view (search, clicks in panels).
    void select(const ItemRef& ref, bool focus = false);
    void clearSelection() { select({}); }
    // A node, input or weight by name, or a node inside subgraphs by its
    // position (ir/execution_position.h).
    bool selectNodeByName(const QString& name, bool focus = true);
    int64_t runCursor() const { return runCursor_; }
    void setRunCursor(int64_t node);
    // Walk along the data flow from the selection; false when there is nowhere to go.
    bool walkToProducer();
    bool walkToConsumer();

    // ---- marked nodes: a set apart from the selection (Shift+click toggles
    // one, Shift+drag adds a rectangle's), for "Extract the marked nodes".
    void setMarked(std::vector<int64_t> nodes);
    void toggleMarked(int64_t node);
    const std::vector<int64_t>& markedNodes() const { return marked_; }

    // ---- highlight (search hits, an op type)
    void setHighlight(std::vector<ItemRef> refs);
    const std::vector<ItemRef>& highlight() const { return highlight_; }
    // Every ref whose name, op type, tensor name or weight name contains `text` (case-insensitive).
    std::vector<ItemRef> find(const QString& text) const;
    std::vector<ItemRef> nodesOfOpType(const QString& opType) const;

    // ---- what the view draws per item / edge (indexed like layout()->result)
    const std::vector<uint8_t>& itemFlags() const { return itemFlags_; }
    const std::vector<uint8_t>& edgeFlags() const { return edgeFlags_; }

    // ---- inside higher-order ops (the debugger fills these): where the run
    // stands in a cond's branch or a loop's body, at any depth (the frames,
    // outermost first), how often each subgraph ran so far (by path), and
    // the breakpoints on subgraph nodes. A move of the frames is announced
    // as runCursorChanged (the run cursor is then the program's op the
    // outermost frame is in).
    void setSubgraphFrames(std::vector<exec::SubgraphFrame> frames, std::map<std::string, int64_t> callCounts);
    const std::vector<exec::SubgraphFrame>& subgraphFrames() const { return frames_; }
    const std::map<std::string, int64_t>& subgraphCallCounts() const { return callCounts_; }
    void setSubgraphBreakpoints(std::vector<exec::SubgraphBreakpoint> breakpoints);
    bool hasSubgraphBreakpoint(const std::string& subgraph, int64_t inner) const;

signals:
    void selectionChanged(const irscope::widgets::ItemRef& ref);
    // Views should bring `ref` into view (search, clicks in panels).
    void focusRequested(const irscope::widgets::ItemRef& ref);
    // Where the run stands: the next node to run moved; -1 when none.
    void runCursorChanged(qint64 node);
    void highlightChanged();
    void markedChanged();

public:
    // ---- what the session tells its selection
    // A new document: nothing selected, marked or highlighted (then announced).
    void documentChanged();
    // The flags again, for a new layout; a weight selected is dropped when
    // weights are no longer drawn.
    void layoutChanged();
    // Says everything again (the selection, the run cursor, the highlight):
    // a new document's panels start from it.
    void announceAll();

private:
    void recomputeFlags();
    bool walk(bool up);

    GraphSession& s_;
    ItemRef selection_;
    int64_t runCursor_ = -1;
    std::vector<exec::SubgraphFrame> frames_;
    std::map<std::string, int64_t> callCounts_;
    std::vector<exec::SubgraphBreakpoint> subgraphBreakpoints_;
    std::vector<ItemRef> highlight_;
    std::vector<int64_t> marked_;  // ascending
    std::vector<uint8_t> itemFlags_, edgeFlags_;
};

}  // namespace irscope::widgets

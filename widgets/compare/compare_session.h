#pragma once
// CompareSession: the window's comparison of its graph (side A, the main
// GraphSession) with another IR (side B, a GraphSession of its own). It loads
// B, runs the diff (core/diff) on a worker once both sides are loaded, paints
// both sides' DiffMarks, keeps the two selections in step through the match,
// and steps through the changes (F8 / Shift+F8). Panels observe it and never
// talk to each other (the Changes dock, the B pane).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <QObject>
#include <QString>

#include "core/diff/change_rows.h"
#include "core/diff/graph_diff.h"
#include "widgets/session/item_ref.h"

namespace irscope::widgets {

class GraphSession;
class TaskQueue;

class CompareSession : public QObject {
    Q_OBJECT
public:
    explicit CompareSession(GraphSession* sideA, QObject* parent = nullptr);
    ~CompareSession() override;

    GraphSession* sideA() const { return a_; }
    GraphSession* sideB() const { return b_; }

    // Loads B (asynchronously): opened, then diffReady (or failed).
    void open(const QString& path);
    void close();
    bool isOpen() const { return open_; }
    QString pathB() const;

    // ---- the result (after diffReady; empty before)
    bool hasDiff() const { return result_ != nullptr; }
    // Why B did not load (what `failed` said); empty once another B is asked for.
    QString failure() const { return failure_; }
    const diff::GraphDiff* diff() const;
    const std::vector<diff::ChangeRow>& rows() const;
    // The same rows, kept alive for a holder that outlives this diff (the Changes dock's model).
    std::shared_ptr<const std::vector<diff::ChangeRow>> rowsPtr() const;
    QString summary() const;  // "1 changed, 1 added, 3 renamed; weights unchanged" / "identical"
    // The partner of a node on the other side, -1 when it has none (added / removed).
    int64_t partnerInB(int64_t nodeA) const;
    int64_t partnerInA(int64_t nodeB) const;
    // (B tensor name, A tensor name) for values saved from a run of B.
    std::vector<std::pair<std::string, std::string>> tensorNamesBToA() const;

    // ---- going to changes
    // The row of `rows()` the selection is on (-1: none).
    int currentRow() const { return currentRow_; }
    void goToRow(int row);
    // The next (step 1) or previous (-1) change from the current row: renamed-
    // only nodes are skipped. False when there is none that way.
    bool goToChange(int step);

    void setDimUnchanged(bool dim);
    bool dimUnchanged() const { return dim_; }

signals:
    void opened(const QString& path);
    void diffStale();  // a side changed: the diff is being made again
    void diffReady();
    void failed(const QString& message);
    void closed();
    void currentRowChanged(int row);

private:
    struct Result;
    void recompute();
    void install(std::shared_ptr<const Result> result);
    void syncFrom(GraphSession* from, const ItemRef& ref);
    ItemRef partnerRef(GraphSession* to, const ItemRef& ref) const;
    int rowOf(GraphSession* side, const ItemRef& ref) const;

    GraphSession* a_;
    GraphSession* b_;
    TaskQueue* lane_;
    bool open_ = false;
    QString requestedB_;  // the file B is to show (a previous B may still be loaded)
    bool syncing_ = false;
    bool dim_ = false;
    int currentRow_ = -1;
    QString failure_;
    std::shared_ptr<const Result> result_;
};

}  // namespace irscope::widgets

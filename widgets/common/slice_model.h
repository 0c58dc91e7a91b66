#pragma once
// SliceModel: a table model over one 2-D slice of a tensor that may be far
// too large to copy (a 70,000-row embedding), fetched lazily and
// asynchronously in kBlock x kBlock blocks. data() of a cell whose block is not
// here yet asks the Source for it and shows a placeholder; the block's arrival
// repaints its cells. Only what a view paints (or prefetch() asks for) is ever
// read. After a run the same slice is refetched while the old blocks stay on
// screen, so the table does not flash.
//
// Where the values come from is the Source's business (the debugger reads
// them on its query lane); the model only knows which slice it shows.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

// Which 2-D slice: a tensor, the side read (value, reference, difference), and
// the indices of the leading dimensions.
struct SliceRef {
    QString tensor;
    exec::ValueSide side = exec::ValueSide::Actual;
    std::vector<int64_t> lead;
    bool operator==(const SliceRef&) const = default;
};

class SliceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Reads blocks for a model off the UI thread.
    class Source {
    public:
        virtual ~Source() = default;
        using Deliver = std::function<void(std::vector<double> values)>;
        // Queues the read of rows [row0, row0 + rows) x cols [col0, col0 + cols)
        // of `slice` (row-major values) for `owner`; `deliver` runs on the UI
        // thread unless owner is gone or dropReads(owner) came first. False:
        // nothing to read from (no document).
        virtual bool readBlock(QObject* owner, const SliceRef& slice, int64_t row0, int64_t col0, int64_t rows,
                               int64_t cols, Deliver deliver) = 0;
        // Forgets every read `owner` queued: waiting ones are not run, answers not delivered.
        virtual void dropReads(QObject* owner) = 0;
    };

    explicit SliceModel(Source* source, QObject* parent = nullptr);
    // True when it changed (and the model was reset); false: same slice, cache kept.
    bool setSlice(const SliceRef& slice, int64_t rows, int64_t cols, bool integral);
    // The values may have changed (a run): keep showing the cached blocks, fetch them again.
    void refetch();
    void setFormat(char format, int precision);  // 'f', 'e', 'g'
    int rowCount(const QModelIndex& p = {}) const override;
    int columnCount(const QModelIndex& p = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    double value(int row, int col) const;  // cached value; NaN when none (yet)
    bool has(int row, int col) const;      // the cell's block is here (and current)
    // Asks for the blocks covering rows [row0, row1] x cols [col0, col1] (clamped).
    void prefetch(int64_t row0, int64_t col0, int64_t row1, int64_t col1) const;
    size_t cachedBlocks() const { return blocks_.size(); }
    size_t pendingBlocks() const { return pending_.size(); }
    static constexpr int kBlock = 64;
    static constexpr const char* kPlaceholder = "…";

signals:
    void pendingChanged(size_t pending);

private:
    using BlockKey = std::pair<int64_t, int64_t>;  // block row, block column
    struct Block {
        bool current = false;  // false: from before refetch(), shown until the new values come
        std::vector<double> values;
    };
    void request(int64_t br, int64_t bc) const;
    void receive(BlockKey key, std::vector<double> values);
    const Block* blockOf(int row, int col) const;
    void dropOutstanding() const;

    Source* source_;
    SliceRef slice_;
    int64_t rows_ = 0, cols_ = 0;
    bool integral_ = false;
    char format_ = 'g';
    int precision_ = 6;
    mutable std::map<BlockKey, Block> blocks_;
    mutable std::set<BlockKey> pending_;
};

}  // namespace irscope::widgets

#pragma once
// TensorViewer: one tensor (node output, graph input, weight, constant) in
// tabs: summary, values (a lazy table of a 2-D slice), histogram (QtCharts),
// heatmap with a colour scale, and comparison with the reference. Every number
// comes from core (exec::Debugger) through the DebugController's query thread:
// nothing is computed on the UI thread. Each viewer asks for what its current
// tab shows (keys "<viewer>/head", "/summary", ...: a newer request replaces
// an older one, stale answers are dropped) and shows "computing…" meanwhile.
// The values table asks for 64x64 blocks of the visible part only, shows a
// placeholder until a block arrives and repaints then; the tensor is never
// copied whole. While a run goes on, a viewer refreshes (at most every 250 ms)
// when the node that produces its tensor has run.
//
// TensorViewerArea: the "Tensor" dock: a viewer that follows the selection,
// plus pinned viewers side by side that keep their tensor while stepping.
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include <atomic>
#include <memory>
#include <set>

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QSet>
#include <QWidget>

#include "core/exec/debugger.h"

class QComboBox;
class QLabel;
class QHBoxLayout;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;
class QToolButton;
class QChartView;
class QTimer;

namespace irscope::widgets {

class DebugController;

// Values of a 2-D slice, fetched lazily and asynchronously in blocks: data()
// of a cell whose block is not here yet asks the query thread for it and
// shows a placeholder; the block's arrival repaints its cells.
class SliceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit SliceModel(DebugController* c, QObject* parent = nullptr);
    // True when it changed (and the model was reset); false: same slice, cache kept.
    bool setSlice(const QString& tensor, exec::ValueSide side, std::vector<int64_t> lead, int64_t rows, int64_t cols,
                  bool integral);
    // The values may have changed (a run): keep showing the cached blocks, fetch them again.
    void refetch();
    void setFormat(char format, int precision);   // 'f', 'e', 'g'
    int rowCount(const QModelIndex& p = {}) const override;
    int columnCount(const QModelIndex& p = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    double value(int row, int col) const;   // cached value; NaN when none (yet)
    bool has(int row, int col) const;       // the cell's block is here (and current)
    // Asks for the blocks covering rows [row0, row1] x cols [col0, col1] (clamped).
    void prefetch(int64_t row0, int64_t col0, int64_t row1, int64_t col1) const;
    size_t cachedBlocks() const { return blocks_.size(); }
    size_t pendingBlocks() const { return pending_.size(); }
    static constexpr int kBlock = 64;
    static constexpr const char* kPlaceholder = "…";

signals:
    void pendingChanged(size_t pending);

private:
    struct Block {
        quint64 gen = 0;
        std::vector<double> values;
    };
    void request(int64_t br, int64_t bc) const;
    const Block* blockOf(int row, int col) const;

    DebugController* c_;
    QString tensor_;
    exec::ValueSide side_ = exec::ValueSide::Actual;
    std::vector<int64_t> lead_;
    int64_t rows_ = 0, cols_ = 0;
    bool integral_ = false;
    char format_ = 'g';
    int precision_ = 6;
    quint64 gen_ = 1;                                    // bumped by setSlice / refetch
    std::shared_ptr<std::atomic<quint64>> liveGen_;      // read by queued jobs: skip stale ones
    mutable std::map<std::pair<int64_t, int64_t>, Block> blocks_;
    mutable std::set<std::pair<int64_t, int64_t>> pending_;
};

// A 2-D grid of values drawn through a colour map, with a colour scale.
class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setData(const exec::Heatmap& h, bool diverging);
    void clear(const QString& message);
    const exec::Heatmap& data() const { return h_; }

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;

private:
    QRectF imageRect() const;
    exec::Heatmap h_;
    QImage image_;
    bool diverging_ = false;
    double lo_ = 0, hi_ = 1;
    QString message_;
};

class TensorViewer : public QWidget {
    Q_OBJECT
public:
    TensorViewer(DebugController* controller, bool follows, QWidget* parent = nullptr);
    QString tensor() const { return tensor_; }
    bool follows() const { return follows_; }
    void setTensor(const QString& tensor);
    // Asks (asynchronously) for everything the current tab shows.
    void refresh();
    bool isBusy() const { return !pending_.isEmpty() || model_->pendingBlocks() > 0; }

    // For tests and the scripted GUI.
    QTabWidget* tabs() const { return tabs_; }
    QTableView* valuesView() const { return values_; }
    SliceModel* sliceModel() const { return model_; }
    QString summaryText() const;
    QString compareText() const;
    HeatmapWidget* heatmap() const { return heat_; }
    const exec::Histogram& histogramData() const { return hist_; }
    QComboBox* sideBox() const { return side_; }
    std::vector<QSpinBox*> leadSpins() const { return leadSpins_; }
    QLabel* busyLabel() const { return busy_; }
    // The query key of one of this viewer's requests ("head", "summary", ...).
    QString queryKey(const QString& what) const;

signals:
    void pinRequested(TensorViewer* viewer);
    void closeRequested(TensorViewer* viewer);
    // An asynchronous result was shown: "head" (title, shape), "summary",
    // "histogram", "heatmap", "compare".
    void updated(const QString& what);
    void busyChanged(bool busy);

private:
    struct Head;
    using Job = std::function<std::function<void()>(const exec::Debugger&)>;
    void ask(const QString& what, Job job);
    void applyHead(const Head& h);
    void showNoValue(const QString& why);
    void rebuildSlice();
    void updateSlice();
    void requestTab();
    void requestHistogram();
    void requestHeatmap();
    void requestCompare();
    void updateBusy();
    void onNodeStates();
    exec::ValueSide side() const;

    DebugController* c_;
    bool follows_;
    QString tensor_;
    QLabel* title_;
    QComboBox* side_;
    QComboBox* format_;
    QToolButton* pin_;
    QWidget* leadBox_;
    QHBoxLayout* leadLayout_;
    std::vector<QSpinBox*> leadSpins_;
    QTabWidget* tabs_;
    QLabel* summary_;
    QTableView* values_;
    SliceModel* model_;
    QChartView* chart_;
    QLabel* histInfo_;
    HeatmapWidget* heat_;
    QLabel* compare_;
    HeatmapWidget* diffHeat_;
    QLabel* busy_;
    exec::Histogram hist_;
    std::vector<int64_t> lead_;
    exec::SliceGeometry geo_;
    QString shownTensor_;            // the tensor the tabs show (the head's answer)
    QSet<QString> pending_;          // requests out ("head", "summary", ...)
    bool wasBusy_ = false;
    // Refresh while running: when the producer ran, at most every kRunRefreshMs.
    static constexpr int kRunRefreshMs = 250;
    QTimer* throttle_;
    QElapsedTimer lastRefresh_;
    bool producerDoneShown_ = false;
};

class TensorViewerArea : public QWidget {
    Q_OBJECT
public:
    explicit TensorViewerArea(DebugController* controller, QWidget* parent = nullptr);
    TensorViewer* follower() const { return follower_; }
    std::vector<TensorViewer*> viewers() const;
    TensorViewer* pin(TensorViewer* viewer);   // returns the pinned viewer

private:
    DebugController* c_;
    QSplitter* split_;
    TensorViewer* follower_;
};

}  // namespace irscope::widgets

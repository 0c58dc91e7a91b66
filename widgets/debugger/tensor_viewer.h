#pragma once
// TensorViewer: one tensor (node output, graph input, weight, constant) in
// tabs: summary, values (a lazy table of a 2-D slice), histogram (QtCharts),
// heatmap with a colour scale, and comparison with the reference. Every number
// comes from core (exec::Debugger) through the DebugController's query lane:
// nothing is computed on the UI thread. Each viewer asks for what its current
// tab shows (tags "<viewer>/head", "/summary", ...: a newer request replaces
// an older one, stale answers are dropped) and shows "computing…" meanwhile.
// The values table asks for 64x64 blocks of the visible part only, shows a
// placeholder until a block arrives and repaints then; the tensor is never
// copied whole. While a run goes on, a viewer refreshes (at most every 250 ms)
// when the node that produces its tensor has run.
#include <cstdint>
#include <functional>
#include <vector>

#include <QElapsedTimer>
#include <QSet>
#include <QWidget>

#include "core/exec/debugger/debugger.h"
#include "widgets/common/heatmap_widget.h"  // what heatmap() and sliceModel() hand out
#include "widgets/common/slice_model.h"
#include "widgets/debugger/debugger_slice_source.h"

class QComboBox;
class QLabel;
class QHBoxLayout;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;
class QTimer;

namespace irscope::widgets {

class DebugController;

// The viewer's tabs, in their order (each tab carries its value as tab data).
enum class TensorTab { Summary, Values, Histogram, Heatmap, Compare };

class TensorViewer : public QWidget {
    Q_OBJECT
public:
    TensorViewer(DebugController* controller, bool follows, QWidget* parent = nullptr);
    QString tensor() const { return tensor_; }
    bool follows() const { return follows_; }
    void setTensor(const QString& tensor);
    // Asks (asynchronously) for everything the current tab shows.
    void refresh();
    bool isBusy() const;
    TensorTab currentTab() const;
    void showTab(TensorTab tab);

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
    // The query tag of one of this viewer's requests ("head", "summary", ...).
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
    // Construction, in parts.
    QHBoxLayout* buildHeader();
    QHBoxLayout* buildSliceRow();
    void buildTabs();
    QWidget* buildHistogramPage();
    QWidget* buildComparePage();
    void connectControls();
    void connectController();
    void exportDialog();
    QString noValueReason(const QString& where) const;
    void prefetchVisible();

    void ask(const QString& what, Job job);
    void applyHead(const Head& h);
    void showNoValue(const QString& why);
    void rebuildSlice();
    void updateSlice();
    void requestTab();
    void requestSummary();
    void requestHistogram();
    void requestHeatmap();
    void requestCompare();
    void updateBusy();
    void onNodeStates();
    exec::ValueSide side() const;

    DebugController* c_;
    bool follows_;
    QString tensor_;
    DebuggerSliceSource sliceSource_;
    QLabel* title_;
    QComboBox* side_;
    QComboBox* format_;
    QToolButton* pin_;
    QToolButton* export_;
    QWidget* leadBox_;
    QHBoxLayout* leadLayout_;
    std::vector<QSpinBox*> leadSpins_;
    QTabWidget* tabs_;
    QLabel* summary_;
    QTableView* values_;
    SliceModel* model_;
    QWidget* chart_ = nullptr;  // charts::newChartView; none without the charts
    QLabel* histInfo_;
    HeatmapWidget* heat_;
    QLabel* compare_;
    QPushButton* goFirst_;
    HeatmapWidget* diffHeat_;
    QLabel* busy_;
    exec::Histogram hist_;
    std::vector<int64_t> lead_;
    exec::SliceGeometry geo_;
    QString shownTensor_;    // the tensor the tabs show (the head's answer)
    QSet<QString> pending_;  // requests out ("head", "summary", ...)
    bool wasBusy_ = false;
    // Refresh while running: when the producer ran, at most every kRunRefreshMs.
    static constexpr int kRunRefreshMs = 250;
    QTimer* throttle_;
    QElapsedTimer lastRefresh_;
    bool producerDoneShown_ = false;
};

}  // namespace irscope::widgets

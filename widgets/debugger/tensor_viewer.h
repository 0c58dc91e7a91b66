#pragma once
// TensorViewer: one tensor (node output, graph input, weight, constant) in
// tabs: summary, values (a lazy table of a 2-D slice), histogram (QtCharts),
// heatmap with a colour scale, and comparison with the reference. Every number
// comes from core (exec::Debugger) through the DebugController; the values
// table asks for blocks of the visible part only.
//
// TensorViewerArea: the "Tensor" dock: a viewer that follows the selection,
// plus pinned viewers side by side that keep their tensor while stepping.
#include <cstdint>
#include <map>
#include <vector>

#include <QAbstractTableModel>
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

namespace irscope::widgets {

class DebugController;

// Values of a 2-D slice, fetched lazily in blocks.
class SliceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit SliceModel(DebugController* c, QObject* parent = nullptr);
    void setSlice(const QString& tensor, exec::ValueSide side, std::vector<int64_t> lead, int64_t rows, int64_t cols,
                  bool integral);
    void setFormat(char format, int precision);   // 'f', 'e', 'g'
    int rowCount(const QModelIndex& p = {}) const override;
    int columnCount(const QModelIndex& p = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    double value(int row, int col) const;   // NaN when there is none
    size_t cachedBlocks() const { return blocks_.size(); }
    static constexpr int kBlock = 64;

private:
    DebugController* c_;
    QString tensor_;
    exec::ValueSide side_ = exec::ValueSide::Actual;
    std::vector<int64_t> lead_;
    int64_t rows_ = 0, cols_ = 0;
    bool integral_ = false;
    char format_ = 'g';
    int precision_ = 6;
    mutable std::map<std::pair<int64_t, int64_t>, std::vector<double>> blocks_;
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
    void refresh();

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

signals:
    void pinRequested(TensorViewer* viewer);
    void closeRequested(TensorViewer* viewer);

private:
    void rebuildSlice();
    void updateSlice();
    void updateHistogram();
    void updateCompare();
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
    exec::Histogram hist_;
    std::vector<int64_t> lead_;
    exec::SliceGeometry geo_;
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

#pragma once
// TensorViewerArea: the "Tensor" dock: a viewer that follows the selection,
// plus pinned viewers side by side that keep their tensor while stepping.
#include <vector>

#include <QWidget>

#include "widgets/common/panel_id.h"

class QSplitter;

namespace irscope::widgets {

class DebugController;
class TensorViewer;

// Its dock in the MainWindow.
inline constexpr PanelId kTensorPanel{"tensorDock"};

class TensorViewerArea : public QWidget {
    Q_OBJECT
public:
    explicit TensorViewerArea(DebugController* controller, QWidget* parent = nullptr);
    TensorViewer* follower() const { return follower_; }
    std::vector<TensorViewer*> viewers() const;
    TensorViewer* pin(TensorViewer* viewer);  // returns the pinned viewer

private:
    DebugController* c_;
    QSplitter* split_;
    TensorViewer* follower_;
};

}  // namespace irscope::widgets

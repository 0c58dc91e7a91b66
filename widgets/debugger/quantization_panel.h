#pragma once
// QuantizationPanel: the quantization debugger's answers beside the
// Differences dock, once its reference is the float program of this
// quantized one. "Measure" reruns the program once per quantized activation
// (exec::Debugger::compareWithProgram) and lists what to keep in float,
// best first: the output's SQNR with that one tensor in float; selecting a
// row selects its quantize node. Below, each int8 weight's SQNR against its
// float weight, with the channels far worse than the rest. The per-node SQNR
// itself is the Differences dock's and the SQNR overlay's.
#include <QWidget>

#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace irscope::widgets {

class DebugController;

inline constexpr PanelId kQuantizationPanel{"quantizationDock"};

class QuantizationPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit QuantizationPanel(DebugController* controller, QWidget* parent = nullptr);

    // "Measure": the comparison with the float program, on the run lane.
    void measure();
    // The rows of the keep-in-float list, best first: "tensor (quantize node)" (tests).
    QStringList keepInFloat() const;
    // Selects the quantize node of row `row` of the list, as a click does.
    void chooseRow(int row);

private:
    void rebuild();

    DebugController* c_;
    QPushButton* measure_;
    QLabel* status_;
    QTreeWidget* keep_;
    QTreeWidget* weights_;
};

}  // namespace irscope::widgets

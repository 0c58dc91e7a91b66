#include "widgets/debugger/quantization_panel.h"

#include <cmath>

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/debugger/differences_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/numeric_checks.h"

namespace irscope::widgets {

namespace {

QString db(double v) {
    if (std::isinf(v)) return v > 0 ? QStringLiteral("+inf") : QStringLiteral("-inf");
    return QString::number(v, 'f', 1);
}

}  // namespace

QuantizationPanel::QuantizationPanel(DebugController* c, QWidget* parent)
    : QWidget(parent),
      c_(c),
      measure_(new QPushButton(tr("Measure what to keep in float"), this)),
      status_(new QLabel(this)),
      keep_(new QTreeWidget(this)),
      weights_(new QTreeWidget(this)) {
    setObjectName(QStringLiteral("quantizationPanel"));
    measure_->setToolTip(
        tr("Reruns the quantized program once per quantized activation, that one tensor kept in "
           "float, against the float program chosen as the reference"));
    status_->setWordWrap(true);
    keep_->setObjectName(QStringLiteral("keepInFloat"));
    keep_->setHeaderLabels({tr("Keep in float"), tr("Quantize node"), tr("Output SQNR dB"), tr("Gain dB")});
    keep_->setRootIsDecorated(false);
    keep_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    weights_->setObjectName(QStringLiteral("quantizedWeights"));
    weights_->setHeaderLabels({tr("Weight"), tr("Float weight"), tr("SQNR dB"), tr("Outlier channels")});
    weights_->setRootIsDecorated(false);
    weights_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(measure_);
    lay->addWidget(status_);
    lay->addWidget(keep_, 2);
    lay->addWidget(weights_, 1);
    connect(measure_, &QPushButton::clicked, this, &QuantizationPanel::measure);
    connect(keep_, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { chooseRow(keep_->indexOfTopLevelItem(item)); });
    connect(c_->checks(), &NumericChecks::quantizationChanged, this, &QuantizationPanel::rebuild);
    connect(c_->checks(), &NumericChecks::checksChanged, this, &QuantizationPanel::rebuild);
    rebuild();
}

void QuantizationPanel::measure() {
    status_->setText(tr("Measuring: the float program, this one, and one run per quantized activation…"));
    measure_->setEnabled(false);
    c_->checks()->measureQuantization();
}

QStringList QuantizationPanel::keepInFloat() const {
    QStringList out;
    for (int i = 0; i < keep_->topLevelItemCount(); ++i)
        out << QStringLiteral("%1 (%2)").arg(keep_->topLevelItem(i)->text(0), keep_->topLevelItem(i)->text(1));
    return out;
}

void QuantizationPanel::chooseRow(int row) {
    if (row < 0 || row >= keep_->topLevelItemCount()) return;
    keep_->setCurrentItem(keep_->topLevelItem(row));
    c_->session()->selectionModel()->selectNodeByName(keep_->topLevelItem(row)->text(1), true);
}

void QuantizationPanel::rebuild() {
    keep_->clear();
    weights_->clear();
    const bool program = c_->checks()->referenceChoice().kind == exec::ReferenceChoice::Kind::Program;
    measure_->setEnabled(program);
    const auto result = c_->checks()->quantization();
    if (!result) {
        status_->setText(program ? tr("Against %1. Measure to see what to keep in float.")
                                       .arg(q(c_->checks()->referenceChoice().programPath))
                                 : tr("Choose the float program as the reference (Differences dock: Another "
                                      "program) to compare this quantized program with it."));
        return;
    }
    status_->setText(tr("Output SQNR %1 dB against the float program; %2 tensors paired, %3 nodes unpaired. "
                        "The per-tensor SQNR is in the Differences dock and the SQNR overlay.")
                         .arg(db(result->outputSqnrDb))
                         .arg(result->nodes.size())
                         .arg(result->pairing.unpaired.size()));
    for (const auto& s : result->sensitivity) {
        auto* item = new QTreeWidgetItem(
            keep_, {q(s.tensor), q(s.quantize), db(s.outputSqnrDb), db(s.outputSqnrDb - result->outputSqnrDb)});
        item->setToolTip(
            0, tr("The output's SQNR when %1 stays in float and everything else stays quantized").arg(q(s.tensor)));
    }
    for (const auto& w : result->weights) {
        QStringList outliers;
        for (int64_t ch : w.outlierChannels) outliers << QString::number(ch);
        new QTreeWidgetItem(weights_,
                            {q(w.weight), q(w.referenceWeight), db(w.sqnrDb), outliers.join(QStringLiteral(", "))});
    }
}

namespace {

const bool quantizationPanelRegistered = registerPanel({
    .id = kQuantizationPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Quantization"),
    .order = 26,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new QuantizationPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, kDifferencesPanel},
});

}  // namespace

}  // namespace irscope::widgets

#include "widgets/debugger/backend_panel.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/exec/debugger/debugger.h"
#include "core/ir/file_replace.h"
#include "core/ir/graph_index.h"
#include "core/modules/module_tree.h"
#include "widgets/common/dialog_folders.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/debugger/breakpoints_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

namespace {

constexpr int kGroupRole = Qt::UserRole + 1;

QString number(double v) {
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(v, 'g', 3);
}

QString kNoReport() {
    return BackendPanel::tr(
        "No backend report. Open one written by irscope check-backend --report (a "
        "torch.compile backend, Inductor) or irscope check-dump --report (an NPU's dump).");
}

std::string readWhole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

BackendPanel::BackendPanel(DebugController* controller, QWidget* parent)
    : QWidget(parent),
      c_(controller),
      lane_(new TaskQueue(QThread::LowPriority, this)),
      headline_(new QLabel(this)),
      table_(new QTreeWidget(this)) {
    setObjectName(QStringLiteral("backendPanel"));
    headline_->setText(kNoReport());
    headline_->setWordWrap(true);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_->setObjectName(QStringLiteral("backendGroups"));
    table_->setRootIsDecorated(false);
    table_->setUniformRowHeights(true);
    table_->setHeaderLabels(
        {tr("Group"), tr("Ops"), tr("Verdict"), tr("Backend error"), tr("Eager vs float64"), tr("× allowed")});
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->headerItem()->setToolTip(3, tr("check-backend: the backend's max |difference| from float64; "
                                           "check-dump: from the group recomputed on the backend's own inputs"));
    table_->headerItem()->setToolTip(5, tr("The backend's error in units of what the tolerance allows: above 1 "
                                           "it is farther off than float noise explains"));
    auto* openButton = new QPushButton(tr("Open report…"), this);
    openButton->setObjectName(QStringLiteral("openBackendReport"));
    openButton->setToolTip(
        tr("A report of irscope check-backend or check-dump: each group of ops coloured by "
           "whether the backend is at fault"));
    connect(openButton, &QPushButton::clicked, this, &BackendPanel::openDialog);
    auto* dumpButton = new QPushButton(tr("Check a dump…"), this);
    dumpButton->setObjectName(QStringLiteral("checkBackendDump"));
    dumpButton->setToolTip(
        tr("A backend's dumped values (a tensor file or a folder of .npy) and its groups file: "
           "each group judged on the backend's own inputs, as irscope check-dump does"));
    connect(dumpButton, &QPushButton::clicked, this, &BackendPanel::checkDumpDialog);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(openButton);
    buttons->addWidget(dumpButton);
    buttons->addStretch(1);
    auto* top = new QHBoxLayout;
    top->addWidget(headline_, 1);
    top->addLayout(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
    connect(table_, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { chooseRow(item->data(0, kGroupRole).toInt()); });
}

void BackendPanel::openDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Backend Report"),
                                                      dialogStart(DialogKind::NodeData, c_->session()->filePath()),
                                                      tr("Backend report (*.json);;All files (*)"));
    rememberDialogFolder(DialogKind::NodeData, path);
    if (!path.isEmpty()) open(path);
}

BackendPanel::~BackendPanel() = default;

void BackendPanel::checkDumpDialog() {
    const QString modelPath = c_->session()->filePath();
    const QString dump =
        QFileDialog::getOpenFileName(this, tr("The backend's dump"), dialogStart(DialogKind::Reference, modelPath),
                                     tr("Tensor files (*.pt *.pth *.safetensors *.npy *.npz);;"
                                        "All files (*)"));
    if (dump.isEmpty()) return;
    rememberDialogFolder(DialogKind::Reference, dump);
    const QString groups = QFileDialog::getOpenFileName(this, tr("Its groups (check-dump's groups file)"),
                                                        QFileInfo(dump).absolutePath(), tr("JSON (*.json)"));
    if (!groups.isEmpty()) checkDump(dump, groups);
}

void BackendPanel::checkDump(const QString& dump, const QString& groups) {
    if (!reports_)
        reports_ = std::make_unique<QTemporaryDir>(QDir::temp().filePath(QStringLiteral("irscope-check-dump-XXXXXX")));
    if (!reports_->isValid()) {
        c_->reportError(tr("check-dump: no temporary folder for its report (%1)").arg(reports_->errorString()));
        return;
    }
    const QString report = reports_->filePath(QStringLiteral("%1.report.json").arg(QFileInfo(dump).completeBaseName()));
    headline_->setText(tr("Checking %1 group by group against this run's values…").arg(dump));
    // The module tree is the document's, immutable while it is open; the job reads it on the run lane.
    const modules::ModuleTree* tree = c_->session()->moduleTree();
    const size_t nodes = c_->session()->document() ? c_->session()->document()->graph.nodes.size() : 0;
    const std::string program = c_->session()->filePath().toStdString();
    c_->post(QStringLiteral("check-dump"),
             [this, program, dump, groups, report, tree, nodes](exec::Debugger& d) -> DebugController::Continuation {
                 try {
                     const auto moduleNodes = [tree,
                                               nodes](const std::string& path) -> std::optional<std::vector<int64_t>> {
                         if (!tree) return std::nullopt;
                         const modules::ModuleId m = tree->find(path);
                         if (m == modules::kNoModule) return std::nullopt;
                         std::vector<int64_t> out;
                         for (size_t i = 0; i < nodes; ++i)
                             if (tree->isAncestorOrSelf(m, tree->moduleOfNode(static_cast<int64_t>(i))))
                                 out.push_back(static_cast<int64_t>(i));
                         return out;
                     };
                     const std::string json =
                         d.checks().checkDump(program, dump.toStdString(), groups.toStdString(), moduleNodes);
                     ir::replaceFileContents(report.toStdString(), json);
                 } catch (const std::exception& e) {
                     return [this, why = q(e.what())] {
                         headline_->setText(kNoReport());
                         c_->reportError(tr("check-dump refused: %1").arg(why));
                     };
                 }
                 return [this, report] { open(report); };
             });
}

void BackendPanel::open(const QString& path) {
    lane_->post(QStringLiteral("report"), this, [this, path](const TaskQueue::Context&) -> TaskQueue::Continuation {
        try {
            const std::string file = path.toStdString();
            auto report = exporter::parseBackendReport(readWhole(file), file);
            return [this, report = std::move(report), path]() mutable { show(std::move(report), path); };
        } catch (const std::exception& e) {
            return [this, why = q(e.what())] { c_->reportError(tr("Backend report refused: %1").arg(why)); };
        }
    });
}

void BackendPanel::show(exporter::BackendReport report, const QString& path) {
    const auto* doc = c_->session()->document();
    if (!doc) return;
    // A report of another program names nodes this one does not have.
    QStringList unknown;
    for (const auto& g : report.groups)
        for (const auto& n : g.nodes)
            if (!doc->index->nodeIndex(n) && unknown.size() < 3) unknown << q(n);
    if (!unknown.isEmpty()) {
        c_->reportError(tr("Backend report refused: %1 names nodes this program does not have (%2)")
                            .arg(path, unknown.join(QStringLiteral(", "))));
        return;
    }
    report_ = std::move(report);
    table_->clear();
    int faults = 0;
    for (size_t k = 0; k < report_.groups.size(); ++k) {
        const auto& g = report_.groups[k];
        faults += g.fault();
        auto* row = new QTreeWidgetItem(table_);
        row->setText(0, q(g.group));
        row->setText(1, QString::number(g.nodes.size()));
        row->setText(2, g.failure.empty() ? q(g.verdict) : tr("%1: %2").arg(q(g.verdict), q(g.failure)));
        row->setText(3, number(g.error));
        row->setText(4, g.eagerError < 0 ? QStringLiteral("—") : number(g.eagerError));
        row->setText(5, number(g.excess()));
        row->setData(0, kGroupRole, static_cast<int>(k));
        row->setToolTip(0, q(g.module.empty() ? g.group : g.module));
        if (!g.detail.empty()) row->setToolTip(2, q(g.detail));
        // A fault red; a group that only inherits an earlier error amber; noise green.
        const QColor tint = g.fault()                 ? QColor(211, 47, 47, 60)
                            : g.verdict == "inherits" ? QColor(240, 160, 0, 50)
                                                      : QColor(46, 157, 79, 40);
        for (int col = 0; col < table_->columnCount(); ++col) row->setBackground(col, tint);
    }
    QString first = tr("no backend fault: every group is within float noise of float64");
    if (report_.firstFault)
        first = tr("first fault: %1 (%n op(s))", "", static_cast<int>(report_.firstFault->nodes.size()))
                    .arg(q(report_.firstFault->group));
    headline_->setText(tr("%1 on %2: %n group(s), %3 fault(s); %4", "", static_cast<int>(report_.groups.size()))
                           .arg(q(report_.backend), q(report_.program))
                           .arg(faults)
                           .arg(first));
    // Every node coloured by its group's verdict: the overlay reads the same file.
    c_->checks()->importNodeData(path);
    chooseRow(-1);
}

void BackendPanel::chooseRow(int row) {
    if (row < 0) {
        if (report_.firstFault) return selectGroup(*report_.firstFault);
        for (size_t k = 0; k < report_.groups.size(); ++k)
            if (report_.groups[k].fault()) return selectGroup(report_.groups[k]);
        return;
    }
    if (row < static_cast<int>(report_.groups.size())) selectGroup(report_.groups[static_cast<size_t>(row)]);
}

void BackendPanel::selectGroup(const exporter::BackendGroup& group) {
    const auto* doc = c_->session()->document();
    if (!doc) return;
    std::vector<ItemRef> refs;
    for (const auto& n : group.nodes)
        if (const auto i = doc->index->nodeIndex(n)) refs.push_back(ItemRef::node(*i, q(n)));
    if (refs.empty()) return;
    for (int k = 0; k < table_->topLevelItemCount(); ++k) {
        auto* item = table_->topLevelItem(k);
        item->setSelected(item->text(0) == q(group.group));
    }
    auto* selection = c_->session()->selectionModel();
    selection->setHighlight(refs);
    selection->select(refs.front(), true);
}

QStringList BackendPanel::rows() const {
    QStringList out;
    for (int k = 0; k < table_->topLevelItemCount(); ++k)
        out << table_->topLevelItem(k)->text(0) + QStringLiteral("  ") + table_->topLevelItem(k)->text(2);
    return out;
}

QString BackendPanel::headline() const { return headline_->text(); }

void BackendPanel::documentOpened(bool sameModel) {
    if (sameModel) return;
    lane_->dropAll();
    report_ = {};
    table_->clear();
    headline_->setText(kNoReport());
}

namespace {

const bool backendPanelRegistered = registerPanel({
    .id = kBackendPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Backend"),
    .order = 27,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new BackendPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, kBreakpointsPanel},
});

}  // namespace

}  // namespace irscope::widgets

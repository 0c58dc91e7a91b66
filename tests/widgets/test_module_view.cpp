// The graph grouped by module, driven as a user does: a 12-layer MoE opens
// collapsed; double-click opens a module in place and closes it from its
// title; search hits inside closed modules are counted on the box and
// selecting one opens its way; breadcrumbs; the Modules dock; run state on
// a closed module; flat drawing on demand.
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "core/modules/module_tree.h"
#include "modules/hand_models.h"
#include "widgets/graph_view/breadcrumb_bar.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/module_tree_model.h"
#include "widgets/panels/modules_panel.h"
#include "widgets/panels/search_panel.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;
using irscope::layout::ItemKind;

class TestModuleView : public QObject {
    Q_OBJECT
private:
    MainWindow* window_ = nullptr;
    GraphSession* session_ = nullptr;
    QTemporaryDir dir_;

    int64_t module(const char* path) const { return session_->moduleTree()->find(path); }
    int64_t node(const char* name) const { return *session_->document()->index->nodeIndex(name); }
    QString status(int64_t m) const {
        const QString* s = session_->decorations()->moduleStatus(m);
        return s ? *s : QStringLiteral("(none)");
    }
    ItemKind kindOf(const ItemRef& ref) const {
        const auto items = session_->layout()->itemsOf(ref);
        return items.empty() ? ItemKind::Ghost : session_->layout()->result.items[items.front()].kind;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_module_view"));
        const auto model = irscope::test::llama(12, true);  // 12 layers (11 MoE), 265 ops
        const QString path = dir_.filePath(QStringLiteral("moe12.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(model.json.data(), static_cast<qint64>(model.json.size()));
        f.close();
        window_ = new MainWindow;
        window_->resize(1400, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        session_ = window_->session();
        session_->setGroupByModule(true);
        QSignalSpy loaded(session_, &GraphSession::graphLoaded);
        window_->openFile(path);
        QVERIFY(loaded.wait(20000));
    }
    void cleanupTestCase() { delete window_; }

    void opensAtOneLevelThenLayerByLayer() {
        QVERIFY(session_->layout()->byModule);
        // The first view: one level of structure, the 12 layers as boxes in
        // their list (all 87 items would fit; they are not what a first look needs).
        QVERIFY(session_->isModuleExpanded(module("layers")));
        QVERIFY(!session_->isModuleExpanded(module("layers.3")));
        QCOMPARE(kindOf(ItemRef::module(module("layers.3"))), ItemKind::Module);
        QCOMPARE(kindOf(ItemRef::node(node("mm_3"))), ItemKind::Module);  // drawn by its layer's box
        // The next level: the layers open, their modules closed.
        QSignalSpy relaid(session_, &GraphSession::layoutChanged);
        session_->expandModulesToDepth(2);
        QVERIFY(relaid.wait(20000));
        QVERIFY(session_->isModuleExpanded(module("layers.3")));
        QVERIFY(!session_->isModuleExpanded(module("layers.3.self_attn")));
        QCOMPARE(kindOf(ItemRef::module(module("layers.3.self_attn"))), ItemKind::Module);
        // A node inside a closed module is drawn by its box.
        QCOMPARE(kindOf(ItemRef::node(node("mm_3"))), ItemKind::Module);
    }

    void doubleClickOpensInPlaceAndTitleCloses() {
        GraphView* view = window_->graphView();
        const ItemRef attn = ItemRef::module(module("layers.3.self_attn"));
        view->setZoom(1.0);
        view->centerOn(attn);
        const auto& before = session_->layout()->result.items[session_->layout()->itemsOf(attn).front()].rect;
        const QPointF topLeft = view->mapFromScene(QPointF(before.x, before.y));
        const QPoint pos = view->viewportPosOf(attn).toPoint();
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, pos);
        QVERIFY(session_->isModuleExpanded(attn.index));
        QCOMPARE(kindOf(attn), ItemKind::Frame);
        QCOMPARE(kindOf(ItemRef::node(node("mm_3"))), ItemKind::Op);
        // The module stays where it was on screen: its frame starts at the height its box did
        // (sideways too, unless the drawing is narrower than the window and so centred).
        const auto& after = session_->layout()->result.items[session_->layout()->itemsOf(attn).front()].rect;
        const QPointF topLeftAfter = view->mapFromScene(QPointF(after.x, after.y));
        QVERIFY2(std::abs(topLeftAfter.y() - topLeft.y()) <= 1, qPrintable(QStringLiteral("%1,%2 -> %3,%4")
                                                                               .arg(topLeft.x())
                                                                               .arg(topLeft.y())
                                                                               .arg(topLeftAfter.x())
                                                                               .arg(topLeftAfter.y())));
        if (session_->layout()->result.bounds.width > view->viewport()->width())
            QVERIFY(std::abs(topLeftAfter.x() - topLeft.x()) <= 1);
        // A double-click on the frame's title closes it again.
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, (topLeftAfter + QPointF(30, 8)).toPoint());
        QVERIFY(!session_->isModuleExpanded(attn.index));
        QCOMPARE(kindOf(attn), ItemKind::Module);
        // One click on the box's "+" opens it; one on the frame's chevron closes it.
        view->centerOn(attn);
        const auto& box = session_->layout()->result.items[session_->layout()->itemsOf(attn).front()].rect;
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->mapFromScene(QPointF(box.right() - 9, box.y + 9)).toPoint());
        QVERIFY(session_->isModuleExpanded(attn.index));
        const auto& frame = session_->layout()->result.items[session_->layout()->itemsOf(attn).front()].rect;
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->mapFromScene(QPointF(frame.x + 10, frame.y + 10)).toPoint());
        QVERIFY(!session_->isModuleExpanded(attn.index));
    }

    void searchCountsHitsOnClosedModulesAndSelectingOpens() {
        session_->selectionModel()->setHighlight(session_->selectionModel()->find(QStringLiteral("softmax_7")));
        const auto* d = session_->decorations()->moduleDecoration(module("layers.7.self_attn"));
        QVERIFY(d);
        QCOMPARE(d->badge, QStringLiteral("1 hit"));
        QVERIFY(session_->selectionModel()
                    ->itemFlags()[session_->layout()->itemsOf(ItemRef::module(module("layers.7.self_attn"))).front()] &
                kFlagHighlighted);
        session_->selectionModel()->select(ItemRef::node(node("softmax_7")), true);
        QVERIFY(session_->isModuleExpanded(module("layers.7.self_attn")));
        QCOMPARE(kindOf(ItemRef::node(node("softmax_7"))), ItemKind::Op);
        QCOMPARE(window_->breadcrumbBar()->crumbs(), (QStringList{"model", "layers", "7", "self_attn", "softmax_7"}));
        session_->selectionModel()->setHighlight({});
    }

    void breadcrumbAndModulesDockSelectModules() {
        // The Modules dock follows the selection...
        auto* panel = window_->panelAs<ModulesPanel>(kModulesPanel);
        auto* tree = panel->treeView();
        auto* model = tree->model();
        QCOMPARE(panel->moduleAt(tree->currentIndex()), module("layers.7.self_attn"));
        // ... and a click in it selects a module (opening its parents).
        session_->setModuleExpanded(module("layers.2"), false);
        auto* dock = qobject_cast<QDockWidget*>(window_->panelAs<ModulesPanel>(kModulesPanel)->parentWidget());
        QVERIFY(dock);
        dock->show();
        dock->raise();
        QTest::qWait(50);
        if (qEnvironmentVariableIsSet("IRSCOPE_SHOT_DIR"))  // to look at the dock's fitted columns
            dock->grab().save(qEnvironmentVariable("IRSCOPE_SHOT_DIR") + QStringLiteral("/modules_dock.png"));
        const QModelIndex mlp = panel->viewIndexOf(module("layers.2.mlp"));
        QVERIFY(mlp.isValid());
        tree->scrollTo(mlp);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(mlp).center());
        QCOMPARE(session_->selectionModel()->selection(), ItemRef::module(module("layers.2.mlp")));
        QVERIFY(session_->isModuleExpanded(module("layers.2")));
        QCOMPARE(model->data(model->index(mlp.row(), ModuleTreeModel::Ops, mlp.parent()), Qt::DisplayRole).toString(),
                 QStringLiteral("7"));
        QCOMPARE(window_->breadcrumbBar()->crumbs(), (QStringList{"model", "layers", "2", "mlp"}));
    }

    // The dock's filter: text or /regex/ on the module path, parents kept,
    // names elided in the middle with the whole path as the tooltip.
    void modulesDockFilters() {
        auto* panel = window_->panelAs<ModulesPanel>(kModulesPanel);
        auto* tree = panel->treeView();
        QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);
        panel->setFilterText(QStringLiteral("self_attn"));
        QVERIFY(panel->viewIndexOf(module("layers.7.self_attn")).isValid());
        QVERIFY(panel->viewIndexOf(module("layers.7")).isValid());  // its parent stays
        QVERIFY(!panel->viewIndexOf(module("layers.7.mlp")).isValid());
        QVERIFY(tree->isExpanded(panel->viewIndexOf(module("layers.7"))));  // matches in sight
        panel->setFilterText(QStringLiteral("/^layers\\.1[01]\\.mlp$/"));
        QVERIFY(panel->viewIndexOf(module("layers.10.mlp")).isValid());
        QVERIFY(panel->viewIndexOf(module("layers.11.mlp")).isValid());
        QVERIFY(!panel->viewIndexOf(module("layers.1.mlp")).isValid());
        QVERIFY(!panel->viewIndexOf(module("layers.10.self_attn")).isValid());
        QCOMPARE(panel->viewIndexOf(module("layers.10.mlp")).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("layers.10.mlp"));
        panel->setFilterText(QStringLiteral("/[unclosed/"));  // an invalid expression: nothing, in red
        QVERIFY(!panel->viewIndexOf(module("layers.10.mlp")).isValid());
        QVERIFY(panel->filterEdit()->styleSheet().contains(QLatin1String("d0302a")));
        QVERIFY(!panel->filterEdit()->toolTip().isEmpty());
        panel->setFilterText(QString());
        QVERIFY(panel->viewIndexOf(module("layers.1.mlp")).isValid());
        QVERIFY(panel->filterEdit()->styleSheet().isEmpty());
    }

    void closedModulesCarryRunState() {
        const auto& tree = *session_->moduleTree();
        const auto& l5 = tree.module(static_cast<irscope::modules::ModuleId>(module("layers.5")));
        std::vector<NodeDecoration> decorations(session_->document()->graph.nodes.size());
        std::vector<int64_t> inside;
        for (size_t n = 0; n < decorations.size(); ++n)
            if (tree.isAncestorOrSelf(static_cast<irscope::modules::ModuleId>(module("layers.5")),
                                      tree.moduleOfNode(static_cast<int64_t>(n))))
                inside.push_back(static_cast<int64_t>(n));
        QCOMPARE(static_cast<int64_t>(inside.size()), l5.opCount);
        for (size_t k = 0; k < inside.size(); ++k) decorations[static_cast<size_t>(inside[k])].state = RunMark::Done;
        for (const char* n : {"pow_8", "mean_8", "rsqrt_8"})
            decorations[static_cast<size_t>(node(n))].state = RunMark::Done;
        session_->decorations()->setNodeDecorations(decorations);
        session_->setModuleExpanded(module("layers.5"), false);
        QCOMPARE(status(module("layers.5")), QStringLiteral("done"));
        QVERIFY(session_->decorations()->moduleDecoration(module("layers.5")));
        QCOMPARE(session_->decorations()->moduleDecoration(module("layers.5"))->state, RunMark::Done);
        QCOMPARE(status(module("layers.8")), QStringLiteral("3/23"));
        QCOMPARE(status(module("layers")),
                 QStringLiteral("%1/%2").arg(l5.opCount + 3).arg(tree.module(module("layers")).opCount));
        QVERIFY(session_->decorations()->moduleStatus(module("layers.7")) == nullptr);
        decorations[static_cast<size_t>(node("mm_6"))].state = RunMark::Failed;
        session_->decorations()->setNodeDecorations(decorations);
        QCOMPARE(status(module("layers.6")), QStringLiteral("failed"));
        QCOMPARE(status(module("layers")), QStringLiteral("failed"));
        session_->setModuleExpanded(module("layers.6"), false);  // an open module shows its ops instead
        QVERIFY(session_->decorations()->moduleDecoration(module("layers.6")));
        QCOMPARE(session_->decorations()->moduleDecoration(module("layers.6"))->state, RunMark::Failed);
        session_->decorations()->setNodeDecorations({});
    }

    void flatDrawingOnDemand() {
        QSignalSpy changed(session_, &GraphSession::layoutChanged);
        session_->setGroupByModule(false);
        QVERIFY(changed.wait(10000));
        QVERIFY(!session_->layout()->byModule);
        for (int32_t item : session_->layout()->nodeItem) QVERIFY(item >= 0);
        session_->setGroupByModule(true);
        QVERIFY(changed.wait(10000));
        QVERIFY(session_->layout()->byModule);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestModuleView)
#include "test_module_view.moc"

// Every item model in the window checked as a model: Qt's
// QAbstractItemModelTester watches each one (weights, inputs, differences,
// changes, module tree, tensor slices, the proxies over them, and Qt's own)
// while the window goes through what users do: open, load values, run, look
// at a tensor, filter, reset, open another model, compare. A model that emits
// a row count it then contradicts, or changes rows without announcing them
// (rows arriving in batches, resets between runs), fails here with Qt's own
// diagnosis, which views otherwise turn into a crash or a stale table.
#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QList>
#include <QPointer>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include "test_support.h"
#include "wait_idle.h"
#include "widgets/compare/compare_session.h"
#include "widgets/compare/compare_ui.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/inputs_panel.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/modules_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/tensor_queries.h"

using namespace irscope::widgets;

using irscope::test::irFixture;

namespace {}  // namespace

class TestItemModels : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi debug_;
    CompareUi compare_;
    QSet<QAbstractItemModel*> watched_;
    QSet<QString> seen_;  // class names of the models watched
    // Gone before the window: Qt's own list model resets itself while its
    // QListWidget is half destroyed, and a tester reading it then crashes.
    QList<QPointer<QAbstractItemModelTester>> testers_;

    DebugController* ctl() const { return debug_.controller; }

    // A tester on every model in the window not watched yet (panels make
    // some lazily: the tensor viewer's slices, the comparison's changes).
    int watchNewModels() {
        int added = 0;
        for (QAbstractItemModel* m : window_->findChildren<QAbstractItemModel*>()) {
            if (watched_.contains(m)) continue;
            watched_.insert(m);
            // QTreeWidget's private model answers the same children for every
            // column of a row, which the tester's "common error #3" rejects;
            // that is Qt's own design (QTBUG-25325), not irscope's code.
            if (QByteArray(m->metaObject()->className()) == "QTreeModel") continue;
            seen_.insert(QString::fromLatin1(m->metaObject()->className()));
            connect(m, &QObject::destroyed, this, [this, m] { watched_.remove(m); });
            testers_.push_back(
                new QAbstractItemModelTester(m, QAbstractItemModelTester::FailureReportingMode::QtTest, m));
            ++added;
        }
        return added;
    }
    void openIr(const QString& name) {
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        window_->openFile(irFixture(name));
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        watchNewModels();
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        window_ = new MainWindow;
        debug_ = installDebugger(*window_);
        compare_ = installCompare(*window_, debug_.controller);
        window_->resize(1400, 900);
        window_->show();
    }
    void cleanupTestCase() {
        for (const auto& t : testers_) delete t.data();
        delete window_;
    }

    void aDebuggingSession() {
        openIr(QStringLiteral("llama_block.json"));
        ctl()->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));
        ctl()->values()->loadInputs(irFixture(QStringLiteral("llama_block.inputs.pt")));
        ctl()->values()->loadExpected(irFixture(QStringLiteral("llama_block.expected.pt")));
        ctl()->values()->loadReferenceIntermediates(irFixture(QStringLiteral("llama_block.intermediates.pt")));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        watchNewModels();
        // Step a few nodes (the differences grow a row at a time), then run on.
        for (int i = 0; i < 5; ++i) {
            debug_.stepAction->trigger();
            QVERIFY(irscope::test::waitIdle(*ctl()));
        }
        debug_.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(!ctl()->checks()->errorRows().empty());
        // A tensor in the viewer: its slice model comes to life.
        const auto& nodes = window_->session()->document()->graph.nodes;
        ctl()->tensors()->showTensor(QString::fromStdString(nodes.back().outputs.front().name));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        watchNewModels();
        // Filters over the weights and the module tree.
        debug_.weights->nameFilter()->setText(QStringLiteral("norm"));
        debug_.weights->nameFilter()->setText(QStringLiteral("/[/"));
        debug_.weights->nameFilter()->clear();
        window_->panelAs<ModulesPanel>(kModulesPanel)->setFilterText(QStringLiteral("attn"));
        window_->panelAs<ModulesPanel>(kModulesPanel)->setFilterText(QString());
        // Reset and run again: every row goes and comes back.
        debug_.resetAction->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
        debug_.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }

    void anotherModelThenACompare() {
        openIr(QStringLiteral("tiny_moe.json"));
        ctl()->values()->loadWeights(irFixture(QStringLiteral("tiny_moe.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        openIr(QStringLiteral("tiny_llama.json"));
        QSignalSpy ready(compare_.session, &CompareSession::diffReady);
        compare_.session->open(irFixture(QStringLiteral("diff/tiny_llama_seq4.json")));
        QVERIFY(ready.wait(30000));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        watchNewModels();                                                      // the changes list
        compare_.session->open(irFixture(QStringLiteral("tiny_llama.json")));  // another B: the rows start over
        QVERIFY(ready.wait(30000));
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }

    // Values for the weights the table already shows (a state_dict loaded)
    // change its value columns and keep the rows and their sorted order: a
    // reset would sort 70,000 rows again on the UI thread. Another document,
    // even the same model's meta twin, starts the rows over.
    void newValuesForTheSameWeightsKeepTheRows() {
        openIr(QStringLiteral("llama_block.meta.json"));
        QTableView* table = debug_.weights->table();
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(table->model());
        QVERIFY(proxy);
        QAbstractItemModel* rows = proxy->sourceModel();
        const int count = rows->rowCount();
        QVERIFY(count > 0);
        const QString firstShown = proxy->index(0, 0).data().toString();
        QSignalSpy resets(rows, &QAbstractItemModel::modelReset);
        QSignalSpy changed(rows, &QAbstractItemModel::dataChanged);
        ctl()->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        table = debug_.weights->table();  // (brings an owed refresh forward)
        QCOMPARE(resets.count(), 0);
        QVERIFY(!changed.isEmpty());
        const auto topLeft = changed.last().at(0).value<QModelIndex>();
        const auto bottomRight = changed.last().at(1).value<QModelIndex>();
        QCOMPARE(topLeft.row(), 0);
        QCOMPARE(bottomRight.row(), count - 1);
        QCOMPARE(topLeft.column(), 5);  // from the loaded shape on: names, kind and IR meta stay
        QCOMPARE(rows->rowCount(), count);
        QCOMPARE(proxy->index(0, 0).data().toString(), firstShown);
        int loaded = 0;
        for (int r = 0; r < proxy->rowCount(); ++r)
            loaded += proxy->index(r, 7).data().toString().startsWith(QStringLiteral("loaded"));
        QVERIFY2(loaded > 0, "the loaded values are shown");
        openIr(QStringLiteral("llama_block.json"));
        debug_.weights->table();
        QVERIFY(resets.count() >= 1);
    }

    // Each of irscope's own models was among those watched (the weights and
    // inputs tables by their views: their models carry no class name of
    // their own).
    void everyModelWasWatched() {
        for (const char* name : {"irscope::widgets::DifferencesModel", "irscope::widgets::ChangesModel",
                                 "irscope::widgets::ModuleTreeModel", "irscope::widgets::SliceModel",
                                 "irscope::widgets::DifferencesFilter"})
            QVERIFY2(seen_.contains(QLatin1String(name)), qPrintable(QStringList(seen_.values()).join(", ")));
        for (QTableView* view : {debug_.weights->table(), debug_.inputs->table()}) {
            QAbstractItemModel* model = view->model();
            QVERIFY(watched_.contains(model));
            if (auto* proxy = qobject_cast<QSortFilterProxyModel*>(model))
                QVERIFY(watched_.contains(proxy->sourceModel()));
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestItemModels)
#include "test_item_models.moc"

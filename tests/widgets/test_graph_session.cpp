// GraphSession without a window: asynchronous load with progress, cancel
// dropping a stale result, find, walking, flags, decorations.
#include <QSignalSpy>
#include <QTest>

#include "test_support.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;

using irscope::test::kData;

namespace {}

class TestGraphSession : public QObject {
    Q_OBJECT
private slots:
    void loadsAsynchronouslyWithProgress() {
        GraphSession s;
        QSignalSpy loaded(&s, &GraphSession::graphLoaded);
        QSignalSpy progress(&s, &GraphSession::loadProgress);
        s.openFile(kData + QStringLiteral("/ir/llama_block.json"));
        QVERIFY(s.isLoading());
        QVERIFY(!s.hasDocument());  // nothing blocks: the result comes later
        QVERIFY(loaded.wait(20000));
        QVERIFY(!s.isLoading());
        QVERIFY(progress.count() >= 2);
        QCOMPARE(s.document()->graph.nodes.size(), size_t(56));
        QVERIFY(s.layout() != nullptr);
        QCOMPARE(s.layout()->nodeItem.size(), size_t(56));
        for (int32_t item : s.layout()->nodeItem) QVERIFY(item >= 0);
    }

    void cancelDropsTheResult() {
        GraphSession s;
        QSignalSpy loaded(&s, &GraphSession::graphLoaded);
        QSignalSpy cancelled(&s, &GraphSession::loadCancelled);
        s.openFile(kData + QStringLiteral("/ir/resnet_tiny.json"));
        s.cancelLoad();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!s.isLoading());
        // Even if the worker had finished, its result must not be installed.
        QVERIFY(!loaded.wait(1500));
        QVERIFY(!s.hasDocument());
    }

    void newerOpenSupersedesOlder() {
        GraphSession s;
        QSignalSpy loaded(&s, &GraphSession::graphLoaded);
        s.openFile(kData + QStringLiteral("/ir/resnet_tiny.json"));
        s.openFile(kData + QStringLiteral("/ir/llama_block.json"));
        QVERIFY(loaded.wait(20000));
        QTest::qWait(300);
        QCOMPARE(loaded.count(), 1);
        QVERIFY(s.filePath().endsWith(QStringLiteral("llama_block.json")));
    }

    void findWalkFlagsDecorations() {
        GraphSession s;
        QSignalSpy loaded(&s, &GraphSession::graphLoaded);
        s.openFile(kData + QStringLiteral("/ir/llama_block.json"));
        QVERIFY(loaded.wait(20000));
        const auto& index = *s.document()->index;
        // Op type search is case-insensitive and finds every rsqrt.
        const auto hits = s.selectionModel()->find(QStringLiteral("RSQRT"));
        QCOMPARE(hits.size(), size_t(2));
        for (const auto& h : hits)
            QCOMPARE(s.document()->graph.nodes[h.index].opType, std::string("aten.rsqrt.default"));
        // A weight is found by its original name.
        const auto w = s.selectionModel()->find(QStringLiteral("norm1_weight"));
        QCOMPARE(w.size(), size_t(1));
        QCOMPARE(w[0].kind, RefKind::Weight);
        QCOMPARE(w[0].name, QStringLiteral("p_norm1_weight"));

        // Walking from the graph input goes down to a consumer and back up.
        s.selectionModel()->select(ItemRef::graphInput(0));
        QVERIFY(s.selectionModel()->walkToConsumer());
        QVERIFY(s.selectionModel()->selection().isNode());
        const int64_t consumer = s.selectionModel()->selection().index;
        const auto producers = index.producerNodes(consumer);
        QVERIFY(s.selectionModel()->walkToProducer());
        QCOMPARE(s.selectionModel()->selection(), ItemRef::graphInput(0));
        Q_UNUSED(producers);

        // Selecting a node is looking at it: the run stays where it stands
        // (the debugger alone moves it); the flags mark the selection only.
        const int64_t n = *index.nodeIndex("linear");
        QSignalSpy current(s.selectionModel(), &GraphSelection::runCursorChanged);
        const int64_t before = s.selectionModel()->runCursor();
        s.selectionModel()->select(ItemRef::node(n));
        QCOMPARE(s.selectionModel()->runCursor(), before);
        QCOMPARE(current.count(), 0);
        const int32_t item = s.layout()->nodeItem[n];
        QVERIFY(s.selectionModel()->itemFlags()[item] & kFlagSelected);
        QVERIFY(!(s.selectionModel()->itemFlags()[item] & kFlagRunCursor));
        // The run cursor, set by the debugger, marks its node whatever is selected.
        s.selectionModel()->setRunCursor(n);
        QVERIFY(s.selectionModel()->itemFlags()[item] & kFlagRunCursor);

        // Decorations (the debugger's hook) are stored per node and announced.
        QSignalSpy deco(s.decorations(), &GraphDecorations::decorationsChanged);
        NodeDecoration d;
        d.state = RunMark::Failed;
        d.overlay = QColor(Qt::red);
        s.decorations()->setNodeDecoration(n, d);
        QCOMPARE(deco.count(), 1);
        QVERIFY(s.decorations()->nodeDecoration(n) != nullptr);
        QCOMPARE(s.decorations()->nodeDecoration(n)->state, RunMark::Failed);
        QVERIFY(s.decorations()->nodeDecoration(n + 1) == nullptr);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestGraphSession)
#include "test_graph_session.moc"

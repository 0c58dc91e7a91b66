// Panels made after the window's first frame (PanelsAt::AfterFirstFrame, how
// the app starts: the graph is drawn before the docks' contents are made)
// hold what panels made with the window hold. For each file, two windows open
// it: one made its panels with itself, the other makes them once the document
// is in and a node is selected, before the document's debugger exists (the
// app makes them before its engine has loaded), or after it. Once both are idle, every
// dock reads the same (its title, whether it shows, its models' rows, labels,
// fields, buttons and tabs), and making the panels moved nothing in the
// window: the graph's view keeps its size and every dock its place.
#include <algorithm>
#include <functional>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTest>
#include <QTextEdit>
#include <QTreeView>

#include "test_support.h"
#include "wait_idle.h"
#include "widgets/compare/compare_session.h"
#include "widgets/compare/compare_ui.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;

namespace {

// A model's rows as text, children to depth 3, at most 300 rows per level.
void describeModel(const QAbstractItemModel& m, const QModelIndex& parent, int depth, const QString& at,
                   QStringList& out) {
    const int rows = m.rowCount(parent), columns = m.columnCount(parent);
    out << QStringLiteral("%1 rows=%2 columns=%3").arg(at).arg(rows).arg(columns);
    for (int r = 0; r < std::min(rows, 300); ++r) {
        QStringList cells;
        for (int c = 0; c < columns; ++c) cells << m.data(m.index(r, c, parent), Qt::DisplayRole).toString();
        out << QStringLiteral("%1[%2] %3").arg(at).arg(r).arg(cells.join(QLatin1Char('|')));
        if (depth < 3 && m.hasChildren(m.index(r, 0, parent)))
            describeModel(m, m.index(r, 0, parent), depth + 1, QStringLiteral("%1[%2]").arg(at).arg(r), out);
    }
}

// What a dock shows, widget by widget (sorted: the order of a panel's
// children is not what it shows).
QStringList describeDock(const QDockWidget& dock) {
    QStringList out;
    if (!dock.widget()) return out;
    for (const QWidget* w : dock.widget()->findChildren<QWidget*>()) {
        const QString at =
            QStringLiteral("%1 %2 %3").arg(dock.objectName(), w->metaObject()->className(), w->objectName());
        if (const auto* view = qobject_cast<const QAbstractItemView*>(w); view && view->model()) {
            describeModel(*view->model(), view->rootIndex(), 0, at, out);
            // A tree's expanded rows and current row are what it shows too.
            if (const auto* tree = qobject_cast<const QTreeView*>(view)) {
                QString expanded;
                const QAbstractItemModel& m = *tree->model();
                for (int r = 0; r < std::min(m.rowCount(tree->rootIndex()), 50); ++r)
                    expanded += tree->isExpanded(m.index(r, 0, tree->rootIndex())) ? u'+' : u'-';
                out << at + QStringLiteral(" expanded %1 current %2")
                                .arg(expanded, tree->currentIndex().data().toString());
            }
        } else if (const auto* label = qobject_cast<const QLabel*>(w))
            out << at + QStringLiteral(" label ") + label->text();
        else if (const auto* edit = qobject_cast<const QLineEdit*>(w))
            out << at + QStringLiteral(" edit ") + edit->text() + QLatin1Char('|') + edit->placeholderText();
        else if (const auto* button = qobject_cast<const QAbstractButton*>(w))
            out << at + QStringLiteral(" button %1 enabled=%2 checked=%3")
                            .arg(button->text())
                            .arg(button->isEnabled())
                            .arg(button->isChecked());
        else if (const auto* box = qobject_cast<const QComboBox*>(w))
            out << at + QStringLiteral(" combo %1 of %2").arg(box->currentText()).arg(box->count());
        else if (const auto* tabs = qobject_cast<const QTabBar*>(w))
            out << at + QStringLiteral(" tabs %1 of %2").arg(tabs->currentIndex()).arg(tabs->count());
        else if (const auto* text = qobject_cast<const QTextEdit*>(w))
            out << at + QStringLiteral(" text ") + text->toPlainText();
        else if (const auto* plain = qobject_cast<const QPlainTextEdit*>(w))
            out << at + QStringLiteral(" text ") + plain->toPlainText();
    }
    out.sort();
    out.prepend(QStringLiteral("dock %1 '%2' %3")
                    .arg(dock.objectName(), dock.windowTitle(),
                         dock.isVisible() ? QStringLiteral("shown") : QStringLiteral("hidden")));
    return out;
}

QStringList describeDocks(const MainWindow& w) {
    QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
    std::sort(docks.begin(), docks.end(),
              [](const QDockWidget* a, const QDockWidget* b) { return a->objectName() < b->objectName(); });
    QStringList out;
    for (const QDockWidget* dock : docks) out << describeDock(*dock);
    return out;
}

// The docks on screen and where; `named` false: only where (a dock raised in
// its tab group, as the pre-flight does for a missing constant, is no move).
QStringList dockPlaces(const MainWindow& w, bool named = true) {
    QStringList out;
    for (const QDockWidget* dock : w.findChildren<QDockWidget*>())
        if (!dock->visibleRegion().isEmpty())
            out << QStringLiteral("%1 %2,%3 %4x%5")
                       .arg(named ? dock->objectName() : QString())
                       .arg(dock->x())
                       .arg(dock->y())
                       .arg(dock->width())
                       .arg(dock->height());
    out.sort();
    return out;
}

struct Window {
    MainWindow* window = nullptr;
    DebuggerUi debug;
    CompareUi compare;
    ~Window() { delete window; }
};

}  // namespace

class TestPanelsAfterFirstFrame : public QObject {
    Q_OBJECT
private:
    // `beforeDebugger` connects to the window's session before the debugger
    // does: what it does on graphLoaded comes before the debugger hears of it.
    static void make(Window& w, PanelsAt panelsAt, const std::function<void()>& beforeDebugger = {}) {
        w.window = new MainWindow(nullptr, panelsAt);
        if (beforeDebugger) beforeDebugger();
        w.debug = installDebugger(*w.window);
        w.compare = installCompare(*w.window, w.debug.controller);
        w.window->resize(1400, 900);
        w.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.window));
    }

    // Opens `file` in both windows and selects `node`; the second window
    // starts making its panels right after the document came and the node
    // was selected (as the app does at its first frame, before its engine is
    // in), or, with `afterDebugger`, once the document's debugger is in and
    // idle. Then both windows are compared.
    // `compareWith`: both windows compare the file with that one, before the
    // late panels are made (with `afterDebugger`) or after.
    void compareWindows(const QString& file, const QString& node, bool afterDebugger = false,
                        const QString& compareWith = {}) {
        Window now, later;
        make(now, PanelsAt::Construction);
        bool selected = false, made = false;
        QSize viewBefore;
        QStringList placesBefore;
        const auto makePanels = [&] {
            selected = later.window->session()->selectionModel()->selectNodeByName(node, false);
            // The window as its first frame draws it (the breadcrumbs shown, laid out).
            QCoreApplication::sendPostedEvents();
            viewBefore = later.window->graphView()->size();
            placesBefore = dockPlaces(*later.window, false);
            later.window->makeDeferredPanels([&] {
                attachDebuggerPanels(*later.window, later.debug);
                attachComparePanels(*later.window, later.compare);
                made = true;
            });
        };
        make(later, PanelsAt::AfterFirstFrame, [&] {
            connect(later.window->session(), &GraphSession::graphLoaded, later.window, [&] {
                if (!afterDebugger) makePanels();
            });
        });
        if (QTest::currentTestFailed()) return;
        QVERIFY(later.window->panelsDeferred());
        QVERIFY(!later.debug.weights);  // not made yet: the docks wait empty

        QSignalSpy nowLoaded(now.window->session(), &GraphSession::graphLoaded);
        now.window->openFile(file);
        QVERIFY(nowLoaded.wait(30000));
        QVERIFY(now.window->session()->selectionModel()->selectNodeByName(node, false));
        const auto compare = [&compareWith](Window& w) {
            if (compareWith.isEmpty()) return true;
            QSignalSpy ready(w.compare.session, &CompareSession::diffReady);
            w.compare.session->open(compareWith);
            return ready.wait(30000);
        };
        QVERIFY(compare(now));

        QSignalSpy laterLoaded(later.window->session(), &GraphSession::graphLoaded);
        later.window->openFile(file);
        QVERIFY(laterLoaded.wait(30000));
        if (afterDebugger) {
            QVERIFY(irscope::test::waitIdle(*later.debug.controller));
            QVERIFY(later.debug.controller->hasDocument());
            QVERIFY(compare(later));
            makePanels();
        }
        QVERIFY(selected);
        QTRY_VERIFY_WITH_TIMEOUT(made, 30000);
        if (!afterDebugger) QVERIFY(compare(later));
        QVERIFY(!later.window->panelsDeferred());
        QVERIFY(later.debug.weights && later.debug.tensors && later.debug.missing && later.compare.changes);

        QVERIFY(irscope::test::waitIdle(*now.debug.controller));
        QVERIFY(irscope::test::waitIdle(*later.debug.controller));
        QTest::qWait(50);  // what the panels' own timers post (columns fitted, titles counted)

        if (compareWith.isEmpty()) {  // (a comparison moves the docks and halves the view on its own)
            QCOMPARE(later.window->graphView()->size(), viewBefore);
            QCOMPARE(dockPlaces(*later.window, false), placesBefore);
        }
        QCOMPARE(later.window->graphView()->size(), now.window->graphView()->size());
        QCOMPARE(dockPlaces(*later.window), dockPlaces(*now.window));
        const QStringList a = describeDocks(*now.window), b = describeDocks(*later.window);
        QVERIFY(a.size() > 40);  // the docks were read, not only counted
        for (int i = 0; i < std::min(a.size(), b.size()); ++i)
            if (a[i] != b[i])
                QFAIL(qPrintable(QStringLiteral("made with the window: %1\nmade after: %2").arg(a[i], b[i])));
        QCOMPARE(b.size(), a.size());
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aLlamaBlockIr() {
        compareWindows(irscope::test::irFixture(QStringLiteral("llama_block.json")), QStringLiteral("linear"));
    }

    // An archive: its own weights and example inputs load with the debugger.
    void aPt2Archive() {
        compareWindows(irscope::test::kData + QStringLiteral("/real/tiny_llama.pt2"), QStringLiteral("embedding"));
    }

    // A meta extraction's dropped constant: Diagnostics warns, and its dock's
    // title counts the warning.
    void aMetaExtractionWithAWarning() {
        compareWindows(irscope::test::irFixture(QStringLiteral("masked_linear.meta.json")), QStringLiteral("linear"));
    }

    // Made after the debugger: a panel shows what it finds when it is made.
    void panelsMadeAfterTheDebugger() {
        compareWindows(irscope::test::kData + QStringLiteral("/real/tiny_llama.pt2"), QStringLiteral("embedding"),
                       true);
    }

    // `irscope A --compare B`: the comparison may be done before the panels
    // are made, or come after them.
    void aComparison() {
        const QString a = irscope::test::irFixture(QStringLiteral("tiny_llama.json"));
        const QString b = irscope::test::irFixture(QStringLiteral("diff/tiny_llama_seq4.json"));
        compareWindows(a, QStringLiteral("embedding"), true, b);
        compareWindows(a, QStringLiteral("embedding"), false, b);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestPanelsAfterFirstFrame)
#include "test_panels_after_first_frame.moc"

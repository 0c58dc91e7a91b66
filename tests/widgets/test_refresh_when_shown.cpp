// RefreshWhenShown, how a panel rebuilds when the values change: a panel on
// screen at once, in the turn that brought them; a panel behind another tab
// once, when it is shown, however many changes came meanwhile; at once
// while its window is not shown (headless use); flush() brings a refresh
// that is owed forward, and nothing when none is.
//
// At once, not in a later turn: posted to the next turn, the Weights panel's
// first fill of a 70,000-weight MoE ran beside the worker's next job and
// took 450 ms of the UI thread, against ~20 ms inside the turn that brought
// the rows (bench/run_ui_silence.sh).
#include <QTabWidget>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>

#include "widgets/common/refresh_when_shown.h"

using namespace irscope::widgets;

namespace {

// A window with two tabs; `panel` is the second (behind the first until chosen).
struct TabbedWindow {
    QWidget window;
    QTabWidget* tabs = new QTabWidget;
    QWidget* front = new QWidget;
    QWidget* panel = new QWidget;
    int refreshes = 0;
    RefreshWhenShown* when = nullptr;

    TabbedWindow() {
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(tabs);
        tabs->addTab(front, QStringLiteral("front"));
        tabs->addTab(panel, QStringLiteral("panel"));
        when = new RefreshWhenShown(panel, [this] { ++refreshes; });
    }
    bool show(bool panelInFront) {
        tabs->setCurrentWidget(panelInFront ? panel : front);
        window.show();
        return QTest::qWaitForWindowExposed(&window);
    }
};

}  // namespace

class TestRefreshWhenShown : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aPanelOnScreenRefreshesAtOnce() {
        TabbedWindow w;
        QVERIFY(w.show(true));
        w.when->request();
        QCOMPARE(w.refreshes, 1);
        w.when->request();
        QCOMPARE(w.refreshes, 2);
        QTest::qWait(30);
        QCOMPARE(w.refreshes, 2);
    }

    void aPanelBehindAnotherTabRefreshesOnceWhenShown() {
        TabbedWindow w;
        QVERIFY(w.show(false));
        w.when->request();
        w.when->request();
        QTest::qWait(30);
        QCOMPARE(w.refreshes, 0);
        w.tabs->setCurrentWidget(w.panel);
        QCOMPARE(w.refreshes, 1);  // as it is shown, before it is painted
        w.tabs->setCurrentWidget(w.front);
        w.tabs->setCurrentWidget(w.panel);
        QCOMPARE(w.refreshes, 1);  // nothing owed: shown again, not rebuilt
    }

    void withItsWindowNotShownItRefreshesAtOnce() {
        TabbedWindow w;
        w.when->request();
        QCOMPARE(w.refreshes, 1);
    }

    void flushBringsAnOwedRefreshForward() {
        TabbedWindow w;
        QVERIFY(w.show(false));
        w.when->flush();
        QCOMPARE(w.refreshes, 0);  // none owed
        w.when->request();
        w.when->flush();  // whoever reads the hidden panel sees the new values
        QCOMPARE(w.refreshes, 1);
        w.tabs->setCurrentWidget(w.panel);
        QCOMPARE(w.refreshes, 1);  // paid already
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestRefreshWhenShown)
#include "test_refresh_when_shown.moc"

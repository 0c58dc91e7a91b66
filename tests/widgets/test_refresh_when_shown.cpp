// RefreshWhenShown, how a panel rebuilds when the values change: a panel on
// screen once, in the event loop's next turn (so that the turn that brought
// 70,000 weights is not also every panel's rebuild), however many requests
// came; a panel behind another tab once, when it is shown; at once while its
// window is not shown (headless use); flush() brings a refresh that is owed
// forward, and a posted one then does nothing more.
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
    void aPanelOnScreenRefreshesOnceInTheNextTurn() {
        TabbedWindow w;
        QVERIFY(w.show(true));
        w.when->request();
        w.when->request();
        w.when->request();
        QCOMPARE(w.refreshes, 0);  // not inside the turn that asked
        QTRY_COMPARE(w.refreshes, 1);
        QTest::qWait(30);
        QCOMPARE(w.refreshes, 1);  // three requests, one refresh
        w.when->request();         // a later change gets a refresh of its own
        QTRY_COMPARE(w.refreshes, 2);
    }

    void aPanelBehindAnotherTabRefreshesWhenShown() {
        TabbedWindow w;
        QVERIFY(w.show(false));
        w.when->request();
        w.when->request();
        QTest::qWait(30);
        QCOMPARE(w.refreshes, 0);
        w.tabs->setCurrentWidget(w.panel);
        QCOMPARE(w.refreshes, 1);  // as it is shown, before it is painted
        QTest::qWait(30);
        QCOMPARE(w.refreshes, 1);
        w.tabs->setCurrentWidget(w.front);
        w.tabs->setCurrentWidget(w.panel);
        QCOMPARE(w.refreshes, 1);  // nothing owed: shown again, not rebuilt
    }

    void withItsWindowNotShownItRefreshesAtOnce() {
        TabbedWindow w;
        w.when->request();
        QCOMPARE(w.refreshes, 1);
        w.when->request();
        QCOMPARE(w.refreshes, 2);
    }

    void flushBringsAnOwedRefreshForward() {
        TabbedWindow w;
        QVERIFY(w.show(true));
        w.when->request();
        w.when->flush();  // whoever reads the panel now sees the new values
        QCOMPARE(w.refreshes, 1);
        QTest::qWait(30);
        QCOMPARE(w.refreshes, 1);  // the posted turn finds nothing owed
        w.when->flush();
        QCOMPARE(w.refreshes, 1);
    }

    void aPanelHiddenBeforeItsTurnRefreshesWhenShownAgain() {
        TabbedWindow w;
        QVERIFY(w.show(true));
        w.when->request();
        w.tabs->setCurrentWidget(w.front);  // hidden before the posted turn came
        QTest::qWait(30);
        QCOMPARE(w.refreshes, 0);
        w.tabs->setCurrentWidget(w.panel);
        QCOMPARE(w.refreshes, 1);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestRefreshWhenShown)
#include "test_refresh_when_shown.moc"

// Desktop integration in the window: File ▸ Open Recent keeps the
// nine files opened last with Ctrl+1..9 and drops the ones that vanished;
// `irscope FILE` hands FILE to the window already open (as a file manager's
// double-click does) and exits, unless --new-window; a socket left by a
// crashed window is taken over.
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLocalSocket>
#include <QMenu>
#include <QPointer>
#include <QProcess>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "test_support.h"
#include "widgets/compare/compare_ui.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/main_window/handoff_message.h"
#include "widgets/main_window/main_window.h"
#include "widgets/main_window/recent_files.h"
#include "widgets/main_window/single_instance.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;

using irscope::test::kData;

namespace {
QString touch(const QTemporaryDir& dir, const QString& name) {
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write("{}");
    return f.fileName();
}
}  // namespace

class TestDesktopIntegration : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("recentFiles"));
        // A socket of this test's own, apart from any irscope window open on this machine.
        qputenv("XDG_RUNTIME_DIR", dir_.path().toUtf8());
        qputenv("DISPLAY", QByteArray(":irscope-test-") + QByteArray::number(QCoreApplication::applicationPid()));
    }

    // Every dock is where the user left it on the next launch, the ones the
    // debugger and the comparison add after the window is made included
    // (they came back in their default places).
    void everyDockIsWhereItWasLeft() {
        // Settings of its own: the suites of this executable run side by side
        // under ctest -j and share one settings file; a window of theirs
        // restoring this test's moved docks would lose its room.
        const QString app = QCoreApplication::applicationName();
        QCoreApplication::setApplicationName(app + QStringLiteral("-dock-places"));
        auto restoreName = qScopeGuard([app] {
            QSettings().clear();
            QCoreApplication::setApplicationName(app);
        });
        QSettings().remove(QStringLiteral("mainWindow"));
        QPointer<QDockWidget> differences, changes, properties;
        {
            MainWindow w;
            DebuggerUi ui = installDebugger(w);
            CompareUi compare = installCompare(w, ui.controller);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.dockWidgetArea(ui.differencesDock), Qt::BottomDockWidgetArea);
            w.removeDockWidget(ui.differencesDock);
            w.addDockWidget(Qt::LeftDockWidgetArea, ui.differencesDock);
            ui.differencesDock->show();
            w.removeDockWidget(compare.changesDock);
            w.addDockWidget(Qt::TopDockWidgetArea, compare.changesDock);
            compare.changesDock->show();
            QVERIFY(w.close());  // saves the layout
        }
        MainWindow w;
        DebuggerUi ui = installDebugger(w);
        CompareUi compare = installCompare(w, ui.controller);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.dockWidgetArea(ui.differencesDock), Qt::LeftDockWidgetArea);
        QCOMPARE(w.dockWidgetArea(compare.changesDock), Qt::TopDockWidgetArea);
        QVERIFY(!ui.differencesDock->isHidden());
    }

    void recentFilesKeepNineNewestFirst() {
        QMenu menu;
        RecentFiles recent(&menu);
        QStringList paths;
        for (int i = 0; i < 11; ++i) paths << touch(dir_, QStringLiteral("m%1.json").arg(i));
        for (const QString& p : paths) recent.add(p);
        QCOMPARE(recent.files().size(), 9);
        QCOMPARE(recent.files().front(), paths.last());
        QVERIFY(!recent.files().contains(paths[0]) && !recent.files().contains(paths[1]));
        const auto actions = menu.actions();
        QCOMPARE(actions[0]->text(), QStringLiteral("&1  m10.json"));
        QCOMPARE(actions[0]->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_1));
        QCOMPARE(actions[8]->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_9));
        // Reopening one moves it to the top.
        recent.add(paths[5]);
        QCOMPARE(recent.files().front(), paths[5]);
        QCOMPARE(recent.files().size(), 9);
    }

    // Five model.json: each entry shows the fewest folders that set it apart.
    void recentFilesTellSameNamesApart() {
        const QStringList paths = {"/data/exp1/run3/model.json", "/data/exp2/run3/model.json",
                                   "/data/exp1/run4/model.json", "/home/me/model.json",
                                   "/data/exp1/run3/other.json", "/model.json"};
        QCOMPARE(recentFileLabels(paths),
                 (QStringList{"model.json — …/exp1/run3", "model.json — …/exp2/run3", "model.json — …/run4",
                              "model.json — …/me", "other.json", "model.json — /"}));
        // In the menu, numbered, with the whole path as the tip.
        QMenu menu;
        RecentFiles recent(&menu);
        recent.clear();
        QTemporaryDir a, b;
        auto make = [](const QTemporaryDir& d) {
            QDir(d.path()).mkpath(QStringLiteral("run3"));
            QFile f(d.filePath(QStringLiteral("run3/model.json")));
            f.open(QIODevice::WriteOnly);
            f.write("{}");
            return f.fileName();
        };
        const QString first = make(a), second = make(b);
        recent.add(first);
        recent.add(second);
        const QString other = QFileInfo(a.path()).fileName(), newest = QFileInfo(b.path()).fileName();
        QCOMPARE(menu.actions()[0]->text(), QStringLiteral("&1  model.json — …/%1/run3").arg(newest));
        QCOMPARE(menu.actions()[1]->text(), QStringLiteral("&2  model.json — …/%1/run3").arg(other));
        QCOMPARE(menu.actions()[1]->toolTip(), first);
    }

    void vanishedFilesAreDropped() {
        QMenu menu;
        RecentFiles recent(&menu);
        recent.clear();
        const QString a = touch(dir_, QStringLiteral("a.json")), b = touch(dir_, QStringLiteral("b.json")),
                      c = touch(dir_, QStringLiteral("c.json"));
        recent.add(a);
        recent.add(b);
        recent.add(c);
        QFile::remove(b);
        emit menu.aboutToShow();  // opening the menu looks again
        QCOMPARE(recent.files(), (QStringList{c, a}));
        QFile::remove(c);
        QSignalSpy vanished(&recent, &RecentFiles::vanished);
        QSignalSpy open(&recent, &RecentFiles::openRequested);
        menu.actions()[0]->trigger();  // c, gone since the menu was built
        QCOMPARE(vanished.size(), 1);
        QCOMPARE(open.size(), 0);
        QCOMPARE(recent.files(), QStringList{a});
        // Loading the saved list drops what is gone too.
        QSettings().setValue(QStringLiteral("recentFiles"), QStringList{b, a});
        recent.load();
        QCOMPARE(recent.files(), QStringList{a});
    }

    // Ctrl+2 in the window opens the file opened before the current one.
    void ctrlNumberOpensARecentFile() {
        QSettings().remove(QStringLiteral("recentFiles"));
        MainWindow w;
        w.show();
        QSignalSpy loaded(w.session(), &GraphSession::graphLoaded);
        w.openFile(kData + QStringLiteral("/ir/simple_mlp.json"));
        QVERIFY(loaded.wait(20000));
        w.openFile(kData + QStringLiteral("/ir/diff/diffnet.json"));
        QVERIFY(loaded.wait(20000));
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        QVERIFY(loaded.wait(20000));
        QVERIFY2(w.session()->filePath().endsWith(QLatin1String("simple_mlp.json")),
                 qPrintable(w.session()->filePath()));
    }

    void secondLaunchHandsItsFileToTheOpenWindow() {
        SingleInstance window;
        QVERIFY(window.listen());
        QSignalSpy received(&window, &SingleInstance::filesReceived);
        QProcess p;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());  // our XDG_RUNTIME_DIR and DISPLAY
        p.setWorkingDirectory(kData + QStringLiteral("/ir"));
        p.start(QString::fromUtf8(IRSCOPE_BINARY), {QStringLiteral("simple_mlp.json")});  // relative: sent absolute
        QVERIFY(received.wait(20000));
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(received.first().first().toStringList(),
                 QStringList{QDir(kData + QStringLiteral("/ir")).absoluteFilePath(QStringLiteral("simple_mlp.json"))});
    }

    void newWindowDoesNotHandOff() {
        SingleInstance window;
        QVERIFY(window.listen());
        QSignalSpy received(&window, &SingleInstance::filesReceived);
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QString::fromUtf8(IRSCOPE_BINARY),
                {kData + QStringLiteral("/ir/simple_mlp.json"), QStringLiteral("--new-window")});
        QVERIFY(p.waitForStarted());
        QVERIFY(!received.wait(3000));
        QCOMPARE(p.state(), QProcess::Running);  // its own window
        p.kill();
        p.waitForFinished();
    }

    // Any process of the user can write to the socket: only a list of
    // absolute paths ended by an empty line opens anything; the rest is
    // answered "refused: <reason>" and the connection closed.
    void malformedMessagesAreRefusedWithoutOpening_data() {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << QByteArray("\n") << QStringLiteral("names no file");
        QTest::newRow("relative") << QByteArray("model.json\n\n") << QStringLiteral("line 1 is not an absolute path");
        QTest::newRow("binary") << QByteArray("/tmp/a.json\n\xff\xfe\x00\x01\n\n", 18)
                                << QStringLiteral("line 2 is not UTF-8 text");
        QTest::newRow("control") << QByteArray("/tmp/a\x1b[2J.json\n\n")
                                 << QStringLiteral("line 1 holds a control character");
        QTest::newRow("oversized") << QByteArray(70 * 1024, 'a') << QStringLiteral("longer than");
        QTest::newRow("two messages") << QByteArray("/tmp/a.json\n\n/tmp/b.json\n\n")
                                      << QStringLiteral("bytes follow the end");
    }
    void malformedMessagesAreRefusedWithoutOpening() {
        QFETCH(QByteArray, message);
        QFETCH(QString, reason);
        SingleInstance window;
        QVERIFY(window.listen());
        QSignalSpy received(&window, &SingleInstance::filesReceived);
        QSignalSpy refused(&window, &SingleInstance::messageRefused);
        QLocalSocket socket;
        socket.connectToServer(SingleInstance::socketPath());
        QVERIFY(socket.waitForConnected(5000));
        socket.write(message);
        socket.flush();
        QTRY_VERIFY_WITH_TIMEOUT(socket.canReadLine(), 5000);
        const QByteArray answer = socket.readLine();
        QVERIFY2(answer.startsWith("refused: ") && answer.contains(reason.toUtf8()), answer.constData());
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), QLocalSocket::UnconnectedState, 5000);
        QCOMPARE(refused.count(), 1);
        QCOMPARE(received.count(), 0);
    }

    void anUnendedMessageIsDropped() {
        SingleInstance window;
        window.setMessageTimeout(300);
        QVERIFY(window.listen());
        QSignalSpy received(&window, &SingleInstance::filesReceived);
        QLocalSocket socket;
        socket.connectToServer(SingleInstance::socketPath());
        QVERIFY(socket.waitForConnected(5000));
        socket.write("/tmp/a.json\n");  // no empty line, ever
        socket.flush();
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), QLocalSocket::UnconnectedState, 5000);
        QCOMPARE(received.count(), 0);
    }

    // A message may arrive in pieces; split anywhere it is still one list.
    void aMessageInPiecesIsOneList() {
        const std::string whole = "/tmp/ä b.json\n/tmp/c.pt2\n\n";
        for (size_t cut = 0; cut <= whole.size(); ++cut) {
            HandoffMessage m;
            m.feed(std::string_view(whole).substr(0, cut));
            QCOMPARE(m.feed(std::string_view(whole).substr(cut)), HandoffMessage::State::Complete);
            QCOMPARE(m.files().size(), size_t(2));
            QCOMPARE(QString::fromStdString(m.files()[0]), QStringLiteral("/tmp/ä b.json"));
        }
        HandoffMessage overlong;  // a truncated UTF-8 sequence and an overlong '/'
        QCOMPARE(overlong.feed("/tmp/\xc3\n\n"), HandoffMessage::State::Refused);
        HandoffMessage slash;
        QCOMPARE(slash.feed("/tmp/\xc0\xaf\n\n"), HandoffMessage::State::Refused);
    }

    // A socket file left by a window that crashed answers nobody: taken over.
    void staleSocketIsTakenOver() {
        {
            QFile stale(SingleInstance::socketPath());
            QVERIFY(stale.open(QIODevice::WriteOnly));
        }
        SingleInstance window;
        QVERIFY(window.listen());
        QSignalSpy received(&window, &SingleInstance::filesReceived);
        QProcess p;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(QString::fromUtf8(IRSCOPE_BINARY), {kData + QStringLiteral("/ir/simple_mlp.json")});
        QVERIFY(received.wait(20000));
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestDesktopIntegration)
#include "test_desktop_integration.moc"

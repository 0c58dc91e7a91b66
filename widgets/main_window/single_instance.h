#pragma once
// SingleInstance: opening a file from the file manager (`irscope FILE`, with
// no other option) hands it to the irscope window already open for this user
// and display, as desktop viewers do, instead of starting a second one; the
// running window opens it and comes to the front. `--new-window` opts out.
// A Unix stream socket at $XDG_RUNTIME_DIR/irscope-<display>.socket (the temp
// folder, per user, without XDG_RUNTIME_DIR); a socket left by a crash is
// taken over.
//
// The socket is the system's own (socket(2), watched by a QSocketNotifier),
// not QLocalServer: Qt Network and the Kerberos, proxy and compression
// libraries it needs would load before every window's first frame, for a
// socket most starts never read.
//
// Protocol (HandoffMessage): the newcomer writes the absolute paths, one per
// line, then an empty line; the window answers "ok\n" once it has them, or
// "refused: <reason>\n" and opens nothing. Only this user's processes are
// answered; a message not ended within a few seconds is dropped.
#include <QObject>
#include <QStringList>

class QSocketNotifier;

namespace irscope::widgets {

class SingleInstance : public QObject {
    Q_OBJECT
public:
    explicit SingleInstance(QObject* parent = nullptr);
    ~SingleInstance() override;

    // The socket's path for this user and display.
    static QString socketPath();
    // Hands `files` (absolute paths) to a running window; true when it took
    // them (then this process should exit).
    static bool handOff(const QStringList& files, int timeoutMs = 2000);

    // Starts answering newcomers; false when the socket cannot be made.
    bool listen();

    // How long a connection may take to finish its message (5 s).
    void setMessageTimeout(int ms) { messageTimeoutMs_ = ms; }

signals:
    void filesReceived(const QStringList& files);
    // A message that was not a list of files (the window shows nothing of it).
    void messageRefused(const QString& reason);

private:
    void acceptPending();
    void answer(int fd);

    int listening_ = -1;
    QString boundPath_;
    QSocketNotifier* newcomers_ = nullptr;
    int messageTimeoutMs_ = 5000;
};

}  // namespace irscope::widgets

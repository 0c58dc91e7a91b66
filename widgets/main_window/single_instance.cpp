#include "widgets/main_window/single_instance.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QTimer>

#include "widgets/main_window/handoff_message.h"

namespace irscope::widgets {

namespace {

// The uid of the process at the other end of a connected local socket (-1
// when the system does not say).
long peerUid(int fd) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    return static_cast<long>(cred.uid);
}

// The socket's address; nothing when the path does not fit in one.
std::optional<sockaddr_un> addressOf(const QString& path) {
    const QByteArray bytes = QFile::encodeName(path);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (bytes.isEmpty() || static_cast<size_t>(bytes.size()) >= sizeof address.sun_path) return std::nullopt;
    std::memcpy(address.sun_path, bytes.constData(), static_cast<size_t>(bytes.size()));
    return address;
}

int connectTo(const sockaddr_un& address, int type) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | type, 0);
    if (fd < 0) return -1;
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) return fd;
    // A non-blocking connect to a listener whose queue is full says EAGAIN:
    // someone is there all the same.
    const bool listenerBusy = errno == EAGAIN;
    ::close(fd);
    return listenerBusy ? -2 : -1;
}

bool sendAll(int fd, const QByteArray& bytes) {
    qsizetype sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.constData() + sent, static_cast<size_t>(bytes.size() - sent), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        sent += n;
    }
    return true;
}

// One newcomer's connection: its message read as it arrives, one answer,
// then the connection closed (when this is deleted).
class Conversation : public QObject {
public:
    Conversation(int fd, QObject* parent)
        : QObject(parent), fd_(fd), readable_(new QSocketNotifier(fd, QSocketNotifier::Read, this)) {}
    ~Conversation() override {
        delete readable_;  // off the event dispatcher before the descriptor goes
        ::close(fd_);
    }
    int fd() const { return fd_; }
    QSocketNotifier* readable() const { return readable_; }
    HandoffMessage message;

    void reply(const QByteArray& line) {
        readable_->setEnabled(false);
        // The socket is non-blocking; a one-line answer fits its buffer.
        sendAll(fd_, line);
        deleteLater();
    }

private:
    int fd_;
    QSocketNotifier* readable_;
};

}  // namespace

SingleInstance::SingleInstance(QObject* parent) : QObject(parent) {}

SingleInstance::~SingleInstance() {
    if (listening_ < 0) return;
    delete newcomers_;
    ::close(listening_);
    ::unlink(QFile::encodeName(boundPath_).constData());
}

QString SingleInstance::socketPath() {
    QString display = qEnvironmentVariable("WAYLAND_DISPLAY");
    if (display.isEmpty()) display = qEnvironmentVariable("DISPLAY");
    display.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
    if (display.isEmpty()) display = QStringLiteral("none");
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QDir(runtime).exists())
        return runtime + QStringLiteral("/irscope-%1.socket").arg(display);
    return QDir::tempPath() + QStringLiteral("/irscope-%1-%2.socket").arg(getuid()).arg(display);
}

bool SingleInstance::handOff(const QStringList& files, int timeoutMs) {
    const auto address = addressOf(socketPath());
    if (!address) return false;
    const int fd = connectTo(*address, 0);
    if (fd < 0) return false;
    // Each wait (connect's, every send and read) gives up after timeoutMs.
    const timeval limit{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    QByteArray message;
    for (const QString& f : files) message += f.toUtf8() + '\n';
    message += '\n';
    QByteArray answer;
    if (sendAll(fd, message)) {
        char buffer[256];
        while (!answer.contains('\n') && answer.size() < 4096) {
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            answer.append(buffer, n);
        }
    }
    ::close(fd);
    return answer == "ok\n";
}

bool SingleInstance::listen() {
    if (listening_ >= 0) return true;
    const QString path = socketPath();
    const auto address = addressOf(path);
    if (!address) return false;
    const QByteArray file = QFile::encodeName(path);
    const auto bindThere = [&]() -> int {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) return -1;
        // Only this user may connect: the socket file is made private, and
        // each connection's peer is checked too (a socket in a shared folder).
        if (::bind(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof *address) == 0 &&
            ::chmod(file.constData(), S_IRUSR | S_IWUSR) == 0 && ::listen(fd, 16) == 0)
            return fd;
        const int error = errno;
        ::close(fd);
        errno = error;
        return -1;
    };
    int fd = bindThere();
    if (fd < 0 && errno == EADDRINUSE) {
        // Another window answers there (one opened with --new-window): it keeps it.
        if (const int probe = connectTo(*address, SOCK_NONBLOCK); probe != -1) {
            if (probe >= 0) ::close(probe);
            return false;
        }
        // A socket file nobody answers on (the last window crashed): take it over.
        ::unlink(file.constData());
        fd = bindThere();
    }
    if (fd < 0) return false;
    listening_ = fd;
    boundPath_ = path;
    newcomers_ = new QSocketNotifier(fd, QSocketNotifier::Read, this);
    connect(newcomers_, &QSocketNotifier::activated, this, &SingleInstance::acceptPending);
    return true;
}

void SingleInstance::acceptPending() {
    for (;;) {
        const int fd = ::accept4(listening_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            return;  // EAGAIN: none left
        }
        if (peerUid(fd) != static_cast<long>(getuid())) {
            ::close(fd);
            continue;
        }
        answer(fd);
    }
}

void SingleInstance::answer(int fd) {
    auto* conversation = new Conversation(fd, this);
    // A message that never ends is dropped, not waited for.
    auto* deadline = new QTimer(conversation);
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, conversation,
            [conversation] { conversation->reply("refused: the message did not end\n"); });
    deadline->start(messageTimeoutMs_);
    connect(conversation->readable(), &QSocketNotifier::activated, conversation, [this, conversation, deadline] {
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::recv(conversation->fd(), buffer, sizeof buffer, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return;  // EAGAIN: the rest is still to come
            if (n == 0) {       // the newcomer left before ending its message
                conversation->readable()->setEnabled(false);
                conversation->deleteLater();
                return;
            }
            HandoffMessage& message = conversation->message;
            switch (message.feed(std::string_view(buffer, static_cast<size_t>(n)))) {
            case HandoffMessage::State::Incomplete: continue;
            case HandoffMessage::State::Refused:
                deadline->stop();
                conversation->reply("refused: " + QByteArray::fromStdString(message.reason()) + '\n');
                emit messageRefused(QString::fromStdString(message.reason()));
                return;
            case HandoffMessage::State::Complete: {
                deadline->stop();
                QStringList files;
                for (const auto& f : message.files()) files << QString::fromStdString(f);
                conversation->reply("ok\n");  // before the window gets busy opening them
                emit filesReceived(files);
                return;
            }
            }
        }
    });
}

}  // namespace irscope::widgets

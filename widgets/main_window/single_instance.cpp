#include "widgets/main_window/single_instance.h"

#include <sys/socket.h>
#include <unistd.h>

#include <memory>

#include <QDir>
#include <QLocalServer>
#include <QLocalSocket>
#include <QRegularExpression>
#include <QTimer>

#include "widgets/main_window/handoff_message.h"

namespace irscope::widgets {

namespace {

// The uid of the process at the other end of a connected local socket (-1
// when the system does not say).
long peerUid(qintptr descriptor) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (descriptor < 0 || getsockopt(static_cast<int>(descriptor), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
        return -1;
    return static_cast<long>(cred.uid);
}

}  // namespace

SingleInstance::SingleInstance(QObject* parent) : QObject(parent), server_(new QLocalServer(this)) {
    // Only this user may connect: the socket file is made private, and each
    // connection's peer is checked too (a socket in a shared temp folder).
    server_->setSocketOptions(QLocalServer::UserAccessOption);
    connect(server_, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket* socket = server_->nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            if (peerUid(socket->socketDescriptor()) != static_cast<long>(getuid())) {
                socket->abort();
                continue;
            }
            auto message = std::make_shared<HandoffMessage>();
            // A message that never ends is dropped, not waited for.
            auto* deadline = new QTimer(socket);
            deadline->setSingleShot(true);
            connect(deadline, &QTimer::timeout, socket, [socket] {
                socket->write("refused: the message did not end\n");
                socket->disconnectFromServer();
            });
            deadline->start(messageTimeoutMs_);
            connect(socket, &QLocalSocket::readyRead, socket, [this, socket, message, deadline] {
                const QByteArray bytes = socket->readAll();
                if (message->state() != HandoffMessage::State::Incomplete) return;
                switch (message->feed(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())))) {
                case HandoffMessage::State::Incomplete: return;
                case HandoffMessage::State::Refused:
                    deadline->stop();
                    socket->write("refused: " + QByteArray::fromStdString(message->reason()) + '\n');
                    socket->flush();
                    socket->disconnectFromServer();
                    emit messageRefused(QString::fromStdString(message->reason()));
                    return;
                case HandoffMessage::State::Complete: {
                    deadline->stop();
                    QStringList files;
                    for (const auto& f : message->files()) files << QString::fromStdString(f);
                    socket->write("ok\n");
                    socket->flush();  // before the window gets busy opening them
                    socket->disconnectFromServer();
                    emit filesReceived(files);
                    return;
                }
                }
            });
        }
    });
}

SingleInstance::~SingleInstance() { server_->close(); }

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
    QLocalSocket socket;
    socket.connectToServer(socketPath());
    if (!socket.waitForConnected(timeoutMs)) return false;
    QByteArray message;
    for (const QString& f : files) message += f.toUtf8() + '\n';
    message += '\n';
    socket.write(message);
    if (!socket.waitForBytesWritten(timeoutMs)) return false;
    while (!socket.canReadLine())
        if (!socket.waitForReadyRead(timeoutMs)) return false;
    return socket.readLine() == "ok\n";
}

bool SingleInstance::listen() {
    const QString path = socketPath();
    if (server_->listen(path)) return true;
    if (server_->serverError() != QAbstractSocket::AddressInUseError) return false;
    // Another window answers there (one opened with --new-window): it keeps it.
    QLocalSocket probe;
    probe.connectToServer(path);
    if (probe.waitForConnected(300)) return false;
    // A socket file nobody answers on (the last window crashed): take it over.
    QLocalServer::removeServer(path);
    return server_->listen(path);
}

}  // namespace irscope::widgets

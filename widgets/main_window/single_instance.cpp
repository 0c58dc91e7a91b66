#include "widgets/main_window/single_instance.h"

#include <unistd.h>

#include <QDir>
#include <QLocalServer>
#include <QLocalSocket>
#include <QRegularExpression>

namespace irscope::widgets {

SingleInstance::SingleInstance(QObject* parent) : QObject(parent), server_(new QLocalServer(this)) {
    connect(server_, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket* socket = server_->nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QLocalSocket::readyRead, socket, [this, socket] {
                QStringList files;
                while (socket->canReadLine()) {
                    const QString line = QString::fromUtf8(socket->readLine()).chopped(1);
                    if (!line.isEmpty()) {
                        socket->setProperty("files", socket->property("files").toStringList() << line);
                        continue;
                    }
                    files = socket->property("files").toStringList();  // the empty line: all there
                    socket->setProperty("files", QStringList());       // the next message starts afresh
                    socket->write("ok\n");
                    socket->flush();
                    // Any process of the user can connect: a message naming no file opens nothing.
                    if (!files.isEmpty()) emit filesReceived(files);
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

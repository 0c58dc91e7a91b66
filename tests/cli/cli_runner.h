#pragma once
// Runs the irscope binary under test and captures what it prints.
//
// A CLI suite runs the binary a hundred times or more, and most of each run
// is libtorch loading (0.5 s on Debian's libtorch 1.13, over 1 s under
// AddressSanitizer). So the suite starts the binary once as a fork server
// (`irscope --fork-server FD`, app/launcher/fork_server.h) and each run is a
// child forked from it: the binary's own main, a fresh process with its own
// stdout, stderr and exit status, without loading libtorch again. What is
// tested is the same binary and the same code path from main on; only the
// dynamic loading of the commands module happened before the fork. Suites
// that check start-up itself (which libraries a light command maps, the
// window) start the binary directly (runIrscopeDirect).
// IRSCOPE_TEST_NO_FORK_SERVER=1 starts every run directly.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app/launcher/fork_protocol.h"

extern char** environ;

namespace irscope::test {

struct CliResult {
    int exitCode = -1;  // -2: killed by a signal (a crash)
    QString out;
    QString err;
};

inline CliResult runIrscopeDirect(const QStringList& args, int timeoutMs = 120000) {
    QProcess process;
    process.start(IRSCOPE_BINARY, args);
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = "timed out";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

// The suite's one fork server; started on first use, gone when the suite's
// process ends (the server exits when its socket closes).
class ForkServerClient {
public:
    static ForkServerClient& instance() {
        static ForkServerClient client;
        return client;
    }

    bool usable() const { return fd_ >= 0; }

    // false when the server could not take the request (the caller then
    // starts the binary directly); a run that timed out is killed.
    bool run(const QStringList& args, int timeoutMs, CliResult& result) {
        if (fd_ < 0) return false;
        const int out = ::memfd_create("irscope-stdout", MFD_CLOEXEC);
        const int err = ::memfd_create("irscope-stderr", MFD_CLOEXEC);
        const bool ok = out >= 0 && err >= 0 && exchange(args, out, err, timeoutMs, result);
        if (ok) {
            result.out = QString::fromUtf8(readAll(out));
            if (result.err.isEmpty()) result.err = QString::fromUtf8(readAll(err));
        }
        if (out >= 0) ::close(out);
        if (err >= 0) ::close(err);
        return ok;
    }

private:
    ForkServerClient() {
        if (std::getenv("IRSCOPE_TEST_NO_FORK_SERVER")) return;
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return;
        ::fcntl(pair[0], F_SETFD, FD_CLOEXEC);  // ours; the server's end stays open across exec
        const std::string binary = IRSCOPE_BINARY;
        const std::string fdText = std::to_string(pair[1]);
        char* argv[] = {const_cast<char*>(binary.c_str()), const_cast<char*>("--fork-server"),
                        const_cast<char*>(fdText.c_str()), nullptr};
        pid_t pid = -1;
        const bool started = ::posix_spawn(&pid, binary.c_str(), nullptr, nullptr, argv, environ) == 0;
        ::close(pair[1]);
        if (!started) {
            ::close(pair[0]);
            return;
        }
        fd_ = pair[0];
        serverPid_ = pid;
    }
    ~ForkServerClient() {
        if (fd_ < 0) return;
        ::close(fd_);  // the server exits when its socket closes
        int status;
        ::waitpid(serverPid_, &status, 0);
    }

    static QByteArray readAll(int fd) {
        QByteArray bytes;
        ::lseek(fd, 0, SEEK_SET);
        char buffer[65536];
        for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) bytes.append(buffer, n);
        return bytes;
    }

    // Waits up to `ms` for `size` bytes; false on timeout or a closed socket.
    bool readInt(int32_t& value, qint64 ms) {
        char* p = reinterpret_cast<char*>(&value);
        size_t left = sizeof value;
        QElapsedTimer timer;
        timer.start();
        while (left > 0) {
            pollfd pfd{fd_, POLLIN, 0};
            const qint64 remaining = ms - timer.elapsed();
            if (remaining <= 0) return false;
            const int ready = ::poll(&pfd, 1, static_cast<int>(remaining));
            if (ready < 0 && errno == EINTR) continue;
            if (ready <= 0) return false;
            const ssize_t n = ::read(fd_, p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            p += n;
            left -= static_cast<size_t>(n);
        }
        return true;
    }

    void fail() {
        ::close(fd_);
        fd_ = -1;
    }

    bool exchange(const QStringList& args, int out, int err, int timeoutMs, CliResult& result) {
        QByteArray payload = QDir::currentPath().toUtf8() + '\0';
        for (const auto& a : args) payload += a.toUtf8() + '\0';
        namespace wire = irscope::app::fork_protocol;
        if (!wire::sendHeader(fd_, static_cast<uint32_t>(payload.size()), out, err) ||
            !wire::writeFully(fd_, payload.constData(), static_cast<size_t>(payload.size()))) {
            fail();
            return false;
        }
        int32_t pid = -1, status = 0;
        if (!readInt(pid, 30000) || pid <= 0) {
            fail();
            return false;
        }
        if (!readInt(status, timeoutMs)) {
            ::kill(pid, SIGKILL);  // as QProcess::kill on a run that timed out
            if (!readInt(status, 30000)) fail();
            result.exitCode = -1;
            result.err = "timed out";
            return true;
        }
        result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -2;
        return true;
    }

    int fd_ = -1;
    pid_t serverPid_ = -1;
};

inline CliResult runIrscope(const QStringList& args, int timeoutMs = 120000) {
    CliResult result;
    if (ForkServerClient::instance().run(args, timeoutMs, result)) return result;
    return runIrscopeDirect(args, timeoutMs);
}

// A JSON object from a file the CLI wrote ({} when it cannot be read).
inline QJsonObject readJsonFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace irscope::test

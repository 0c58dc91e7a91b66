#include "launcher/fork_server.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "launcher/fork_protocol.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

namespace irscope::app {

namespace {

using fork_protocol::readFully;
using fork_protocol::writeFully;

struct Request {
    int out = -1;
    int err = -1;
    std::string cwd;
    std::vector<std::string> args;  // argv[1..]
};

// The 4-byte header with its two descriptors, then the strings. false when
// the client hung up or sent something that is not a request.
bool receive(int fd, Request& request) {
    uint32_t size = 0;
    const bool got = fork_protocol::receiveHeader(fd, size, request.out, request.err);
    if (!got || request.out < 0 || request.err < 0 || size == 0 || size > fork_protocol::kMaxRequestBytes) return false;
    std::string payload(size, '\0');
    if (!readFully(fd, payload.data(), size) || payload.back() != '\0') return false;
    std::vector<std::string> strings;
    for (size_t at = 0; at < payload.size();) {
        const size_t end = payload.find('\0', at);
        strings.push_back(payload.substr(at, end - at));
        at = end + 1;
    }
    if (strings.empty() || strings.front().empty()) return false;
    request.cwd = strings.front();
    request.args.assign(strings.begin() + 1, strings.end());
    return true;
}

// Under AddressSanitizer, which children end with a leak check. The check
// scans the whole heap, and most of the heap is what libtorch built in the
// server before the fork: 0.4 s per child, 85% of a CLI suite's time under
// ASan. So a child checks for leaks when it is the first run of its command
// (`run`, `extract`, ...) this server forks, and whenever its command failed
// (the early returns where a leak hides); a repeat of a command that
// succeeded does not. What runs in process (the io, exec and widgets suites)
// is checked whole at its exit, as before.
struct LeakCheckPolicy {
    std::set<std::string> commandsChecked;
    // Decided in the server before the fork (a child cannot tell its siblings).
    bool firstOfItsCommand(const Request& request) {
        return commandsChecked.insert(request.args.empty() ? std::string() : request.args.front()).second;
    }
};

[[noreturn]] void runChild(int serverFd, const Request& request, bool firstOfItsCommand,
                           const std::function<int(int argc, char** argv)>& launch) {
    ::close(serverFd);
    if (::dup2(request.out, STDOUT_FILENO) < 0 || ::dup2(request.err, STDERR_FILENO) < 0) ::_exit(127);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    if (::chdir(request.cwd.c_str()) != 0) {
        std::cerr << "irscope: cannot enter " << request.cwd << ": " << std::strerror(errno) << "\n";
        std::exit(2);
    }
    static std::vector<std::string> storage;
    storage.assign(1, "irscope");
    storage.insert(storage.end(), request.args.begin(), request.args.end());
    static std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    const int code = launch(static_cast<int>(storage.size()), argv.data());
    // Flushed, then _exit: tearing down what the server loaded (libtorch
    // deregisters 2,000 operators from its static destructors, each page of
    // it copied on write first) took 0.1 s per child, longer than most
    // commands. Under AddressSanitizer the leak check that exit would run
    // runs here (LeakCheckPolicy).
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
#ifdef __SANITIZE_ADDRESS__
    if (firstOfItsCommand || code != 0) __lsan_do_leak_check();
#else
    (void)firstOfItsCommand;
#endif
    ::_exit(code);
}

}  // namespace

int serveForks(int fd, const std::function<int(int argc, char** argv)>& launch) {
    std::cout.flush();
    std::fflush(nullptr);
    LeakCheckPolicy leakChecks;
    for (;;) {
        Request request;
        if (!receive(fd, request)) {
            if (request.out >= 0) ::close(request.out);
            if (request.err >= 0) ::close(request.err);
            return 0;  // the client hung up (or spoke nonsense): nothing more to serve
        }
        const bool firstOfItsCommand = leakChecks.firstOfItsCommand(request);
        const pid_t pid = ::fork();
        if (pid == 0) runChild(fd, request, firstOfItsCommand, launch);
        ::close(request.out);
        ::close(request.err);
        const int32_t sentPid = pid;
        if (!writeFully(fd, &sentPid, sizeof sentPid)) return 0;
        if (pid < 0) continue;  // the client reads pid -1 as "could not start"
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        const int32_t sentStatus = status;
        if (!writeFully(fd, &sentStatus, sizeof sentStatus)) return 0;
    }
}

}  // namespace irscope::app

#pragma once
// The fork server's wire format (fork_server.h), shared by the server and
// its clients (the CLI test suites' tests/cli/cli_runner.h), so the two
// sides cannot drift apart. Header-only: a client links nothing of irscope.
//
// A request: uint32 size (host order) sent with SCM_RIGHTS carrying the
// child's stdout and stderr, then `size` bytes of NUL-terminated strings
// (working directory, then argv[1..]). The answers: int32 pid, then int32
// wait status.
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace irscope::app::fork_protocol {

inline constexpr uint32_t kMaxRequestBytes = 64u << 20;

// Whole buffers over a stream socket, retrying short reads and writes and
// EINTR; false when the peer went away. Writes never raise SIGPIPE.
inline bool readFully(int fd, void* data, size_t size) {
    char* p = static_cast<char*>(data);
    while (size > 0) {
        const ssize_t n = ::read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

inline bool writeFully(int fd, const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

// One header message: the 4-byte size and room for two descriptors. It points
// into itself, so it is neither copied nor moved.
struct HeaderMessage {
    alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
    iovec iov;
    msghdr msg{};
    explicit HeaderMessage(uint32_t& size) : iov{&size, sizeof size} {
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
    }
    HeaderMessage(const HeaderMessage&) = delete;
    HeaderMessage& operator=(const HeaderMessage&) = delete;
};

// The request header: `size` with the child's stdout and stderr attached.
inline bool sendHeader(int fd, uint32_t size, int out, int err) {
    HeaderMessage m(size);
    msghdr& msg = m.msg;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(2 * sizeof(int));
    const int fds[2] = {out, err};
    std::memcpy(CMSG_DATA(c), fds, sizeof fds);
    ssize_t n;
    do n = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n == static_cast<ssize_t>(sizeof size);
}

// Receives a header; `out` and `err` stay -1 when it carried no descriptors
// (close whichever arrived). false when the peer hung up or sent no header.
inline bool receiveHeader(int fd, uint32_t& size, int& out, int& err) {
    out = err = -1;
    HeaderMessage m(size);
    msghdr& msg = m.msg;
    ssize_t n;
    do n = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL);
    while (n < 0 && errno == EINTR);
    for (cmsghdr* c = n > 0 ? CMSG_FIRSTHDR(&msg) : nullptr; c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(2 * sizeof(int)))
            continue;
        int fds[2];
        std::memcpy(fds, CMSG_DATA(c), sizeof fds);
        out = fds[0];
        err = fds[1];
    }
    return n == static_cast<ssize_t>(sizeof size);
}

}  // namespace irscope::app::fork_protocol

#pragma once
// `irscope --fork-server FD`: many commands for one client, libtorch loaded once.
//
// Loading libtorch is most of what a short `irscope run` costs: 0.5 s on
// Debian's libtorch 1.13 (it maps OpenCV, FFmpeg and ~80 other libraries and
// registers 2,000 operators), over 1 s under AddressSanitizer. A test suite or
// a script that runs hundreds of commands pays that hundreds of times. The
// fork server loads the commands module once, then runs each request in a
// child forked from that warm process: a fresh address space, the request's
// own stdout, stderr and working directory, and the child's real exit status,
// exactly as if the binary had been started again, less the start-up.
//
// The client holds one end of a Unix stream socket (FD is the server's end,
// inherited). Per request, the client sends
//   uint32 size (host order), with SCM_RIGHTS carrying two descriptors: the
//   child's stdout and stderr;
//   size bytes: NUL-terminated strings, the working directory then argv[1..].
// The server answers int32 pid (the child's, so a client that gives up can
// kill it), then int32 wait status (waitpid's, raw). When the client closes
// its end the server exits. Nothing is read from anywhere but FD, so the
// server is no wider a door than the binary itself.
#include <functional>

namespace irscope::app {

// Serves requests on `fd` until the client hangs up; `launch` is main's own
// dispatch, run in each child with the request's argv. Returns the exit code.
int serveForks(int fd, const std::function<int(int argc, char** argv)>& launch);

}  // namespace irscope::app

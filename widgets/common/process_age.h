#pragma once
// How long this process has run, for start-up timings (IRSCOPE_TIMING, and
// bench_bare_qt, the floor the window's first frame is measured against).
// Header-only: the bare Qt bench links nothing of irscope.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <unistd.h>

namespace irscope::widgets {

// Seconds since this process started. A launcher that says when it started
// it (IRSCOPE_LAUNCHED_AT, seconds since the epoch: bench/run_first_frame.sh)
// gives a finer start than Linux's /proc, which counts in 10 ms ticks.
inline double processAgeSeconds() {
    if (const char* at = std::getenv("IRSCOPE_LAUNCHED_AT")) {
        timespec now{};
        clock_gettime(CLOCK_REALTIME, &now);
        return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 - std::strtod(at, nullptr);
    }
    double uptime = 0;
    unsigned long long start = 0;
    if (FILE* f = std::fopen("/proc/uptime", "r")) {
        if (std::fscanf(f, "%lf", &uptime) != 1) uptime = 0;
        std::fclose(f);
    }
    if (FILE* f = std::fopen("/proc/self/stat", "r")) {
        // Field 22 is the start time in clock ticks; the command name (field 2) may hold spaces.
        char buf[4096];
        const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = 0;
        if (const char* p = std::strrchr(buf, ')')) {
            int field = 2;
            for (const char* c = p + 1; *c && field < 22; ++c)
                if (*c == ' ' && ++field == 22) start = std::strtoull(c + 1, nullptr, 10);
        }
    }
    return uptime - static_cast<double>(start) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace irscope::widgets

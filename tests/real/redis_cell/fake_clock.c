/* A wall clock the test sets, for tests/real/redis_cell.rs: loaded into redis-server with
 * LD_PRELOAD, it answers CLOCK_REALTIME (what redis-cell's `time::now_utc` reads), gettimeofday
 * and time (what Redis's own millisecond clock and key expiry read) with the nanoseconds since
 * the Unix epoch written in the file named by RLP_FAKE_CLOCK, read anew on every call. Every
 * other clock (Redis's event loop runs on CLOCK_MONOTONIC) is the real one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The set time in ns, or -1 when there is none (no file named, or nothing in it). */
static int64_t fake_ns(void) {
    static int fd = -1;
    if (fd < 0) {
        const char *path = getenv("RLP_FAKE_CLOCK");
        if (!path || (fd = open(path, O_RDONLY)) < 0) return -1;
    }
    char buf[32] = {0};
    if (pread(fd, buf, sizeof buf - 1, 0) <= 0) return -1;
    return strtoll(buf, NULL, 10);
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
        int64_t ns = fake_ns();
        if (ns >= 0) {
            ts->tv_sec = ns / 1000000000;
            ts->tv_nsec = ns % 1000000000;
            return 0;
        }
    }
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(id, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    static int (*real)(struct timeval *restrict, void *restrict);
    int64_t ns = fake_ns();
    if (ns >= 0) {
        tv->tv_sec = ns / 1000000000;
        tv->tv_usec = (ns / 1000) % 1000000;
        return 0;
    }
    if (!real) real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
    return real(tv, tz);
}

time_t time(time_t *out) {
    int64_t ns = fake_ns();
    time_t now;
    if (ns >= 0) {
        now = ns / 1000000000;
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts); /* no time set: the real one */
        now = ts.tv_sec;
    }
    if (out) *out = now;
    return now;
}

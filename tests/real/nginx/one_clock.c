/* One clock for nginx, for tests/real/nginx.rs: loaded into nginx with LD_PRELOAD, it makes the
 * wall clock nginx prints as $msec and the monotonic clock its ngx_current_msec (the clock
 * limit_req decides on) the same instant, so a response can say which millisecond limit_req saw.
 *
 * nginx 1.22's ngx_time_update() reads gettimeofday() and then clock_gettime(CLOCK_MONOTONIC)
 * (src/core/ngx_times.c). Here gettimeofday() answers CLOCK_MONOTONIC plus RLP_OFFSET_NS (a whole
 * number of milliseconds) and keeps the monotonic reading; the next CLOCK_MONOTONIC read answers
 * that same reading, so the two cannot fall on two sides of a millisecond boundary. Every other
 * read is the real clock (CLOCK_REALTIME is shifted the same way, for consistency). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

/* 2026-01-01T00:00:00Z in ns: a whole millisecond, so $msec's milliseconds are nginx's. */
#define RLP_OFFSET_NS 1767225600000000000LL

static int (*real_clock_gettime)(clockid_t, struct timespec *);
/* The monotonic reading the last gettimeofday() answered from, until the next monotonic read. */
static struct timespec pending;
static int has_pending;

static void monotonic(struct timespec *ts) {
    if (!real_clock_gettime)
        real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    real_clock_gettime(CLOCK_MONOTONIC, ts);
}

static void shifted(struct timespec *ts) {
    int64_t ns = (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec + RLP_OFFSET_NS;
    ts->tv_sec = ns / 1000000000LL;
    ts->tv_nsec = ns % 1000000000LL;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    (void)tz;
    struct timespec ts;
    monotonic(&ts);
    pending = ts;
    has_pending = 1;
    shifted(&ts);
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    if (id == CLOCK_MONOTONIC && has_pending) {
        *ts = pending;
        has_pending = 0;
        return 0;
    }
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
        monotonic(ts);
        shifted(ts);
        return 0;
    }
    if (!real_clock_gettime)
        real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real_clock_gettime(id, ts);
}

time_t time(time_t *out) {
    struct timespec ts;
    monotonic(&ts);
    shifted(&ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}

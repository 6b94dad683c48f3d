// Traefik's in-memory RateLimit middleware for tests/real/go.rs: its glue written out from
// Traefik's source (v3.7: pkg/middlewares/ratelimiter/rate_limiter.go, in_memory_limiter.go,
// ttlmap/ttlmap.go; Traefik itself is not installable here), on the real golang.org/x/time/rate
// (Debian's golang-golang-x-time-dev), with one source and the clock given: reads
// "AVERAGE PERIOD_NS BURST", then one arrival per line in nanoseconds from a whole Unix second,
// and prints per arrival "STATUS DELAY_NS RETRY_AFTER X_RETRY_IN" ("-" where a header is absent).
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"golang.org/x/time/rate"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	in.Scan()
	var average, period, burst int64
	if _, err := fmt.Sscan(in.Text(), &average, &period, &burst); err != nil {
		fmt.Fprintln(os.Stderr, "traefik: the first line is not \"AVERAGE PERIOD_NS BURST\":", err)
		os.Exit(2)
	}
	// rate_limiter.go: New.
	if burst < 1 {
		burst = 1
	}
	rtl := float64(average*int64(time.Second)) / float64(period)
	var maxDelay time.Duration
	if rtl < 1 {
		maxDelay = 500 * time.Millisecond
	} else {
		maxDelay = time.Second / (time.Duration(rtl) * 2)
	}
	ttl := 1
	if rtl >= 1 {
		ttl++
	} else if rtl > 0 {
		ttl += int(1 / rtl)
	}
	// ttlmap: one source's entry and its expiry in Unix seconds.
	var bucket *rate.Limiter
	var expiry int64
	start := time.Unix(1_700_000_000, 0)
	for in.Scan() {
		ns, err := strconv.ParseInt(in.Text(), 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "traefik: not a time in ns:", in.Text())
			os.Exit(2)
		}
		now := start.Add(time.Duration(ns))
		// in_memory_limiter.go: Allow.
		if bucket == nil || expiry <= now.Unix() {
			bucket = rate.NewLimiter(rate.Limit(rtl), int(burst))
		}
		expiry = now.Add(time.Duration(ttl) * time.Second).Unix()
		res := bucket.ReserveN(now, 1)
		if !res.OK() {
			fmt.Fprintln(out, "429 0 - -")
			continue
		}
		delay := res.DelayFrom(now)
		if delay > maxDelay {
			res.CancelAt(now)
			// rate_limiter.go: serveDelayError.
			fmt.Fprintln(out, 429, int64(delay), fmt.Sprintf("%.0f", math.Ceil(delay.Seconds())), delay.String())
			continue
		}
		fmt.Fprintln(out, 200, int64(delay), "-", "-")
	}
}

// Replays arrival times through golang.org/x/time/rate (the library as installed, Debian's
// golang-golang-x-time-dev) for tests/real/go.rs: reads "R B" and then one arrival per line in
// nanoseconds from the start; for each, prints "1 0" if AllowN(t, 1) admitted it, or "0 WAIT"
// with the nanoseconds reserveN's own arithmetic says are missing (as Go computes them).
package main

import (
	"bufio"
	"fmt"
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
	var r float64
	var b int
	if _, err := fmt.Sscan(in.Text(), &r, &b); err != nil {
		fmt.Fprintln(os.Stderr, "driver: the first line is not \"R B\":", err)
		os.Exit(2)
	}
	lim := rate.NewLimiter(rate.Limit(r), b)
	start := time.Unix(1_700_000_000, 0)
	for in.Scan() {
		ns, err := strconv.ParseInt(in.Text(), 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "driver: not a time in ns:", in.Text())
			os.Exit(2)
		}
		t := start.Add(time.Duration(ns))
		before := lim.TokensAt(t)
		if lim.AllowN(t, 1) {
			fmt.Fprintln(out, "1 0")
			continue
		}
		// reserveN: tokens -= 1; waitDuration = durationFromTokens(-tokens).
		tokens := before - 1
		wait := time.Duration(float64(time.Second) * (-tokens / float64(lim.Limit())))
		fmt.Fprintln(out, "0", int64(wait))
	}
}

//! Go's `golang.org/x/time/rate`: a whole program, HTTP middleware with one limiter per client
//! address, as the production panel and `--export go` print it. The numbers come from
//! [`GoLimit`], which `algo=go_rate` runs.

use super::model::GoLimit;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let GoLimit { b, .. } = GoLimit::of(p);
    let rate = p.per_sec();
    let snippet = format!(
        "package main\n\n\
         import (\n\
         \t\"math\"\n\
         \t\"net\"\n\
         \t\"net/http\"\n\
         \t\"strconv\"\n\
         \t\"sync\"\n\
         \t\"time\"\n\n\
         \t\"golang.org/x/time/rate\"\n\
         )\n\n\
         // {rate}/s sustained, bursts of {b}: one limiter per client address.\n\
         var (\n\
         \tmu       sync.Mutex\n\
         \tlimiters = map[string]*rate.Limiter{{}}\n\
         )\n\n\
         func limiterFor(key string) *rate.Limiter {{\n\
         \tmu.Lock()\n\
         \tdefer mu.Unlock()\n\
         \tl, ok := limiters[key]\n\
         \tif !ok {{\n\
         \t\tl = rate.NewLimiter(rate.Limit({rate}), {b})\n\
         \t\tlimiters[key] = l\n\
         \t}}\n\
         \treturn l\n\
         }}\n\n\
         func limit(next http.Handler) http.Handler {{\n\
         \treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {{\n\
         \t\tkey, _, _ := net.SplitHostPort(r.RemoteAddr)\n\
         \t\tl := limiterFor(key)\n\
         \t\tnow := time.Now()\n\
         \t\tif !l.AllowN(now, 1) {{\n\
         \t\t\t// The time until one token is there; Allow itself reserves nothing when it refuses.\n\
         \t\t\twait := (1 - l.TokensAt(now)) / float64(l.Limit())\n\
         \t\t\tw.Header().Set(\"Retry-After\", strconv.Itoa(int(math.Ceil(wait))))\n\
         \t\t\thttp.Error(w, \"Too Many Requests\", http.StatusTooManyRequests)\n\
         \t\t\treturn\n\
         \t\t}}\n\
         \t\tnext.ServeHTTP(w, r)\n\
         \t}})\n\
         }}\n\n\
         func main() {{\n\
         \thello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {{ w.Write([]byte(\"ok\\n\")) }})\n\
         \thttp.ListenAndServe(\"127.0.0.1:8080\", limit(hello))\n\
         }}\n"
    );
    let mut notes = vec![
        format!(
            "rate.NewLimiter({rate}, {b}) is a token bucket of capacity {b} refilled at {rate}/s, starting full; \
             algo=go_rate runs its float64 arithmetic (Allow is AllowN(time.Now(), 1))."
        ),
        "A refused Allow changes nothing; an admitted one lacking less than a nanosecond's worth of a token \
         goes through, leaving the bucket a hair below zero."
            .into(),
        "The map keeps every client's limiter for ever: evict idle ones (a full bucket is a new one) in a \
         real server. One process per limiter: N replicas admit N times the rate."
            .into(),
        "Allow refuses; Wait(ctx) would queue the request instead, and Reserve hands back the delay to wait \
         (and Cancel to give the token back)."
            .into(),
    ];
    if p.shape != Shape::Bucket {
        notes.push(format!(
            "x/time/rate has no window limiter: this is the bucket with the window's burst ({}) and long-run \
             rate ({} per {} s).",
            p.limit,
            p.limit,
            secs(p.window_ns)
        ));
    }
    Config { target: "Go (x/time/rate)", language: "go", snippet, notes }
}

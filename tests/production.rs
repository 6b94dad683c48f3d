//! "Use this in production": each target's configuration for a policy, pinned line by line, with
//! the units and burst semantics that translations get wrong.
#![cfg(not(target_arch = "wasm32"))]

use ratelimit_playground::production::{configs, Config};
use ratelimit_playground::sim::Scenario;

fn target<'a>(all: &'a [Config], name: &str) -> &'a Config {
    all.iter().find(|c| c.target == name).unwrap_or_else(|| panic!("no {name}"))
}

fn for_query(q: &str) -> Vec<Config> {
    configs(&Scenario::from_query(q).unwrap())
}

fn has_line(c: &Config, line: &str) {
    assert!(c.snippet.lines().any(|l| l.trim() == line), "{}: no line {line:?} in\n{}", c.target, c.snippet);
}

fn noted(c: &Config, words: &str) {
    assert!(c.notes.iter().any(|n| n.contains(words)), "{}: no note with {words:?}: {:#?}", c.target, c.notes);
}

#[test]
fn every_target_is_covered_in_a_fixed_order() {
    let names: Vec<&str> = for_query("").iter().map(|c| c.target).collect();
    assert_eq!(
        names,
        [
            "nginx limit_req",
            "Envoy local rate limit",
            "governor (Rust)",
            "express-rate-limit",
            "Upstash Ratelimit",
            "Redis Lua script",
            "Go (x/time/rate)",
            "Traefik",
            "redis-cell",
            "HAProxy",
            "Kong",
            "envoyproxy/ratelimit",
            "Spring Cloud Gateway",
            "AWS API Gateway",
            "Cloudflare",
            "Python limits",
            "Rack::Attack",
            "Laravel",
            "rate-limiter-flexible",
            "django-ratelimit",
            "NestJS"
        ]
    );
}

#[test]
fn nginx_burst_is_capacity_minus_one_with_nodelay_and_a_429_status() {
    let all = for_query("capacity=10&refill=5");
    let c = target(&all, "nginx limit_req");
    has_line(c, "limit_req_zone $binary_remote_addr zone=api:10m rate=5r/s;");
    has_line(c, "limit_req zone=api burst=9 nodelay;");
    has_line(c, "limit_req_status 429;");
    noted(c, "up to 10 pass at once from idle");
    // 2.5/s is not whole per second but is whole per minute.
    has_line(
        target(&for_query("capacity=4&refill=2.5"), "nginx limit_req"),
        "limit_req_zone $binary_remote_addr zone=api:10m rate=150r/m;",
    );
}

#[test]
fn envoy_fills_in_steps_of_at_least_50_ms_and_must_be_enforced() {
    let all = for_query("capacity=10&refill=5");
    let c = target(&all, "Envoy local rate limit");
    has_line(c, "max_tokens: 10");
    has_line(c, "tokens_per_fill: 1");
    has_line(c, "fill_interval: 0.2s");
    noted(c, "filter_enabled and filter_enforced default to 0 %");
    let fast = for_query("capacity=100&refill=1000");
    let c = target(&fast, "Envoy local rate limit");
    has_line(c, "tokens_per_fill: 50");
    has_line(c, "fill_interval: 0.05s");
}

#[test]
fn governor_uses_the_exact_period_and_the_capacity_as_burst() {
    let all = for_query("capacity=10&refill=5");
    let c = target(&all, "governor (Rust)");
    has_line(c, "let quota = Quota::with_period(Duration::from_nanos(200000000))");
    has_line(c, ".allow_burst(NonZeroU32::new(10).expect(\"the burst is not zero\"));");
    noted(c, "decides exactly as this token bucket");
    let thirds = for_query("capacity=10&refill=3");
    let c = target(&thirds, "governor (Rust)");
    has_line(c, "let quota = Quota::with_period(Duration::from_nanos(333333333))");
    noted(c, "rounded to the nanosecond");
    noted(c, "not exactly the policy's rate");
}

#[test]
fn express_is_a_fixed_window_with_the_same_burst_and_rate() {
    let all = for_query("capacity=10&refill=5");
    let c = target(&all, "express-rate-limit");
    has_line(c, "windowMs: 2000, // 2 s");
    has_line(c, "limit: 10, // requests per window, per client address");
    has_line(c, "standardHeaders: 'draft-8', // RateLimit and RateLimit-Policy");
    noted(c, "up to 20 requests in any 2 s");
    noted(c, "Your policy is a token bucket");
    let windows = for_query("algo=fixed_window&limit=100&window=60");
    has_line(target(&windows, "express-rate-limit"), "windowMs: 60000, // 60 s");
}

#[test]
fn upstash_picks_the_matching_limiter_and_whole_millisecond_intervals() {
    let lim = |q: &str| {
        let all = for_query(q);
        let c = target(&all, "Upstash Ratelimit");
        c.snippet.lines().find(|l| l.trim().starts_with("limiter:")).unwrap().trim().to_string()
    };
    assert_eq!(lim("capacity=10&refill=5"), "limiter: Ratelimit.tokenBucket(5, \"1 s\", 10),");
    assert_eq!(lim("capacity=4&refill=2.5"), "limiter: Ratelimit.tokenBucket(1, \"400 ms\", 4),");
    assert_eq!(lim("algo=fixed_window&limit=100&window=60"), "limiter: Ratelimit.fixedWindow(100, \"60 s\"),");
    assert_eq!(lim("algo=sliding_window&limit=50&window=1.5"), "limiter: Ratelimit.slidingWindow(50, \"1500 ms\"),");
    noted(target(&for_query("algo=sliding_log"), "Upstash Ratelimit"), "no exact sliding log");
}

#[test]
fn the_redis_script_matches_the_algorithm_and_is_called_with_the_policy() {
    let script = |q: &str| target(&for_query(q), "Redis Lua script").snippet.clone();
    let bucket = script("capacity=10&refill=5");
    assert!(bucket.contains("redis.call('HMGET', KEYS[1], 'tokens', 'ts')"));
    assert!(bucket.contains("-- EVALSHA <sha> 1 rl:{client} 10 5 <now-ms>"));
    let log = script("algo=sliding_log&limit=100&window=60");
    assert!(log.contains("ZREMRANGEBYSCORE"));
    assert!(log.contains("-- EVALSHA <sha> 1 rl:{client} 100 60000 <now-ms> <request-id>"));
    assert!(script("algo=sliding_window&limit=7&window=3").contains("(current + 1) * window > limit * window"));
    assert!(script("algo=fixed_window&limit=7&window=3").contains("local start = now - (now % window)"));
}

#[test]
fn go_takes_the_rate_as_a_float_the_capacity_as_burst_and_builds_a_limiter_per_client() {
    let all = for_query("capacity=25&refill=7.777");
    let c = target(&all, "Go (x/time/rate)");
    has_line(c, "l = rate.NewLimiter(rate.Limit(7.777), 25)");
    has_line(c, "if !l.AllowN(now, 1) {");
    has_line(c, "w.Header().Set(\"Retry-After\", strconv.Itoa(int(math.Ceil(wait))))");
    noted(c, "a token bucket of capacity 25 refilled at 7.777/s, starting full");
    noted(c, "A refused Allow changes nothing");
    let window = for_query("algo=fixed_window&limit=100&window=60");
    let c = target(&window, "Go (x/time/rate)");
    has_line(c, "l = rate.NewLimiter(rate.Limit(1.667), 100)");
    noted(c, "x/time/rate has no window limiter");
}

#[test]
fn traefik_takes_whole_requests_per_whole_seconds_and_says_it_delays() {
    let all = for_query("capacity=20&refill=12.5");
    let c = target(&all, "Traefik");
    has_line(c, "rateLimit:");
    has_line(c, "average: 25");
    has_line(c, "period: 2s");
    has_line(c, "burst: 20");
    noted(c, "average 25 per period 2s is 12.5/s");
    noted(c, "due within 41.666666ms (maxDelay)");
    noted(c, "forgotten 2 s after its last request");
    let slow = for_query("capacity=3&refill=0.4");
    let c = target(&slow, "Traefik");
    has_line(c, "average: 2");
    has_line(c, "period: 5s");
    noted(c, "due within 500ms (maxDelay)");
    noted(c, "forgotten 3 s after its last request");
    let window = for_query("algo=fixed_window&limit=100&window=60");
    noted(target(&window, "Traefik"), "Traefik has no window limiter");
}

#[test]
fn redis_cell_passes_the_burst_minus_one_and_whole_requests_per_whole_seconds() {
    let all = for_query("capacity=10&refill=12.5");
    let c = target(&all, "redis-cell");
    has_line(c, "loadmodule /usr/local/lib/libredis_cell.so");
    has_line(c, "CL.THROTTLE ratelimit:203.0.113.7 9 25 2 1");
    noted(c, "max_burst 9 admits 10 at once");
    noted(c, "25 per 2 s is one request every 0.08 s");
    noted(c, "whole seconds, truncated");
    let thirds = for_query("capacity=1&refill=3");
    let c = target(&thirds, "redis-cell");
    has_line(c, "CL.THROTTLE ratelimit:203.0.113.7 0 3 1 1");
    noted(c, "one request every 0.333333333 s");
}

#[test]
fn haproxy_tracks_then_denies_above_the_limit_and_keeps_entries_two_periods() {
    let all = for_query("algo=sliding_window&limit=100&window=60");
    let c = target(&all, "HAProxy");
    has_line(c, "stick-table type ip size 1m expire 120s store http_req_rate(60s)");
    has_line(c, "http-request track-sc0 src");
    has_line(c, "http-request deny deny_status 429 if { sc_http_req_rate(0) gt 100 }");
    noted(c, "refused requests count too");
    noted(c, "so 100 pass from idle");
    let odd = for_query("algo=fixed_window&limit=20&window=0.9995");
    let c = target(&odd, "HAProxy");
    has_line(c, "stick-table type ip size 1m expire 2s store http_req_rate(1s)");
    noted(c, "0.9995 s rounded");
    let bucket = for_query("capacity=10&refill=5");
    let c = target(&bucket, "HAProxy");
    has_line(c, "stick-table type ip size 1m expire 4s store http_req_rate(2s)");
    noted(c, "Your policy is a token bucket: this is 10 per 2s");
}

#[test]
fn the_models_not_run_here_say_so_and_pick_their_fixed_periods() {
    let minute = for_query("algo=fixed_window&limit=100&window=60");
    let kong = target(&minute, "Kong");
    has_line(kong, "minute: 100");
    has_line(kong, "policy: local");
    noted(kong, "Not run here");
    noted(kong, "refused requests are not counted");
    let global = target(&minute, "envoyproxy/ratelimit");
    has_line(global, "unit: minute");
    has_line(global, "requests_per_unit: 100");
    noted(global, "refused requests count too");
    noted(global, "Not run here");
    // 20 per 10 s: Kong and the global service have no 10 s window (a minute keeps the rate);
    // Cloudflare has 10 s.
    let ten = for_query("algo=sliding_window&limit=20&window=10");
    has_line(target(&ten, "Kong"), "minute: 120");
    noted(target(&ten, "Kong"), "your 20 per 10 s is 120 per minute");
    let cf = target(&ten, "Cloudflare");
    has_line(cf, "\"period\": 10,");
    has_line(cf, "\"requests_per_period\": 20,");
    has_line(cf, "\"mitigation_timeout\": 60");
    noted(cf, "blocked for 60 s, whatever its rate (cf_timeout)");
    let throttle = for_query("algo=sliding_window&limit=20&window=10&cf_timeout=0");
    noted(target(&throttle, "Cloudflare"), "refuses only requests over the rate");
    let bucket = for_query("capacity=10&refill=12.5");
    let spring = target(&bucket, "Spring Cloud Gateway");
    has_line(spring, "redis-rate-limiter.replenishRate: 13");
    has_line(spring, "redis-rate-limiter.burstCapacity: 13");
    noted(spring, "Your 12.5/s with bursts of 10 is rounded to 13/s and a burst of 13.");
    noted(spring, "Not run here");
    let aws = target(&bucket, "AWS API Gateway");
    has_line(aws, "ThrottlingRateLimit: 12.5");
    has_line(aws, "ThrottlingBurstLimit: 10");
    noted(aws, "no Retry-After");
    noted(aws, "best effort");
}

#[test]
fn window_policies_map_to_buckets_with_the_same_burst_and_long_run_rate_where_only_buckets_exist() {
    let all = for_query("algo=sliding_window&limit=100&window=60");
    // 100 per 60 s = 1.667/s: 100 r/m exactly for nginx, burst 99.
    let c = target(&all, "nginx limit_req");
    has_line(c, "limit_req_zone $binary_remote_addr zone=api:10m rate=100r/m;");
    has_line(c, "limit_req zone=api burst=99 nodelay;");
    noted(c, "nginx has no window limiter");
}

#[test]
fn python_limits_takes_a_rate_string_and_names_the_strategy() {
    let all = for_query("algo=python_limits&limits_strategy=moving_window&limit=100&window=60");
    let c = target(&all, "Python limits");
    has_line(c, "LIMIT = parse(\"100/minute\")  # 100 hits per 60 s");
    has_line(c, "limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())");
    noted(c, "refused hits are not recorded");
    let all = for_query("algo=fixed_window&limit=7&window=2.5");
    let c = target(&all, "Python limits");
    has_line(c, "LIMIT = parse(\"7 per 3 seconds\")  # 7 hits per 3 s");
    noted(c, "2.5 s rounded to 3 s");
    noted(c, "starting at the client's first hit");
}

#[test]
fn rack_attack_throttles_per_ip_on_epoch_aligned_periods() {
    let all = for_query("algo=rack_attack&limit=30&window=11");
    let c = target(&all, "Rack::Attack");
    has_line(c, "Rack::Attack.throttle(\"requests per ip\", limit: 30, period: 11) do |request|");
    has_line(c, "Rack::Attack.throttled_response_retry_after_header = true");
    noted(c, "aligned to the Unix epoch (Time.now.to_i / 11)");
    noted(c, "up to 60 within a second");
    let all = for_query("capacity=10&refill=4");
    noted(target(&all, "Rack::Attack"), "2.5 s rounded to 3 s");
}

#[test]
fn laravel_gives_the_middleware_for_whole_minutes_and_attempt_in_seconds() {
    let all = for_query("algo=laravel&limit=100&window=120");
    let c = target(&all, "Laravel");
    has_line(c, "// Routes: ->middleware('throttle:100,2'), or a named limiter:");
    has_line(c, "return $limiter->attempt('requests:' . $client, 100, fn () => true, 120);");
    noted(c, "it lasts 121 s, and its last second refuses with Retry-After: 0");
    let all = for_query("algo=laravel&limit=5&window=11");
    has_line(
        target(&all, "Laravel"),
        "// Routes: the throttle middleware counts whole minutes; for 11 s call attempt() as below.",
    );
}

#[test]
fn rate_limiter_flexible_takes_points_per_duration_in_seconds_and_its_keys() {
    let all = for_query("algo=rlflex&limit=30&window=2.5&block=60&exec_evenly=1");
    let c = target(&all, "rate-limiter-flexible");
    has_line(
        c,
        "const limiter = new RateLimiterMemory({ points: 30, duration: 2.5, blockDuration: 60, execEvenly: true });",
    );
    has_line(c, "res.set(\"Retry-After\", String(Math.round(rejRes.msBeforeNext / 1000) || 1));");
    noted(c, "blocks the client that long from then");
    noted(c, "requests are delayed, not refused");
    let all = for_query("algo=fixed_window&limit=3&window=0.0704");
    let c = target(&all, "rate-limiter-flexible");
    has_line(c, "const limiter = new RateLimiterMemory({ points: 3, duration: 0.07 });");
    noted(c, "0.0704 s rounded to 0.07 s");
}

#[test]
fn django_ratelimit_decorates_with_a_rate_string_and_says_it_answers_403() {
    let all = for_query("algo=django_ratelimit&limit=5&window=600");
    let c = target(&all, "django-ratelimit");
    has_line(c, "@ratelimit(key=\"ip\", rate=\"5/10m\", block=True)");
    noted(c, "now % 600 == crc32(key) % 600");
    noted(c, "gets 403 (Ratelimited is a PermissionDenied) and no Retry-After");
    let all = for_query("algo=fixed_window&limit=7&window=11");
    has_line(target(&all, "django-ratelimit"), "@ratelimit(key=\"ip\", rate=\"7/11s\", block=True)");
}

#[test]
fn nestjs_takes_ttl_and_block_duration_in_ms_and_says_the_block_clears_the_count() {
    let all = for_query("algo=nestjs&limit=30&window=2.5&block=20");
    let c = target(&all, "NestJS");
    has_line(c, "imports: [ThrottlerModule.forRoot([{ ttl: 2500, limit: 30, blockDuration: 20000 }])],");
    has_line(c, "providers: [{ provide: APP_GUARD, useClass: ThrottlerGuard }],");
    noted(c, "blocks the client for 20 s");
    noted(c, "the block's end clears the count");
    let all = for_query("algo=sliding_log&limit=5&window=1");
    let c = target(&all, "NestJS");
    has_line(c, "imports: [ThrottlerModule.forRoot([{ ttl: 1000, limit: 5 }])],");
    noted(c, "(blockDuration left out: the ttl)");
}

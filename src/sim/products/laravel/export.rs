//! Laravel: the `throttle` middleware's line when the window is whole minutes, and a program
//! that runs as printed with `RateLimiter::attempt` (decay in seconds) over the array cache. The
//! numbers come from [`Attempts`], which `algo=laravel` runs.

use super::model::Attempts;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let Attempts { max_attempts: max, decay_s: decay } = Attempts::of(p);
    let over = max + 1;
    let routes = match decay.is_multiple_of(60) {
        true => format!(
            "// Routes: ->middleware('throttle:{max},{minutes}'), or a named limiter:\n\
             //   RateLimiter::for('api', fn (Request $request) => Limit::perMinutes({minutes}, {max})->by($request->ip()));\n",
            minutes = decay / 60
        ),
        false => format!("// Routes: the throttle middleware counts whole minutes; for {decay} s call attempt() as below.\n"),
    };
    let snippet = format!(
        "<?php\n\
         // Laravel: {max} requests per {decay} s per client.\n\
         {routes}\
         // In code: RateLimiter::attempt($key, {max}, $callback, {decay}), decay in seconds, as this runs.\n\
         // Standalone: composer require illuminate/cache (Debian: php-illuminate-cache).\n\
         require file_exists(__DIR__ . '/vendor/autoload.php') ? __DIR__ . '/vendor/autoload.php' : 'Illuminate/Cache/autoload.php';\n\n\
         use Illuminate\\Cache\\ArrayStore;\n\
         use Illuminate\\Cache\\RateLimiter;\n\
         use Illuminate\\Cache\\Repository;\n\n\
         // In Laravel, the RateLimiter facade (on the app's cache: redis to share counts).\n\
         $limiter = new RateLimiter(new Repository(new ArrayStore()));\n\n\
         // True to serve the request; false to answer 429 with Retry-After: $limiter->availableIn($key).\n\
         function allow(RateLimiter $limiter, string $client): bool\n\
         {{\n\
        \x20   return $limiter->attempt('requests:' . $client, {max}, fn () => true, {decay});\n\
         }}\n\n\
         $served = 0;\n\
         for ($i = 0; $i < {over}; $i++) {{\n\
        \x20   $served += allow($limiter, '127.0.0.1') ? 1 : 0;\n\
         }}\n\
         echo \"$served of {over} served at once; retry after \" . $limiter->availableIn('requests:127.0.0.1') . \" s\\n\";\n"
    );
    let mut notes = vec![format!(
        "The window starts at the client's first admitted request and is forgotten only once the clock (whole \
         seconds) has passed first + {decay} s: it lasts {} s, and its last second refuses with Retry-After: 0. Refused \
         requests are not counted.",
        decay + 1
    )];
    notes.push(
        "The count lives in the cache: the array or file driver is per process or per machine; CACHE_DRIVER=redis \
         shares it across servers."
            .into(),
    );
    if decay * 1_000_000_000 != p.window_ns {
        notes.push(format!("Decay is whole seconds: {} s rounded to {decay} s.", secs(p.window_ns)));
    }
    if p.shape == Shape::Bucket {
        notes.push(format!(
            "Your policy is a token bucket: Laravel has no bucket, so this window keeps its burst ({}) and long-run \
             rate ({}/s) but not its smooth refill.",
            p.burst,
            p.per_sec()
        ));
    }
    Config { target: "Laravel", language: "php", snippet, notes }
}

//! Rack::Attack: the initializer that runs as printed (a `throttle` per client IP, its store,
//! and a demonstration under `ruby` that sends one request more than the limit). The numbers
//! come from [`Throttle`], which `algo=rack_attack` runs.

use super::model::Throttle;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let Throttle { limit, period } = Throttle::of(p);
    let over = limit + 1;
    let snippet = format!(
        "# Rack::Attack: {limit} requests per {period} s per client IP.\n\
         # Rails: the throttle below goes in config/initializers/rack_attack.rb (Rails.cache is the store).\n\
         # Rack:  `use Rack::Attack` in config.ru. gem install rack-attack activesupport\n\
         require \"rack/attack\"\n\
         require \"active_support\"\n\
         require \"active_support/cache\"\n\n\
         # Outside Rails, give it a store; several processes need a shared one (RedisCacheStore).\n\
         Rack::Attack.cache.store = ActiveSupport::Cache::MemoryStore.new\n\
         Rack::Attack.throttled_response_retry_after_header = true\n\n\
         Rack::Attack.throttle(\"requests per ip\", limit: {limit}, period: {period}) do |request|\n\
        \x20 request.ip\n\
         end\n\n\
         if __FILE__ == $PROGRAM_NAME\n\
        \x20 require \"rack/mock\"\n\
        \x20 app = Rack::MockRequest.new(Rack::Attack.new(->(_env) {{ [200, {{}}, [\"ok\"]] }}))\n\
        \x20 responses = Array.new({over}) {{ app.get(\"/\", \"REMOTE_ADDR\" => \"127.0.0.1\") }}\n\
        \x20 served = responses.count {{ |response| response.status == 200 }}\n\
        \x20 puts \"#{{served}} of {over} served at once; retry after #{{responses.last.headers[\"Retry-After\"]}} s\"\n\
         end\n"
    );
    let mut notes = vec![format!(
        "Periods of {period} s aligned to the Unix epoch (Time.now.to_i / {period}), not to the client's first \
         request: up to {} within a second across a period's edge. Refused requests count too.",
        2 * limit
    )];
    notes.push(
        "The count lives in the cache store: a MemoryStore is per process, so N Puma workers admit N times; Rails' \
         Redis or Memcached cache store shares it."
            .into(),
    );
    if period * 1_000_000_000 != p.window_ns {
        notes.push(format!("Periods are whole seconds: {} s rounded to {period} s.", secs(p.window_ns)));
    }
    if p.shape == Shape::Bucket {
        notes.push(format!(
            "Your policy is a token bucket: Rack::Attack has no bucket, so this period keeps its burst ({}) and long-run \
             rate ({}/s) but not its smooth refill.",
            p.burst,
            p.per_sec()
        ));
    }
    Config { target: "Rack::Attack", language: "ruby", snippet, notes }
}

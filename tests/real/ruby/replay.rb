# Replays one client's request times through the REAL Rack::Attack (Debian's ruby-rack-attack),
# with Time.now frozen by Timecop at each request's instant, and prints what it decided.
#
#   echo '{"limit":2,"period":11,"times_ns":[0,1000000000],"epoch_s":1767225600}' | ruby tests/real/ruby/replay.rb
#
# stdin: one JSON object
#   limit, period  the throttle's limit: and period: as the production panel exports them
#   times_ns       non-decreasing simulated ns
#   epoch_s        Time.now at simulated 0 (a UTC midnight): epoch_s + ns / 1e9, exactly (a Rational)
# stdout: {"decisions": [{"allowed": bool, "retry_after": int or null}], "versions": {...}}
#
# The store is ActiveSupport's MemoryStore, as the exported initializer sets outside Rails; its
# entries expire on Time.now too, so Timecop's frozen clock governs them as well.
require "json"
require "rack"
require "rack/mock"
require "rack/attack"
require "active_support"
require "active_support/cache"
require "timecop"

request = JSON.parse($stdin.read)
Rack::Attack.cache.store = ActiveSupport::Cache::MemoryStore.new
Rack::Attack.throttled_response_retry_after_header = true
Rack::Attack.throttle("requests per ip", limit: request.fetch("limit"), period: request.fetch("period")) do |r|
  r.ip
end
app = Rack::MockRequest.new(Rack::Attack.new(->(_env) { [200, {}, ["ok"]] }))

epoch = request.fetch("epoch_s")
decisions = request.fetch("times_ns").map do |ns|
  # Time.at(Integer) with a Rational: exact to the nanosecond (freeze(Integer) would be relative).
  Timecop.freeze(Time.at(epoch + Rational(ns, 1_000_000_000))) do
    response = app.get("/", "REMOTE_ADDR" => "127.0.0.1")
    retry_after = response.headers["Retry-After"]
    { allowed: response.status == 200, retry_after: retry_after && Integer(retry_after) }
  end
end
versions = { "rack-attack" => Gem.loaded_specs["rack-attack"]&.version&.to_s || Rack::Attack::VERSION, "ruby" => RUBY_VERSION }
puts JSON.generate({ decisions: decisions, versions: versions })

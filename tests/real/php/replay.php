<?php
// Replays one client's request times through the REAL Laravel RateLimiter (Debian's
// php-illuminate-cache) over the array cache, with Carbon's test clock set to each request's
// instant, deciding as the throttle middleware does (ThrottleRequests::handleRequest:
// tooManyAttempts, else hit), and prints what it decided.
//
//   echo '{"max_attempts":2,"decay_s":1,"times_ns":[0,1000000000],"epoch_s":1767225600}' | php tests/real/php/replay.php
//
// stdin: one JSON object
//   max_attempts, decay_s  as the production panel exports them
//   times_ns               non-decreasing simulated ns
//   epoch_s                the Unix time at simulated 0 (a UTC midnight)
// stdout: {"decisions": [{"allowed": bool, "retry_after": int|null, "remaining": int}], "versions": {...}}
require 'Illuminate/Cache/autoload.php';

use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\RateLimiter;
use Illuminate\Cache\Repository;
use Illuminate\Support\Carbon;

$request = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
$limiter = new RateLimiter(new Repository(new ArrayStore()));
$max = $request['max_attempts'];
$decay = $request['decay_s'];
$decisions = [];
foreach ($request['times_ns'] as $ns) {
    // Whole milliseconds are enough: the clock Laravel reads is whole seconds.
    $ms = $request['epoch_s'] * 1000 + intdiv($ns, 1000000);
    Carbon::setTestNow(Carbon::createFromTimestampMs($ms));
    if ($limiter->tooManyAttempts('client', $max)) {
        $decisions[] = ['allowed' => false, 'retry_after' => $limiter->availableIn('client'), 'remaining' => 0];
    } else {
        $limiter->hit('client', $decay);
        $decisions[] = ['allowed' => true, 'retry_after' => null, 'remaining' => $limiter->retriesLeft('client', $max)];
    }
}
$versions = ['php' => PHP_VERSION];
foreach (['php-illuminate-cache'] as $package) {
    $versions[$package] = trim((string) shell_exec('dpkg-query -W -f=\'${Version}\' ' . $package . ' 2>/dev/null'));
}
echo json_encode(['decisions' => $decisions, 'versions' => $versions]), "\n";

#!/usr/bin/env python3
"""Replays one client's request times through the REAL Python `limits` library (the engine under
Flask-Limiter and SlowAPI) with time.time() faked, and prints what it decided.

    echo '{"strategy":"fixed-window","limit":"5/second","times_ns":[0,50000000],"epoch_s":1767225600}' \\
      | PYTHONPATH=~/.cache/ratelimit-playground/python-real python3 tests/real/python/replay.py

stdin: one JSON object
  strategy  "fixed-window" | "moving-window" | "sliding-window-counter" (limits.strategies.STRATEGIES)
  limit     the rate-limit string the production panel exports, read with limits.parse
  times_ns  non-decreasing simulated ns
  epoch_s   time.time() at simulated 0 (a UTC midnight): time.time() = epoch_s + ns / 1e9
  redis     (optional) {"url": "redis://127.0.0.1:PORT", "clock": "/path"}: a RedisStorage on that
            server instead of a MemoryStorage. The server's wall clock is the file `clock` (read by
            tests/real/redis_cell/fake_clock.c, preloaded): before each hit this writes the hit's
            instant there, as 20 digits of ns since the Unix epoch. Every key is removed at the end.
stdout: {"decisions": [{"allowed": bool, "remaining": int, "reset": float}], "versions": {...}}

The clock: `time.time` is replaced for the whole process, so the library's own calls (Entry's
atime, the counters' expirations, the sliding windows' keys) all read the simulated instant.
MemoryStorage starts a threading.Timer that every 10 ms of real time drops expired hit times;
it is replaced by one that never runs, so what is decided depends on the simulated times only
(the model leaves the timer out too: see src/sim/products/python_limits/model.rs).
"""
import json
import os
import sys
import time

NOW = [0.0]
time.time = lambda: NOW[0]

import limits  # noqa: E402  (after the clock is faked)
import limits.storage.memory as memory  # noqa: E402
from limits import parse, storage, strategies  # noqa: E402


class NoTimer:
    """A threading.Timer that is never started: the storage's background expiry is left out."""

    def __init__(self, *args, **kwargs):
        pass

    def start(self):
        pass

    def is_alive(self):
        return True

    def cancel(self):
        pass


memory.threading.Timer = NoTimer


def main():
    request = json.load(sys.stdin)
    item = parse(request["limit"])
    redis = request.get("redis")
    store = storage.RedisStorage(redis["url"]) if redis else storage.MemoryStorage()
    clock = os.open(redis["clock"], os.O_WRONLY) if redis else None
    limiter = strategies.STRATEGIES[request["strategy"]](store)
    epoch = request["epoch_s"]
    decisions = []
    for ns in request["times_ns"]:
        NOW[0] = epoch + ns / 1_000_000_000
        if clock is not None:
            os.pwrite(clock, b"%020d" % (epoch * 1_000_000_000 + ns), 0)
        allowed = limiter.hit(item, "client")
        reset, remaining = limiter.get_window_stats(item, "client")
        decisions.append({"allowed": allowed, "remaining": remaining, "reset": reset})
    out = {
        "item": {"amount": item.amount, "expiry": item.get_expiry()},
        "decisions": decisions,
        "versions": {"limits": limits.__version__, "python": sys.version.split()[0]},
    }
    if redis:
        import redis as redis_py

        out["versions"]["redis-py"] = redis_py.__version__
        out["versions"]["redis-server"] = store.storage.info("server")["redis_version"]
        store.reset()
        os.close(clock)
    json.dump(out, sys.stdout)


main()

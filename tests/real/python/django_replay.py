#!/usr/bin/env python3
"""Replays request times from several clients through the REAL django-ratelimit (on Django's
LocMemCache), as its decorator on a view, with time.time() faked, and prints what it decided.

    echo '{"rate":"5/7s","requests":[[0,"127.0.0.1"]],"epoch_s":1767225600}' \\
      | PYTHONPATH=~/.cache/ratelimit-playground/python-real python3 tests/real/python/django_replay.py

stdin: one JSON object
  rate      the rate string the production panel exports
  requests  [ns, client IP] pairs, ns non-decreasing simulated time; the IP is REMOTE_ADDR,
            which key="ip" reads
  epoch_s   time.time() at simulated 0 (a UTC midnight): time.time() = epoch_s + ns / 1e9
stdout: {"decisions": [{"allowed": bool, "status": int, "retry_after": str|null}], "versions": {...}}

The clock: time.time is replaced for the whole process, so django-ratelimit's windows and the
cache's expiry both read the simulated instant.
"""
import json
import sys
import time

NOW = [0.0]
time.time = lambda: NOW[0]

import django  # noqa: E402  (after the clock is faked)
from django.conf import settings  # noqa: E402

# ROOT_URLCONF: this module, with no URLs; Django's 403 handler resolves it.
settings.configure(
    CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
    ROOT_URLCONF=__name__,
)
urlpatterns = []
django.setup()

import django_ratelimit  # noqa: E402
from django.core.handlers.exception import response_for_exception  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django_ratelimit.decorators import ratelimit  # noqa: E402
from django_ratelimit.exceptions import Ratelimited  # noqa: E402


def main():
    request = json.load(sys.stdin)

    @ratelimit(key="ip", rate=request["rate"], block=True)
    def api(_request):
        return HttpResponse("ok")

    factory = RequestFactory()
    epoch = request["epoch_s"]
    decisions = []
    for ns, ip in request["requests"]:
        NOW[0] = epoch + ns / 1_000_000_000
        req = factory.get("/", REMOTE_ADDR=ip)
        try:
            response = api(req)
        except Ratelimited as e:
            # What Django's handler makes of it: PermissionDenied -> 403.
            response = response_for_exception(req, e)
        decisions.append(
            {"allowed": response.status_code == 200, "status": response.status_code, "retry_after": response.get("Retry-After")}
        )
    versions = {"django-ratelimit": getattr(django_ratelimit, "__version__", "?"), "django": django.get_version()}
    json.dump({"decisions": decisions, "versions": versions}, sys.stdout)


main()

//! django-ratelimit: the decorated view, and a demonstration under `python3` that sends one
//! request more than the rate (standalone settings; a project has its own). The numbers come
//! from [`DjangoRate`], which `algo=django_ratelimit` runs.

use super::model::DjangoRate;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let r = DjangoRate::of(p);
    let (rate, limit, period, over) = (r.rate_string(), r.limit, r.period, r.limit + 1);
    let snippet = format!(
        "# django-ratelimit: {limit} requests per {period} s per client IP (pip install django-ratelimit).\n\
         # In views.py, the decorator is all it takes; a limited request raises Ratelimited (a 403).\n\
         from django.http import HttpResponse\n\
         from django_ratelimit.decorators import ratelimit\n\
         from django_ratelimit.exceptions import Ratelimited\n\n\n\
         @ratelimit(key=\"ip\", rate=\"{rate}\", block=True)\n\
         def api(request):\n\
        \x20   return HttpResponse(\"ok\")\n\n\n\
         if __name__ == \"__main__\":\n\
        \x20   # A standalone run: settings of its own (a project has them in settings.py, with a shared\n\
        \x20   # cache such as Redis: LocMemCache is per process).\n\
        \x20   import django\n\
        \x20   from django.conf import settings\n\n\
        \x20   settings.configure(CACHES={{\"default\": {{\"BACKEND\": \"django.core.cache.backends.locmem.LocMemCache\"}}}})\n\
        \x20   django.setup()\n\
        \x20   from django.test import RequestFactory\n\n\
        \x20   served = 0\n\
        \x20   for _ in range({over}):\n\
        \x20       try:\n\
        \x20           served += api(RequestFactory().get(\"/\")).status_code == 200\n\
        \x20       except Ratelimited:\n\
        \x20           pass\n\
        \x20   print(f\"{{served}} of {over} served at once; the rest get 403, with no Retry-After\")\n"
    );
    let mut notes = vec![format!(
        "Windows of {period} s aligned to the epoch but shifted per client: each ends on the seconds where \
         now % {period} == crc32(key) % {period}, so clients' windows turn over at different seconds. Every request \
         counts, refused ones too; up to {} within a second across a window's edge.",
        2 * limit
    )];
    notes.push(
        "A limited request gets 403 (Ratelimited is a PermissionDenied) and no Retry-After: set RATELIMIT_VIEW or \
         handle Ratelimited to answer 429."
            .into(),
    );
    notes.push(
        "The count lives in Django's cache: LocMemCache is per process; a shared cache (Redis, Memcached) counts \
         across workers."
            .into(),
    );
    if period * 1_000_000_000 != p.window_ns {
        notes.push(format!("Periods are whole seconds: {} s rounded to {period} s.", secs(p.window_ns)));
    }
    if p.shape == Shape::Bucket {
        notes.push(format!(
            "Your policy is a token bucket: django-ratelimit has no bucket, so this rate keeps its burst ({}) and \
             long-run rate ({}/s) but not its smooth refill.",
            p.burst,
            p.per_sec()
        ));
    }
    Config { target: "django-ratelimit", language: "python", snippet, notes }
}

"""What the Python tests share: the CLI they compare with, and one generated log written in every
format the engine reads, so each check runs over the same requests in each."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("RATELIMIT_SIM", str(ROOT / "target" / "debug" / "ratelimit-sim"))
QUERY = "capacity=20&refill=2"

COMBINED = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "([^"]*)"')


def cli(*args: str) -> dict:
    """``ratelimit-sim ARGS --format json``, parsed."""
    out = subprocess.run([CLI, *args, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def sample(minutes: int = 3, seed: int = 5) -> list[str]:
    """The CLI's generated API log (combined format): 300 clients, three scrapers and a cron job."""
    out = subprocess.run([CLI, "--sample-log", "api", "--minutes", str(minutes), "--query", f"seed={seed}"], check=True, capture_output=True, text=True)
    return out.stdout.splitlines()


def requests_of(combined: list[str]) -> list[tuple[str, int, str]]:
    """(ip, Unix second, request line) of each combined line."""
    out = []
    for line in combined:
        ip, stamp, request = COMBINED.match(line).groups()
        second = int(dt.datetime.strptime(stamp, "%d/%b/%Y:%H:%M:%S %z").timestamp())
        out.append((ip, second, request))
    return out


def in_format(name: str, combined: list[str]) -> list[str]:
    """The same requests as a log in format ``name``. The finer formats get a fraction of a second
    per line (a few out of order, as real logs have), so their stamps are exact, not spread."""
    rows = requests_of(combined)
    frac = lambda i: (i * 389) % 1000  # noqa: E731
    iso = lambda s, i, digits: dt.datetime.fromtimestamp(s, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + f".{frac(i):03d}" + "0" * (digits - 3) + "Z"  # noqa: E731
    if name == "combined":
        return combined
    if name == "msec":
        return [f'{s}.{frac(i):03d} {ip} "{req}" 200 10' for i, (ip, s, req) in enumerate(rows)]
    if name == "json":
        return [json.dumps({"time": iso(s, i, 3), "ip": ip, "path": req.split(" ")[1]}) for i, (ip, s, req) in enumerate(rows)]
    if name == "json:ts":
        return [json.dumps({"ts": float(f"{s}.{frac(i):03d}"), "ip": ip}) for i, (ip, s, req) in enumerate(rows)]
    if name == "alb":
        return [f'http {iso(s, i, 6)} app/my-lb/50dc6c495c0c9188 {ip}:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "{req.split(" ")[0]} http://example.org:80{req.split(" ")[1]} HTTP/1.1" "curl/8" - -' for i, (ip, s, req) in enumerate(rows)]
    if name == "cloudfront":
        head = ["#Version: 1.0", "#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer)"]
        body = []
        for ip, s, req in rows:
            t = dt.datetime.fromtimestamp(s, dt.timezone.utc)
            body.append("\t".join([t.strftime("%Y-%m-%d"), t.strftime("%H:%M:%S"), "IAD89-P1", "1045", ip, req.split(" ")[0], "d111.cloudfront.net", req.split(" ")[1], "200", "-"]))
        return head + body
    if name == "times":
        first = rows[0][1]
        return [f"{(s - first) * 1000 + frac(i)}" for i, (ip, s, req) in enumerate(rows)]
    raise ValueError(name)


#: Every format, with the key the check uses (a `times` log has no client: one global key).
FORMATS = [("combined", "ip"), ("msec", "ip"), ("json", "ip"), ("json:ts", "ip"), ("alb", "ip"), ("cloudfront", "ip"), ("times", "global"), ("json", "path")]


class Workdir:
    """A temporary folder, removed at the end."""

    def __init__(self):
        self._dir = tempfile.TemporaryDirectory(prefix="rlp-python-")
        self.path = Path(self._dir.name)

    def write(self, name: str, lines: list[str], gz: bool = False) -> str:
        path = self.path / name
        data = ("\n".join(lines) + "\n").encode()
        path.write_bytes(gzip.compress(data) if gz else data)
        return str(path)

    def close(self):
        self._dir.cleanup()


def split_round_robin(lines: list[str], parts: int) -> list[list[str]]:
    """``lines`` dealt into ``parts`` files, line by line: every key spread across all of them."""
    return [lines[i::parts] for i in range(parts)]


def per_key_rows(table) -> list[dict]:
    """A per-key table's rows, in the CLI's order (most rejections first, then by key)."""
    rows = table.to_pylist() if hasattr(table, "to_pylist") else table
    return sorted(rows, key=lambda r: (-r["rejected"], r["key"]))

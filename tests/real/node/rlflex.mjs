#!/usr/bin/env node
// Replays one key's request times through the REAL rate-limiter-flexible (RateLimiterMemory),
// with Date and the timers faked by @sinonjs/fake-timers, and prints what it decided.
//
//   echo '{"options":{"points":2,"duration":1},"times_ns":[0,400000000],"epoch_s":1767225600}' \
//     | node tests/real/node/rlflex.mjs
//
// stdin: one JSON object
//   options   the RateLimiterMemory options the production panel exports
//   times_ns  non-decreasing simulated ns; Date.now() = epoch_s * 1000 + floor(ns / 1e6)
//   epoch_s   the Unix time at simulated 0 (a UTC midnight)
// stdout: {"decisions":[{allowed, ms_before_next, hold_ms}], "versions":{...}}
//   allowed         consume() resolved (else it rejected: a 429)
//   ms_before_next  the RateLimiterRes's msBeforeNext
//   hold_ms         for an admitted consume, the ms from the call to its resolution (execEvenly)
//
// The clock moves with tickAsync, so the storage's expiry timers and execEvenly's delayed
// resolutions fire in order, with promise callbacks run between them. A consume changes the
// key's points when it is called; only its promise settles later.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const NODE_MODULES =
  process.env.RLP_NODE_MODULES ||
  path.join(os.homedir(), '.cache', 'ratelimit-playground', 'node-real', 'node_modules');
const require = createRequire(path.join(NODE_MODULES, 'rlp-replay.cjs'));
const versionOf = (pkg) => JSON.parse(fs.readFileSync(path.join(NODE_MODULES, pkg, 'package.json'), 'utf8')).version;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const FakeTimers = require('@sinonjs/fake-timers');
const start = input.epoch_s * 1000;
const clock = FakeTimers.install({ now: start, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
const { RateLimiterMemory } = require('rate-limiter-flexible');
const limiter = new RateLimiterMemory(input.options);

const decisions = [];
let at = start;
for (const ns of input.times_ns) {
  const t = start + Math.floor(ns / 1e6);
  if (t > at) {
    await clock.tickAsync(t - at);
    at = t;
  }
  const d = { allowed: null, ms_before_next: null, hold_ms: null };
  decisions.push(d);
  const called = Date.now();
  limiter.consume('client', 1).then(
    (res) => Object.assign(d, { allowed: true, ms_before_next: res.msBeforeNext, hold_ms: Date.now() - called }),
    (res) => Object.assign(d, { allowed: false, ms_before_next: res.msBeforeNext }),
  );
}
// Let every held resolution fire.
await clock.tickAsync(48 * 3600 * 1000);
clock.uninstall();
if (decisions.some((d) => d.allowed === null)) {
  process.stderr.write('rlflex.mjs: a consume never settled\n');
  process.exit(2);
}
const versions = { 'rate-limiter-flexible': versionOf('rate-limiter-flexible'), node: process.version };
process.stdout.write(JSON.stringify({ decisions, versions }));

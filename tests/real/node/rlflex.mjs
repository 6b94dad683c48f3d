#!/usr/bin/env node
// Replays one key's request times through the REAL rate-limiter-flexible (RateLimiterMemory,
// with Date and the timers faked by @sinonjs/fake-timers; or RateLimiterRedis with ioredis on a
// redis-server whose clock this sets), and prints what it decided.
//
//   echo '{"options":{"points":2,"duration":1},"times_ns":[0,400000000],"epoch_s":1767225600}' \
//     | node tests/real/node/rlflex.mjs
//
// stdin: one JSON object
//   options   the RateLimiterMemory options the production panel exports
//   times_ns  non-decreasing simulated ns; Date.now() = epoch_s * 1000 + floor(ns / 1e6)
//   epoch_s   the Unix time at simulated 0 (a UTC midnight)
//   redis     (optional) {"url": "redis://127.0.0.1:PORT", "clock": "/path"}: RateLimiterRedis on
//             that server. Its wall clock is the file `clock` (tests/real/redis_cell/fake_clock.c,
//             preloaded): before each consume this writes the instant there (20 digits of ns since
//             the Unix epoch) and awaits the consume. Timers are real (ioredis needs them); an
//             execEvenly hold is the delay the library asks setTimeout for, taken from the call
//             and not waited. Every key is removed at the end.
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

if (input.redis) await replayOnRedis(input);
else await replayInMemory(input);

// RateLimiterMemory under fake timers.
async function replayInMemory(input) {
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
    process.exitCode = 2;
    return;
  }
  const versions = { 'rate-limiter-flexible': versionOf('rate-limiter-flexible'), node: process.version };
  process.stdout.write(JSON.stringify({ decisions, versions }));
}

// RateLimiterRedis, one consume at a time on the set clock.
async function replayOnRedis({ options, times_ns, epoch_s, redis: where }) {
  const Redis = require('ioredis');
  const { RateLimiterRedis, RateLimiterRes } = require('rate-limiter-flexible');
  const realSetTimeout = globalThis.setTimeout;
  let held = null;
  globalThis.setTimeout = (fn, ms, ...args) => {
    if (args[0] instanceof RateLimiterRes) {
      held = ms;
      return realSetTimeout(fn, 0, ...args);
    }
    return realSetTimeout(fn, ms, ...args);
  };
  const client = new Redis(where.url);
  const limiter = new RateLimiterRedis({ storeClient: client, ...options });
  const clock = fs.openSync(where.clock, 'r+');
  const decisions = [];
  for (const ns of times_ns) {
    fs.writeSync(clock, (BigInt(epoch_s) * 1000000000n + BigInt(ns)).toString().padStart(20, '0'), 0);
    held = null;
    try {
      const res = await limiter.consume('client', 1);
      decisions.push({ allowed: true, ms_before_next: res.msBeforeNext, hold_ms: held ?? 0 });
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      decisions.push({ allowed: false, ms_before_next: res.msBeforeNext, hold_ms: null });
    }
  }
  fs.closeSync(clock);
  const server = (await client.info('server')).match(/redis_version:(\S+)/)[1];
  await client.del('rlflx:client');
  await client.quit();
  const versions = {
    'rate-limiter-flexible': versionOf('rate-limiter-flexible'),
    ioredis: versionOf('ioredis'),
    'redis-server': server,
    node: process.version,
  };
  process.stdout.write(JSON.stringify({ decisions, versions }));
}

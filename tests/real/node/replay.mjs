#!/usr/bin/env node
// Replays one client's request timestamps through the REAL npm rate limiters, with time faked
// by @sinonjs/fake-timers, and prints what each library decided.
//
//   echo '{"product":"express","params":{"windowMs":1000,"limit":5},"times_ms":[0,50,100]}' \
//     | node tests/real/node/replay.mjs
//
// stdin: one JSON object
//   product     "express" | "upstash_fixed" | "upstash_sliding" | "upstash_token"
//   params      express:          {windowMs, limit}
//               upstash_fixed:    {tokens, window}            window as an Upstash duration, "10 s"
//               upstash_sliding:  {tokens, window}
//               upstash_token:    {refillRate, interval, maxTokens}
//               upstash, optional: ephemeralCache (boolean; absent = the library default, which is ON)
//   times_ms    non-decreasing ms since an epoch; fractional values allowed (see below)
//   redis_port  upstash only: a redis-server on 127.0.0.1 (keys used are deleted at the end)
// stdout: {"decisions":[{t_ms, now_ms, allowed, status, retry_after_ms, ...}], "versions":{...}, ...}
//
// Time: the fake clock only ever holds integer ms, as the real Date.now() does: a request at
// t_ms is made with Date.now() === Math.floor(t_ms). The clock is moved with clock.tick, so the
// fake setInterval of express-rate-limit's MemoryStore (clearExpired every windowMs) fires in
// order, before a request that falls on the same ms.
//
// Packages are loaded from $RLP_NODE_MODULES, default ~/.cache/ratelimit-playground/node-real/node_modules
// (install: npm install --prefix ~/.cache/ratelimit-playground/node-real express-rate-limit@8.7.4
//  @upstash/ratelimit@2.2.0 @sinonjs/fake-timers@15.5.0).
//
// What the output means:
//   express: allowed = the middleware called next(); otherwise it answered 429 and
//     retry_after_ms is its Retry-After header (whole seconds) * 1000. remaining/used/reset_ms
//     are from req.rateLimit. Rejected requests are counted too (the store increments first).
//   upstash: allowed = limit().success; status 200/429 and retry_after_ms = reset - now are this
//     script's mapping (the library sends no HTTP response). reason "cacheBlock" = refused by the
//     ephemeral cache without asking Redis. The ephemeral cache is ON unless params.ephemeralCache
//     is false: it is the library's default.

import { createRequire } from 'node:module';
import { createHash, randomUUID } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

const NODE_MODULES =
  process.env.RLP_NODE_MODULES ||
  path.join(os.homedir(), '.cache', 'ratelimit-playground', 'node-real', 'node_modules');
const require = createRequire(path.join(NODE_MODULES, 'rlp-replay.cjs'));

function versionOf(pkg) {
  // Read from the install folder ("exports" may hide package.json from require.resolve).
  const file = path.join(NODE_MODULES, ...pkg.split('/'), 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

function fail(message) {
  process.stderr.write(`replay.mjs: ${message}\n`);
  process.exit(2);
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

// ---------------------------------------------------------------------------------------------
// Fake clock. Only integer ms are ever set: Math.floor(t_ms), reached by ticking (not
// setSystemTime, which would shift pending timers instead of firing them).

function makeClock(FakeTimers, times, toFake) {
  const start = times.length ? Math.floor(times[0]) : 0;
  const clock = FakeTimers.install({ now: start, toFake, shouldClearNativeTimers: false });
  return {
    clock,
    moveTo(t) {
      const target = Math.floor(t);
      if (target < clock.now) throw new Error(`times_ms must be non-decreasing (${t} after ${clock.now})`);
      if (target > clock.now) clock.tick(target - clock.now);
      if (Date.now() !== target) throw new Error(`fake clock at ${Date.now()}, wanted ${target}`);
      return target;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// express-rate-limit: the real middleware with its default MemoryStore.

async function runExpress(input, FakeTimers) {
  const { rateLimit, MemoryStore } = require('express-rate-limit');
  // Counts MemoryStore.clearExpired runs (wrapped, behaviour unchanged): shows the fake
  // setInterval fired at simulated times.
  const clearExpiredAt = [];
  const original = MemoryStore.prototype.clearExpired;
  MemoryStore.prototype.clearExpired = function clearExpired(...a) {
    clearExpiredAt.push(Date.now());
    return original.apply(this, a);
  };
  const { windowMs, limit } = input.params ?? {};
  const times = input.times_ms;
  const warnings = [];
  // setInterval/clearInterval are faked so MemoryStore.clearExpired runs at simulated times.
  const { clock, moveTo } = makeClock(FakeTimers, times, ['Date', 'setInterval', 'clearInterval']);
  const logger = {
    warn: (...a) => warnings.push(a.map(String).join(' ')),
    error: (...a) => warnings.push(a.map(String).join(' ')),
  };
  // Created at the first timestamp: the store's setInterval phase starts here.
  const limiter = rateLimit({ windowMs, limit, logger });
  const app = { get: (name) => (name === 'trust proxy' ? false : undefined) };
  const decisions = [];
  for (const t of times) {
    const now = moveTo(t);
    const headers = {};
    const res = {
      statusCode: 200,
      headersSent: false,
      writableEnded: false,
      body: undefined,
      status(code) { this.statusCode = code; return this; },
      setHeader(name, value) { headers[name.toLowerCase()] = String(value); return this; },
      getHeader(name) { return headers[name.toLowerCase()]; },
      append(name, value) { headers[name.toLowerCase()] = String(value); return this; },
      send(body) { this.body = body; this.writableEnded = true; return this; },
      once() { return this; },
    };
    const req = {
      ip: '127.0.0.1',
      method: 'GET',
      url: '/',
      originalUrl: '/',
      headers: {},
      app,
      socket: { remoteAddress: '127.0.0.1' },
    };
    let nextCalled = false;
    let nextError;
    await limiter(req, res, (err) => { nextCalled = true; nextError = err; });
    if (nextError) fail(`middleware called next(err): ${nextError?.stack ?? nextError}`);
    const allowed = nextCalled;
    const status = allowed ? 200 : res.statusCode;
    if (!allowed && !res.writableEnded) fail('middleware neither called next() nor sent a response');
    const retryAfter = headers['retry-after'];
    const info = req.rateLimit;
    decisions.push({
      t_ms: t,
      now_ms: now,
      allowed,
      status,
      retry_after_ms: retryAfter === undefined ? null : Number(retryAfter) * 1000,
      remaining: info?.remaining ?? null,
      used: info?.used ?? null,
      reset_ms: info?.resetTime instanceof Date ? info.resetTime.getTime() : null,
    });
  }
  clock.uninstall();
  MemoryStore.prototype.clearExpired = original;
  return { decisions, warnings, clear_expired_runs: clearExpiredAt.length, clear_expired_last_ms: clearExpiredAt.at(-1) ?? null };
}

// ---------------------------------------------------------------------------------------------
// A tiny RESP2 client over node:net.

class RespClient {
  constructor(socket) {
    this.socket = socket;
    this.buf = Buffer.alloc(0);
    this.pending = [];
    this.closed = false;
    socket.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.#drain(); });
    socket.on('error', (e) => this.#failAll(e));
    socket.on('close', () => { this.closed = true; this.#failAll(new Error('redis connection closed')); });
  }

  static connect(port, host = '127.0.0.1') {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ port, host });
      socket.once('connect', () => { socket.setNoDelay(true); resolve(new RespClient(socket)); });
      socket.once('error', reject);
    });
  }

  #failAll(err) {
    const p = this.pending;
    this.pending = [];
    for (const { reject } of p) reject(err);
  }

  // Parses one reply at buf[pos]; returns [value, nextPos] or null when incomplete.
  // Error replies become Error objects (they are values inside EXEC arrays).
  #parse(pos) {
    const buf = this.buf;
    const eol = buf.indexOf('\r\n', pos);
    if (eol < 0) return null;
    const type = String.fromCharCode(buf[pos]);
    const line = buf.toString('utf8', pos + 1, eol);
    const after = eol + 2;
    switch (type) {
      case '+': return [line, after];
      case '-': return [new RedisError(line), after];
      case ':': return [Number(line), after];
      case '$': {
        const len = Number(line);
        if (len < 0) return [null, after];
        if (buf.length < after + len + 2) return null;
        return [buf.subarray(after, after + len), after + len + 2];
      }
      case '*': {
        const n = Number(line);
        if (n < 0) return [null, after];
        const out = [];
        let p = after;
        for (let i = 0; i < n; i++) {
          const r = this.#parse(p);
          if (!r) return null;
          out.push(r[0]);
          p = r[1];
        }
        return [out, p];
      }
      default:
        throw new Error(`bad RESP type byte ${JSON.stringify(type)}`);
    }
  }

  #drain() {
    while (this.pending.length) {
      const r = this.#parse(0);
      if (!r) return;
      this.buf = this.buf.subarray(r[1]);
      this.pending.shift().resolve(r[0]);
    }
  }

  // Sends one command; resolves with the raw reply (bulk strings as Buffers, errors as RedisError values).
  send(args) {
    if (this.closed) return Promise.reject(new Error('redis connection closed'));
    const parts = [`*${args.length}\r\n`];
    for (const a of args) {
      const b = Buffer.isBuffer(a) ? a : Buffer.from(String(a), 'utf8');
      parts.push(`$${b.length}\r\n`, b, '\r\n');
    }
    this.socket.write(Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p)))));
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  // Like send, but throws error replies.
  async call(...args) {
    const r = await this.send(args);
    if (r instanceof RedisError) throw r;
    return r;
  }

  // MULTI ... EXEC; returns EXEC's array (elements may be RedisError).
  async multi(commands) {
    const sent = [this.send(['MULTI']), ...commands.map((c) => this.send(c)), this.send(['EXEC'])];
    const replies = await Promise.all(sent);
    for (const r of replies.slice(0, -1)) if (r instanceof RedisError) throw r;
    const exec = replies[replies.length - 1];
    if (exec instanceof RedisError) throw exec;
    if (!Array.isArray(exec)) throw new Error('EXEC aborted');
    return exec;
  }

  async close() {
    if (this.closed) return;
    try { await this.call('QUIT'); } catch { /* closed */ }
    this.socket.end();
    this.socket.destroy();
  }
}

class RedisError extends Error {
  constructor(message) { super(message); this.name = 'RedisError'; }
}

// Converts a RESP reply to what @upstash/redis hands back for a script result: integers as
// numbers, bulk strings as strings (numeric ones parsed, as its automatic deserialization
// does), arrays recursively.
function toUpstashValue(v) {
  if (Array.isArray(v)) return v.map(toUpstashValue);
  if (Buffer.isBuffer(v)) {
    const s = v.toString('utf8');
    try { return JSON.parse(s); } catch { return s; }
  }
  return v;
}

const sha1 = (s) => createHash('sha1').update(s).digest('hex');

// @upstash/ratelimit 2.2.0 starts its scripts with "#!lua flags=allow-key-locking", an
// Upstash-only flag that Redis 7 rejects ("ERR Unexpected flag in script shebang"). The
// adapter sends the script with a bare "#!lua" first line instead; the body is untouched.
function forVanillaRedis(script) {
  return script.replace(/^#!lua flags=allow-key-locking\n/, '#!lua\n');
}

// The @upstash/redis surface that @upstash/ratelimit 2.2.0's single-region limit() calls:
// evalsha(sha, keys, args) and eval(script, keys, args). Nothing else is called (analytics,
// protection/deny list and dynamic limits are all off by default).
//
// Expiry in simulated time: the scripts' PEXPIRE works in Redis's real clock, which does not
// follow the fake one. After each script the adapter reads the expiry the script set
// (PEXPIRETIME, bracketed by TIME inside the same MULTI so the ttl is exact), PERSISTs the key
// so Redis never expires it by itself, and keeps deadline = Date.now() + ttl. Before a script
// touches a key, a key whose deadline has passed (Redis: expired when now > deadline) is
// deleted. If the MULTI crossed a real ms boundary the ttl would be ambiguous by 1 ms: the keys
// are restored from a DUMP taken before and the call is made again.
class UpstashRedisAdapter {
  constructor(client) {
    this.client = client;
    this.loaded = new Map(); // library sha (of the original script) -> sha of the script Redis has
    this.deadlines = new Map(); // key -> simulated expiry ms
    this.touched = new Set();
    this.stats = { evalsha: 0, eval: 0, noscript: 0, expired_deletes: 0, retries: 0 };
  }

  async evalsha(hash, keys, args) {
    this.stats.evalsha++;
    const serverSha = this.loaded.get(hash);
    if (!serverSha) {
      // Redis cannot hold the original (flagged) script, so this is what it would answer.
      this.stats.noscript++;
      throw new RedisError('NOSCRIPT No matching script. Please use EVAL.');
    }
    try {
      return await this.#run(['EVALSHA', serverSha], keys, args);
    } catch (e) {
      if (`${e}`.includes('NOSCRIPT')) { this.loaded.delete(hash); this.stats.noscript++; }
      throw e;
    }
  }

  async eval(script, keys, args) {
    this.stats.eval++;
    const sent = forVanillaRedis(script);
    const result = await this.#run(['EVAL', sent], keys, args);
    this.loaded.set(sha1(script), sha1(sent));
    return result;
  }

  async #run(head, keys, args) {
    const c = this.client;
    const now = Date.now(); // fake clock: the same ms the library used
    keys = keys.map(String);
    for (const k of keys) this.touched.add(k);
    const expired = keys.filter((k) => this.deadlines.has(k) && now > this.deadlines.get(k));
    if (expired.length) {
      await c.call('DEL', ...expired);
      for (const k of expired) this.deadlines.delete(k);
      this.stats.expired_deletes += expired.length;
    }
    const cmd = [...head, keys.length, ...keys, ...args.map((a) => (a === null || a === undefined ? '' : String(a)))];
    for (let attempt = 0; attempt < 50; attempt++) {
      const dumps = await Promise.all(keys.map((k) => c.call('DUMP', k)));
      const perKey = keys.flatMap((k) => [['PEXPIRETIME', k], ['PERSIST', k]]);
      const exec = await c.multi([['TIME'], cmd, ['TIME'], ...perKey]);
      const [tb, reply, ta] = exec;
      const ms = (t) => Number(t[0].toString()) * 1000 + Math.floor(Number(t[1].toString()) / 1000);
      const before = ms(tb);
      const afterMs = ms(ta);
      // RLP_REPLAY_FORCE_RETRY=1 (self-test only) takes the restore path on every first try.
      const forced = attempt === 0 && process.env.RLP_REPLAY_FORCE_RETRY === '1';
      if ((before !== afterMs || forced) && !(reply instanceof RedisError)) {
        // ttl ambiguous by a ms: put the keys back as they were and make the call again.
        this.stats.retries++;
        const restore = [['DEL', ...keys]];
        keys.forEach((k, i) => { if (dumps[i] !== null) restore.push(['RESTORE', k, 0, dumps[i]]); });
        await c.multi(restore);
        continue;
      }
      keys.forEach((k, i) => {
        const when = exec[3 + 2 * i];
        if (when === -2) this.deadlines.delete(k); // key gone
        else if (when >= 0) this.deadlines.set(k, now + (when - before)); // set by this script
        // -1: this script set no expiry; the one kept from an earlier call stands
      });
      if (reply instanceof RedisError) throw reply;
      return toUpstashValue(reply);
    }
    throw new Error('could not run the script within one real millisecond in 50 tries');
  }

  async cleanup() {
    const keys = [...this.touched];
    if (keys.length) await this.client.call('DEL', ...keys);
  }
}

async function runUpstash(input, FakeTimers) {
  const { Ratelimit } = require('@upstash/ratelimit');
  const p = input.params ?? {};
  const times = input.times_ms;
  if (!Number.isInteger(input.redis_port)) fail('redis_port (integer) is required for upstash products');
  let limiter;
  switch (input.product) {
    case 'upstash_fixed': limiter = Ratelimit.fixedWindow(p.tokens, p.window); break;
    case 'upstash_sliding': limiter = Ratelimit.slidingWindow(p.tokens, p.window); break;
    case 'upstash_token': limiter = Ratelimit.tokenBucket(p.refillRate, p.interval, p.maxTokens); break;
    default: fail(`unknown product ${input.product}`);
  }
  const client = await RespClient.connect(input.redis_port);
  const info = (await client.call('INFO', 'server')).toString('utf8');
  const redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? null;
  const redis = new UpstashRedisAdapter(client);
  // Only Date is faked: sockets and the library's 5 s timeout (setTimeout) stay real.
  const { clock, moveTo } = makeClock(FakeTimers, times, ['Date']);
  const config = {
    redis,
    limiter,
    analytics: false, // the default; said outright
    enableTelemetry: false,
  };
  if (typeof p.ephemeralCache === 'boolean') {
    // true: a fresh Map, as the default (undefined) gives; false: no cache.
    config.ephemeralCache = p.ephemeralCache ? new Map() : false;
  }
  const rl = new Ratelimit(config);
  const identifier = p.identifier ?? `rlp-replay-${randomUUID()}`;
  const decisions = [];
  try {
    for (const t of times) {
      const now = moveTo(t);
      const r = await rl.limit(identifier);
      await r.pending;
      if (r.reason === 'timeout') throw new Error(`limit() timed out at t_ms=${t}`);
      decisions.push({
        t_ms: t,
        now_ms: now,
        allowed: r.success,
        status: r.success ? 200 : 429,
        // Not from the library: what a handler would send, reset - Date.now(), ms.
        retry_after_ms: r.success ? null : r.reset - now,
        remaining: r.remaining,
        limit: r.limit,
        reset_ms: r.reset,
        reason: r.reason ?? null,
      });
    }
  } finally {
    clock.uninstall();
    try { await redis.cleanup(); } finally { await client.close(); }
  }
  return {
    decisions,
    identifier,
    ephemeral_cache: config.ephemeralCache === undefined ? 'default (on)' : config.ephemeralCache !== false,
    adapter: redis.stats,
    redis_server: redisVersion,
  };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const raw = await readStdin();
  let input;
  try { input = JSON.parse(raw); } catch (e) { fail(`stdin is not JSON: ${e.message}`); }
  if (!input || !Array.isArray(input.times_ms)) fail('times_ms (array) is required');
  if (!input.times_ms.every((t) => typeof t === 'number' && Number.isFinite(t))) fail('times_ms must be finite numbers');
  if (input.times_ms.some((t, i) => i > 0 && Math.floor(t) < Math.floor(input.times_ms[i - 1]))) {
    fail('times_ms must be non-decreasing');
  }
  let FakeTimers;
  try { FakeTimers = require('@sinonjs/fake-timers'); } catch (e) {
    fail(`cannot load packages from ${NODE_MODULES} (set RLP_NODE_MODULES): ${e.message}`);
  }
  const versions = { node: process.versions.node, '@sinonjs/fake-timers': versionOf('@sinonjs/fake-timers') };
  let out;
  if (input.product === 'express') {
    versions['express-rate-limit'] = versionOf('express-rate-limit');
    out = await runExpress(input, FakeTimers);
  } else if (typeof input.product === 'string' && input.product.startsWith('upstash_')) {
    versions['@upstash/ratelimit'] = versionOf('@upstash/ratelimit');
    out = await runUpstash(input, FakeTimers);
  } else {
    fail(`unknown product ${JSON.stringify(input.product)}`);
  }
  process.stdout.write(`${JSON.stringify({ product: input.product, ...out, versions })}\n`);
}

main().then(
  () => { process.exitCode = 0; },
  (e) => { process.stderr.write(`replay.mjs: ${e?.stack ?? e}\n`); process.exit(1); },
);

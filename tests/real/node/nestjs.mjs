#!/usr/bin/env node
// Replays one client's request times through the REAL @nestjs/throttler: its ThrottlerGuard
// (canActivate, as NestJS calls it for a route) over its in-memory ThrottlerStorageService, with
// Date and the timers faked by @sinonjs/fake-timers, and prints each answer.
//
//   echo '{"throttler":{"ttl":1000,"limit":2},"times_ns":[0,400000000],"epoch_s":1767225600}' \
//     | node tests/real/node/nestjs.mjs
//
// stdin: one JSON object
//   throttler  the throttler the production panel exports: {ttl, limit, blockDuration?} (ms)
//   times_ns   non-decreasing simulated ns; Date.now() = epoch_s * 1000 + floor(ns / 1e6)
//   epoch_s    the Unix time at simulated 0 (a UTC midnight)
// stdout: {"decisions":[{status, headers}], "versions":{...}}
//
// The clock moves with tickAsync, so the storage's idle-key sweep (a setInterval) fires when it
// would. Packages come from $RLP_NEST_MODULES, default ~/.cache/ratelimit-playground/node-nest/node_modules.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const NODE_MODULES =
  process.env.RLP_NEST_MODULES ||
  path.join(os.homedir(), '.cache', 'ratelimit-playground', 'node-nest', 'node_modules');
const require = createRequire(path.join(NODE_MODULES, 'rlp-replay.cjs'));
const versionOf = (pkg) => JSON.parse(fs.readFileSync(path.join(NODE_MODULES, pkg, 'package.json'), 'utf8')).version;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));

require('reflect-metadata');
const FakeTimers = require('@sinonjs/fake-timers');
const start = input.epoch_s * 1000;
const clock = FakeTimers.install({ now: start, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
const { ThrottlerStorageService, ThrottlerGuard, ThrottlerException } = require('@nestjs/throttler');
const { Reflector } = require('@nestjs/core');

const storage = new ThrottlerStorageService();
const guard = new ThrottlerGuard({ throttlers: [{ name: 'default', ...input.throttler }] }, storage, new Reflector());
await guard.onModuleInit();

// A route's context, as NestJS hands it to a guard.
class AppController { hello() {} }
async function request() {
  const headers = {};
  const req = { ip: '127.0.0.1', headers: {} };
  const res = { header: (name, value) => { headers[name] = value; } };
  const context = {
    getHandler: () => AppController.prototype.hello,
    getClass: () => AppController,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  };
  try {
    return { status: (await guard.canActivate(context)) ? 200 : 403, headers };
  } catch (e) {
    if (!(e instanceof ThrottlerException)) throw e;
    return { status: e.getStatus(), headers };
  }
}

const decisions = [];
let at = start;
for (const ns of input.times_ns) {
  const t = start + Math.floor(ns / 1e6);
  if (t > at) {
    await clock.tickAsync(t - at);
    at = t;
  }
  decisions.push(await request());
}
storage.onApplicationShutdown();
clock.uninstall();
const versions = { '@nestjs/throttler': versionOf('@nestjs/throttler'), '@nestjs/core': versionOf('@nestjs/core'), node: process.version };
process.stdout.write(JSON.stringify({ decisions, versions }));

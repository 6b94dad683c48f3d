//! @nestjs/throttler: the application module (TypeScript, as NestJS apps are written) with the
//! throttler and its guard, and a demonstration that starts the app on a free loopback port and
//! sends one request more than the limit. The numbers come from [`Throttler`], which
//! `algo=nestjs` runs.

use super::model::Throttler;
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy, o: &ProductOptions) -> Config {
    let t = Throttler::of(p, o);
    let Throttler { limit, ttl_ms, block_ms } = t;
    let block = match block_ms {
        0 => String::new(),
        ms => format!(", blockDuration: {ms}"),
    };
    let over = limit + 1;
    let ttl = secs(ttl_ms * 1_000_000);
    let snippet = format!(
        "// app.module.ts — @nestjs/throttler: {limit} requests per {ttl} s per client IP\n\
         // (npm i @nestjs/throttler; ttl and blockDuration in ms).\n\
         import {{ Controller, Get, Module }} from '@nestjs/common';\n\
         import {{ APP_GUARD, NestFactory }} from '@nestjs/core';\n\
         import {{ ThrottlerGuard, ThrottlerModule }} from '@nestjs/throttler';\n\n\
         @Controller()\n\
         class HelloController {{\n\
        \x20 @Get()\n\
        \x20 hello(): string {{\n\
        \x20   return 'ok';\n\
        \x20 }}\n\
         }}\n\n\
         @Module({{\n\
        \x20 imports: [ThrottlerModule.forRoot([{{ ttl: {ttl_ms}, limit: {limit}{block} }}])],\n\
        \x20 controllers: [HelloController],\n\
        \x20 providers: [{{ provide: APP_GUARD, useClass: ThrottlerGuard }}],\n\
         }})\n\
         export class AppModule {{}}\n\n\
         // A demonstration: the app on a free loopback port, {over} requests at once.\n\
         async function demo(): Promise<void> {{\n\
        \x20 const app = await NestFactory.create(AppModule, {{ logger: false }});\n\
        \x20 await app.listen(0, '127.0.0.1');\n\
        \x20 const url = await app.getUrl();\n\
        \x20 let served = 0;\n\
        \x20 let retry = '';\n\
        \x20 for (let i = 0; i < {over}; i++) {{\n\
        \x20   const res = await fetch(url);\n\
        \x20   if (res.status === 200) served++;\n\
        \x20   else retry = res.headers.get('retry-after') ?? '';\n\
        \x20 }}\n\
        \x20 console.log(`${{served}} of {over} served at once; retry after ${{retry}} s`);\n\
        \x20 await app.close();\n\
         }}\n\n\
         if (require.main === module) void demo();\n"
    );
    let block_s = secs(t.block() * 1_000_000);
    let mut notes = vec![format!(
        "Each admitted request counts for {ttl} s from its own arrival (a sliding log); the one that takes the count \
         above {limit} is refused and blocks the client for {block_s} s{}, Retry-After counting down to the block's end.",
        if block_ms == 0 { " (blockDuration left out: the ttl)" } else { "" }
    )];
    notes.push(
        "Requests during the block are not counted, and the block's end clears the count: the client then gets a \
         full limit at once, even if its earlier requests are still within the ttl."
            .into(),
    );
    notes.push(
        "The default storage is in memory, per process: several instances need a shared storage (e.g. a Redis \
         ThrottlerStorage) to share counts."
            .into(),
    );
    if ttl_ms * 1_000_000 != p.window_ns {
        notes.push(format!("ttl is whole ms: {} s rounded to {ttl} s.", secs(p.window_ns)));
    }
    if p.shape == Shape::Bucket {
        notes.push(format!(
            "Your policy is a token bucket: the throttler counts a sliding log, so this keeps its burst ({}) and \
             long-run rate ({}/s) but not its smooth refill.",
            p.burst,
            p.per_sec()
        ));
    }
    Config { target: "NestJS", language: "ts", snippet, notes }
}

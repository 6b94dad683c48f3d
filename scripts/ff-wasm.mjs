// Times examples/ff.rs built for wasm32 (`make ff-wasm` builds it and runs this) in Node's V8: six runs, each one
// simulated hour at 1 000 requests/s, the same work as the browser benchmark's fast-forward.
import { readFileSync } from "node:fs";
const [file = "target/wasm32-unknown-unknown/release/examples/ff.opt.wasm"] = process.argv.slice(2);
const module = new WebAssembly.Module(readFileSync(file));
// The library links wasm-bindgen; the engine calls none of its imports, so each one throws.
const imports = {};
for (const { module: m, name } of WebAssembly.Module.imports(module)) {
  (imports[m] ??= {})[name] = () => { throw new Error(`unexpected import ${m}.${name}`); };
}
const instance = new WebAssembly.Instance(module, imports);
const times = [];
for (let i = 0; i < 6; i++) {
  const t = performance.now();
  const requests = instance.exports.ff();
  times.push(performance.now() - t);
  if (i === 0) console.log(`${requests} requests per run`);
}
console.log(`ms per run: ${times.map((ms) => ms.toFixed(0)).join(", ")}`);

// Starts the Embed panel's builder, a wasm module of its own (src/bin/ratelimit-embed.rs), once
// its glue, ratelimit-embed.js, has defined `wasm_bindgen` (wasm-bindgen's no-modules script: the
// page's one classic-script glue, so the global is its alone); the page
// (src/app/share/builder_host.rs) adds both scripts the first time the panel opens and reads the
// promise of the module's exports here.
window.rlpEmbedBuilder = wasm_bindgen({
  module_or_path: new URL("ratelimit-embed_bg.wasm", document.currentScript.src),
}).then(() => wasm_bindgen);

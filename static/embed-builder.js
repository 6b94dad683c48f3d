// Starts the Embed panel's builder, a wasm module of its own (src/bin/ratelimit-embed.rs), once
// ratelimit-embed.js has defined `ratelimit_embed` (scripts/name_globals.py); the page (src/app/share/builder_host.rs) adds
// both scripts the first time the panel opens and reads the promise of the module's exports here.
window.rlpEmbedBuilder = ratelimit_embed({
  module_or_path: new URL("ratelimit-embed_bg.wasm", document.currentScript.src),
}).then(() => ratelimit_embed);

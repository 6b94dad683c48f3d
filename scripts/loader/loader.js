// The page's loader: starts the wasm module a link needs, and the whole page's module when a
// first module hands over to it. scripts/externalize_loader.py writes it into the build as
// loader-<hash>.js, in place of Trunk's inline loader: route.js (the routing, `route(search)`,
// printed from src/present/share/route.rs) first, then this file, with the names in double
// braces filled in from Trunk's own loader: base, the folder the modules are served from ("./"
// in a release build, "/" under trunk serve), and page_glue and page_wasm, the file names of the
// page's first module (they carry Trunk's content hash).
//
// The whole page's and a frame's modules are built by Trunk without being loaded (index.html:
// their worker type) with wasm-bindgen's `web` target (data-bindgen-target): ES modules whose
// default export starts them.

// index.html loads this script `async`: it runs as soon as it arrives, before the parser has
// finished the body (a phone still lays out the first paint then), so each module's files start
// downloading at once; a module mounts into the body only once the document is parsed.
const parsed = document.readyState === "loading"
  ? new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }))
  : Promise.resolve();

// A frame's own stylesheet, which first-paint.js adds for an embed link (index.html keeps it in a
// <template>): a frame's module, either one, mounts once it has arrived.
const frameStyled = new Promise((done) => {
  const link = document.getElementById("frame-css");
  if (!link || link.sheet) return done();
  link.onload = link.onerror = done;
});

// Starts the whole page's module (ratelimit-full), its own stylesheets first; resolves once it
// has mounted. A first module hands over to it with this (app::split::whole_page), so there is one copy
// of how.
const startWhole = async () => {
  // The whole page's own stylesheets (the multi-node view's, and Compare all's and the panels')
  // wait in a <template> of index.html, so a page or frame that never shows those parts does not
  // download them.
  const css = document.getElementById("whole-page-css");
  const styled = Promise.all([...(css ? css.content.children : [])].map((sheet) => new Promise((settled) => {
    const link = sheet.cloneNode();
    link.onload = link.onerror = settled;
    document.head.append(link);
  })));
  css?.remove();
  const module_or_path = fetch("{{base}}ratelimit-full_bg.wasm");
  const { default: init } = await import("{{base}}ratelimit-full.js");
  await styled;
  await frameStyled;
  await parsed;
  const wasm = await init({ module_or_path });
  return wasm;
};
globalThis.rlpStartWhole = startWhole;

// index.html's word for an app that did not start (style/main.css shows it after a few seconds),
// in the body: looked up once the document is parsed. While this loader runs it is held back
// (`booting` on <html>): a module still arriving on a slow link is not one that failed. One that
// fails shows it at once, below, and marks <html> `failed` (a frame's fallback script reads it).
const word = () => document.getElementById("boot-failed");
document.documentElement.classList.add("booting");

// Each module's wasm is fetched before its glue is imported, so the two download side by side:
// wasm-bindgen's init takes the pending response (it awaits what it is given), and a reader on a
// slow link waits one round trip less before the largest file starts to arrive.

// Tells whoever listens that the module runs, as Trunk's own loader does, and takes the word away,
// and index.html's first paints with it (the page's header, a frame's bar): the app has mounted its
// own below them, in this same task, so no frame shows both.
const started = (wasm) => {
  word()?.remove();
  document.getElementById("first-paint")?.remove();
  document.getElementById("frame-paint")?.remove();
  dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));
};

try {
  switch (route(location.search)) {
    case "whole": {
      // Every view and panel; a frame of any card for an embed link (app::WholeApp).
      started(await startWhole());
      break;
    }
    case "frame": {
      // One server's cards (ratelimit-frame).
      const module_or_path = fetch("{{base}}ratelimit-frame_bg.wasm");
      const { default: init } = await import("{{base}}ratelimit-frame.js");
      await frameStyled;
      await parsed;
      started(await init({ module_or_path }));
      break;
    }
    default: {
      // The page's first module, one server's limiter, started as Trunk's own loader starts it.
      const module_or_path = fetch("{{base}}{{page_wasm}}");
      const bindings = await import("{{base}}{{page_glue}}");
      const init = bindings.default;
      await parsed;
      const wasm = await init({ module_or_path });
      window.wasmBindings = bindings;
      started(wasm);
    }
  }
} catch (error) {
  // A module that cannot be fetched or started: the word shows at once, with the reason.
  await parsed;
  document.documentElement.classList.replace("booting", "failed");
  const shown = word();
  if (shown) {
    shown.style.animation = "none";
    shown.append(` (${error})`);
  }
  throw error;
}

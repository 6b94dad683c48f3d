// A frame's word to the page around it while it starts, and its fallback when it cannot: a plain
// script (not a module), which first-paint.js adds for an embed link only (index.html's
// #frame-parts), so it runs wherever a frame runs any script at all.
//
// - At once it tells the page it is loading ({type: "ratelimit-playground:loading"}): the
//   snippet's script then never takes a healthy frame, slow or not yet scrolled into view, for a
//   dead one.
// - If its code fails before the app has started, it tells the page ({type:
//   "ratelimit-playground:failed", reason, height}), which moves the frame under its still. A
//   frame sandboxed without allow-same-origin has an opaque origin, so its own files are another
//   site's to it: on a server without CORS headers none of them loads, and the frame says so in
//   words styled here (its stylesheets failed too) that name the sandbox, not the server. Any
//   other failure keeps index.html's #boot-failed, which the loader fills in with the reason.
(function () {
  var w = window, d = document, started = false, said = false;
  var post = function (kind, fields) {
    if (w.parent === w) return;
    var message = { type: "ratelimit-playground:" + kind };
    for (var k in fields || {}) message[k] = fields[k];
    w.parent.postMessage(message, "*");
  };
  post("loading");
  w.addEventListener("TrunkApplicationStarted", function () { started = true; });

  // The sandbox's words, in place of everything else the frame shows (its first paint, an
  // unstyled page), on a transparent page so the still under the frame shows around them.
  var sandboxed = function () {
    var body = d.body;
    body.textContent = "";
    body.style.cssText = "margin: 0; background: transparent";
    d.documentElement.style.cssText = "background: transparent; color-scheme: normal";
    var p = d.createElement("p");
    p.id = "frame-blocked";
    p.setAttribute("role", "status");
    p.style.cssText =
      "margin: 0; padding: 10px 12px; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; " +
      "color: #1b1f24; background: #fff4e0; border-left: 4px solid #d55e00";
    var strong = d.createElement("strong");
    strong.textContent = "This live widget needs allow-same-origin in its frame's sandbox. ";
    p.append(strong,
      "Without it the frame has no origin of its own, so its own code and stylesheets count as " +
      "another site's, and this server does not share them with other sites. The snippet from the " +
      "playground's Embed panel has it: sandbox=\"allow-scripts allow-same-origin allow-popups " +
      "allow-popups-to-escape-sandbox\".");
    body.append(p);
    return Math.ceil(p.getBoundingClientRect().height);
  };

  var fail = function (opaque) {
    if (started || said) return;
    said = true;
    var show = function () {
      post("failed", opaque ? { reason: "sandbox", height: sandboxed() } : { reason: "code" });
    };
    if (d.readyState === "loading") d.addEventListener("DOMContentLoaded", show, { once: true });
    else show();
  };
  // The loader marks a module that could not be fetched or started (`failed` on <html>, with the
  // reason in #boot-failed); whether that happened before this script ran or after.
  var failed = function () {
    if (d.documentElement.classList.contains("failed")) fail(false);
  };
  failed();
  w.addEventListener("error", failed, true);
  w.addEventListener("unhandledrejection", failed);
  // An opaque origin reaches its own files only where the server sends CORS headers: asked for
  // this very page, a server without them refuses, and the code and stylesheets fail alike.
  if (w.origin === "null") {
    fetch(location.href, { method: "HEAD" }).catch(function () { fail(true); });
  }
})();

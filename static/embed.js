/* ratelimit-playground's host script: direct the playground's widgets from your post.
 *
 *   <script src="https://YOUR-PLAYGROUND/embed.js" defer></script>
 *
 * It finds the snippet's frames (iframe[data-ratelimit-playground]) and gives each a widget:
 *
 *   const w = RatelimitPlayground.widget("#race");      // an iframe, or a selector for one
 *   await w.send("set", {query: "store=atomic"});        // resolves with the frame's result;
 *   await w.send("seek", {t: 10});                       // rejects with its error, in words
 *   w.on("time", d => console.log(d.t));                 // ready, state, time, height, error
 *
 * Commands wait until the frame says it is ready. Scroll steps need no script of your own: an
 * element with data-rlp-step='{"query": "store=atomic", "t": 10, "play": true}' sets, seeks and
 * plays its frame when it reaches the middle of the screen (data-rlp-frame="ID" names the
 * iframe; by default the last frame before it in the page, or the first; the newest step wins
 * when the reader scrolls past several at once). Needs Promise (every browser but IE). Messages are
 * {ns: "rlp", v: 1, kind, id, name, data}; only those from a widget's own frame are read.
 * No dependency, nothing sent anywhere but to the frames. */
(function () {
  "use strict";
  if (window.RatelimitPlayground) return;
  var SELECTOR = "iframe[data-ratelimit-playground]";
  var widgets = [];
  var next = 1;

  function Widget(frame) {
    this.frame = frame;
    this.ready = false;
    this.queue = [];
    this.waiting = {};
    this.listeners = {};
  }
  Widget.prototype.post = function (message) {
    if (!this.frame.contentWindow) return false;
    this.frame.contentWindow.postMessage(message, "*");
    return true;
  };
  /* Asks the frame to say ready (again): the answer to a host script that came after it. */
  Widget.prototype.ping = function () {
    this.post({ ns: "rlp", v: 1, kind: "cmd", name: "ping" });
  };
  /* Sends command `name` with `data`; a promise of its result. */
  Widget.prototype.send = function (name, data) {
    var self = this;
    return new Promise(function (resolve, reject) {
      var id = next++;
      self.waiting[id] = { resolve: resolve, reject: reject };
      var message = { ns: "rlp", v: 1, kind: "cmd", id: id, name: name, data: data || {} };
      if (!self.ready) return self.queue.push(message);
      if (!self.post(message)) {
        delete self.waiting[id];
        reject(new Error("the widget's frame is no longer in the page"));
      }
    });
  };
  /* Calls `fn(data)` on each event `name` (ready, state, time, height, error). */
  Widget.prototype.on = function (name, fn) {
    (this.listeners[name] = this.listeners[name] || []).push(fn);
    return this;
  };
  Widget.prototype.heard = function (d) {
    if (d.kind === "res") {
      var w = this.waiting[d.id];
      if (!w) return;
      delete this.waiting[d.id];
      var data = d.data && typeof d.data === "object" ? d.data : {};
      if ("error" in data) w.reject(new Error(data.error));
      else w.resolve(data.result);
      return;
    }
    if (d.kind !== "evt") return;
    if (d.name === "ready" && !this.ready) {
      this.ready = true;
      var queued = this.queue;
      this.queue = [];
      for (var i = 0; i < queued.length; i++) this.post(queued[i]);
    }
    if (d.name === "height" && d.data && d.data.px > 0 && d.data.px < 2e4) {
      this.frame.style.height = Math.ceil(d.data.px) + "px";
    }
    var fns = this.listeners[d.name] || [];
    for (var j = 0; j < fns.length; j++) {
      try {
        fns[j](d.data);
      } catch (err) {
        console.error(err);
      }
    }
  };

  function widgetOf(frame) {
    for (var i = 0; i < widgets.length; i++) if (widgets[i].frame === frame) return widgets[i];
    var w = new Widget(frame);
    widgets.push(w);
    // The frame may have said ready before this script ran: ask again. A frame that reloads
    // (a new src) is not ready until it says so.
    w.ping();
    frame.addEventListener("load", function () {
      w.ready = false;
      w.ping();
    });
    return w;
  }

  window.addEventListener("message", function (e) {
    var d = e.data;
    if (!d || typeof d !== "object" || d.ns !== "rlp" || d.v !== 1) return;
    for (var i = 0; i < widgets.length; i++) {
      if (widgets[i].frame.contentWindow === e.source) return widgets[i].heard(d);
    }
  });

  /* The frame a step drives: data-rlp-frame's, else the last widget before it, else the first. */
  function frameFor(step) {
    var named = step.getAttribute("data-rlp-frame");
    if (named) return document.getElementById(named);
    var frames = document.querySelectorAll(SELECTOR), before = null;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].compareDocumentPosition(step) & Node.DOCUMENT_POSITION_FOLLOWING) before = frames[i];
    }
    return before || frames[0] || null;
  }

  function enter(step) {
    var spec;
    try {
      spec = JSON.parse(step.getAttribute("data-rlp-step") || "{}");
    } catch (err) {
      return console.warn("ratelimit-playground: data-rlp-step is not JSON:", step);
    }
    var frame = frameFor(step);
    if (!frame) return;
    var w = widgetOf(frame);
    // One step at a time per widget, and only the newest: a reader scrolling fast past two
    // steps gets the second's scenario at the second's moment, never a mix of both.
    var mine = (w.steps = (w.steps || 0) + 1);
    function unlessPassed(name, data) {
      return function () {
        if (w.steps === mine) return w.send(name, data);
      };
    }
    var done = (w.chain || Promise.resolve()).then(function () {});
    if (spec.query) done = done.then(unlessPassed("set", { query: spec.query }));
    if (typeof spec.t === "number") done = done.then(unlessPassed("seek", { t: spec.t }));
    if (spec.play === true) done = done.then(unlessPassed("play"));
    if (spec.play === false) done = done.then(unlessPassed("pause"));
    w.chain = done.then(function () {
      if (w.steps === mine) step.setAttribute("data-rlp-entered", "1");
    }, function (err) {
      console.warn("ratelimit-playground:", err.message);
    });
  }

  function start() {
    var frames = document.querySelectorAll(SELECTOR);
    for (var i = 0; i < frames.length; i++) widgetOf(frames[i]);
    var steps = document.querySelectorAll("[data-rlp-step]");
    if (!steps.length || !("IntersectionObserver" in window)) return;
    var seen = new IntersectionObserver(function (entries) {
      for (var i = 0; i < entries.length; i++) if (entries[i].isIntersecting) enter(entries[i].target);
    }, { rootMargin: "-45% 0px -45% 0px" });
    for (var j = 0; j < steps.length; j++) seen.observe(steps[j]);
  }

  window.RatelimitPlayground = {
    /* The widget of `frame` (an iframe, or a selector for one). */
    widget: function (frame) {
      var el = typeof frame === "string" ? document.querySelector(frame) : frame;
      return el ? widgetOf(el) : null;
    },
    widgets: widgets
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

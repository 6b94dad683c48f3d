// The paint worker: paints the canvases the page hands it from the frames pen.rs writes down.
// paint_worker.rs starts it from this source (messages and encoding are described there).
"use strict";
const contexts = new Map();

function rgba(f, i) {
  return "rgba(" + f[i] + "," + f[i + 1] + "," + f[i + 2] + "," + f[i + 3] + ")";
}

// Small marks drawn once and copied wherever they go, as sprites.rs does on the page (the same
// sub-pixel placement, so the same pixels); at most 64 kept.
const sprites = new Map();

function sprite(f, i) {
  const key = Array.prototype.join.call(f.subarray(i, i + 7));
  let s = sprites.get(key);
  if (s) return s;
  const [shape, reach, width] = [f[i], f[i + 1], f[i + 6]];
  const c = reach + width + 2;
  const canvas = new OffscreenCanvas(2 * c, 2 * c);
  const ctx = canvas.getContext("2d");
  ctx.beginPath();
  if (shape === 0) {
    ctx.arc(c, c, reach, 0, 2 * Math.PI);
  } else {
    ctx.moveTo(c - reach, c - reach);
    ctx.lineTo(c + reach, c + reach);
    ctx.moveTo(c - reach, c + reach);
    ctx.lineTo(c + reach, c - reach);
  }
  if (width > 0) {
    ctx.strokeStyle = rgba(f, i + 2);
    ctx.lineWidth = width;
    ctx.stroke();
  } else {
    ctx.fillStyle = rgba(f, i + 2);
    ctx.fill();
  }
  if (sprites.size >= 64) sprites.clear();
  s = { bitmap: canvas.transferToImageBitmap(), c };
  sprites.set(key, s);
  return s;
}

function paint(f) {
  const ctx = contexts.get(f[0]);
  if (!ctx) return;
  const canvas = ctx.canvas;
  if (canvas.width !== f[1] || canvas.height !== f[2]) {
    canvas.width = f[1];
    canvas.height = f[2];
  }
  let i = 3;
  while (i < f.length) {
    switch (f[i++]) {
      case 0: ctx.strokeStyle = rgba(f, i); ctx.lineWidth = f[i + 4]; i += 5; break;
      case 1: ctx.fillStyle = rgba(f, i); i += 4; break;
      case 2: ctx.beginPath(); break;
      case 3: ctx.moveTo(f[i], f[i + 1]); i += 2; break;
      case 4: ctx.lineTo(f[i], f[i + 1]); i += 2; break;
      case 5: ctx.rect(f[i], f[i + 1], f[i + 2], f[i + 3]); i += 4; break;
      case 6: ctx.moveTo(f[i] + f[i + 2], f[i + 1]); ctx.arc(f[i], f[i + 1], f[i + 2], 0, 2 * Math.PI); i += 3; break;
      case 7: ctx.closePath(); break;
      case 8: ctx.stroke(); break;
      case 9: ctx.fill(); break;
      case 10: { const s = sprite(f, i); ctx.drawImage(s.bitmap, f[i + 7] - s.c, f[i + 8] - s.c); i += 9; break; }
      default: throw new Error("paint-worker: unknown command " + f[i - 1] + " at " + (i - 1));
    }
  }
}

// The newest frame of each canvas not painted yet: a worker that falls behind paints only the
// latest frames (in a task after the frames already queued) instead of every one in turn.
const latest = new Map();
let scheduled = false;

function flush() {
  scheduled = false;
  for (const f of latest.values()) paint(f);
  latest.clear();
}

onmessage = (e) => {
  const m = e.data;
  if (m instanceof Float64Array) {
    latest.set(m[0], m);
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 0);
    }
  } else if (Array.isArray(m)) {
    contexts.set(m[0], m[1].getContext("2d"));
  } else {
    contexts.delete(m);
    latest.delete(m);
  }
};

postMessage("ready");

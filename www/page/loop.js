// The animation loop: while playing, move virtual time forward by wall time × speed (through the
// timeline, so recorded actions are applied on the way), then draw. It also measures the speed
// really achieved, so the page can say so when the engine and the drawing cannot keep up.

/** @import { Demo } from './demo.js' */
/** @import { Session } from './session.js' */
/** @import { Timeline } from './timeline.js' */

/**
 * rate: virtual ms per wall ms achieved (null until measured); drawMs: a frame's drawing;
 * advanceMs: one advance of the clock (the engine's requests, the actors, the inspection), both
 * smoothed.
 * @typedef {{ rate: number | null, drawMs: number, advanceMs: number }} Meter
 */

const WINDOW_MS = 2000; // the achieved rate is measured over the last two seconds of playing

/**
 * @param {{ demo: Demo, timeline: Timeline, session: Session, draw: (meter: Meter) => void }} o
 * @returns {Meter}
 */
export function startLoop({ demo, timeline, session, draw }) {
  let last = performance.now();
  let advancing = false;
  let owed = 0;
  /** @type {[number, number][]} [wall ms, virtual ms] while playing */
  const samples = [];
  /** @type {Meter} */
  const meter = { rate: null, drawMs: 0, advanceMs: 0 };

  // The loop never asks for a frame while its own advance runs, nor while a replay runs: every
  // request the engine answers lets the browser render a frame in between if one is wanted, and
  // a rendered frame (style, layout, paint) costs far more than the request. Measured on scenario
  // 5's burst (20 virtual seconds, 88 requests): 216 ms with no frames wanted, 0.9–1.7 s with a
  // frame wanted all along. So it alternates: draw, advance by the time owed, draw again.
  /** @param {number} ts */
  function frame(ts) {
    const dt = Math.min(250, Math.max(0, ts - last));
    last = ts;
    if (timeline.replaying) {
      setTimeout(() => requestAnimationFrame(frame), 50);
      return;
    }
    const playing = !demo.clock.paused;
    if (playing) owed += dt * demo.clock.speed;
    else owed = 0;
    measure(ts, playing);
    if (!advancing) session.progress(demo.clock.now());
    const t0 = performance.now();
    draw(meter);
    meter.drawMs = meter.drawMs * 0.9 + (performance.now() - t0) * 0.1;
    if (!playing || advancing) {
      requestAnimationFrame(frame);
      return;
    }
    const ms = owed;
    owed = 0;
    advancing = true;
    const started = performance.now();
    timeline.advanceTo(demo.clock.now() + ms).finally(() => {
      advancing = false;
      meter.advanceMs = meter.advanceMs * 0.8 + (performance.now() - started) * 0.2;
      requestAnimationFrame(frame);
    });
  }

  /**
   * @param {number} ts
   * @param {boolean} playing
   */
  function measure(ts, playing) {
    if (!playing) {
      samples.length = 0;
      meter.rate = null;
      return;
    }
    samples.push([ts, demo.clock.now()]);
    while (samples.length > 2 && ts - samples[0][0] > WINDOW_MS) samples.shift();
    const [w0, v0] = samples[0];
    meter.rate = ts - w0 >= WINDOW_MS / 2 ? (demo.clock.now() - v0) / (ts - w0) : null;
  }

  requestAnimationFrame(frame);
  return meter;
}

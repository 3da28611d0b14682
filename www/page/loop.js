// The animation loop: while playing, move virtual time forward by wall time × speed (through the
// timeline, so recorded actions are applied on the way), then draw. It also measures the speed
// really achieved, so the page can say so when the engine and the drawing cannot keep up.

const WINDOW_MS = 2000; // the achieved rate is measured over the last two seconds of playing

export function startLoop({ demo, timeline, session, draw }) {
  let last = performance.now();
  let advancing = false;
  let owed = 0;
  const samples = []; // [wall ms, virtual ms] while playing
  const meter = { rate: null, frameMs: 0 };

  function frame(ts) {
    const dt = Math.min(250, Math.max(0, ts - last));
    last = ts;
    const playing = !demo.clock.paused && !timeline.replaying;
    if (playing) {
      owed += dt * demo.clock.speed;
      if (!advancing) {
        const ms = owed;
        owed = 0;
        advancing = true;
        timeline.advanceTo(demo.clock.now() + ms).finally(() => (advancing = false));
      }
    } else {
      owed = 0;
    }
    measure(ts, playing);
    if (!advancing && !timeline.replaying) session.progress(demo.clock.now());
    const t0 = performance.now();
    draw(meter);
    meter.frameMs = meter.frameMs * 0.9 + (performance.now() - t0) * 0.1;
    requestAnimationFrame(frame);
  }

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

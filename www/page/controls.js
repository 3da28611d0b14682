// The time controls: play/pause, step (and its size) and speed (their keys are in keys.js).
// Time only moves through the timeline, so recorded actions are applied on the way.

import { SPEEDS } from './clock.js';
import { $, $input, $select, setAttr, setText } from './dom.js';

/** @import { Demo } from './demo.js' */
/** @import { Session } from './session.js' */
/** @import { Timeline } from './timeline.js' */

/**
 * @param {{ demo: Demo, timeline: Timeline, session: Session,
 *   settings: { speed?: number, stepMs?: number },
 *   saveSettings: (changed: { speed?: number, stepMs?: number }) => void }} o
 * @returns {{ setPlaying(on: boolean): void, step(): Promise<void>, setSpeed(i: number): void,
 *   speedIndex(): number }}
 */
export function bindTimeControls({ demo, timeline, session, settings, saveSettings }) {
  let speedIndex = Number.isInteger(settings.speed)
    ? /** @type {number} */ (settings.speed)
    : SPEEDS.indexOf(1);
  const setSpeed = (/** @type {number} */ i) => {
    speedIndex = Math.max(0, Math.min(SPEEDS.length - 1, i));
    demo.clock.speed = SPEEDS[speedIndex];
    $input('speed').value = String(speedIndex);
    const label = `${SPEEDS[speedIndex]}×`;
    setText($('speed-out'), label);
    setAttr($('speed'), 'aria-valuetext', label);
    saveSettings({ speed: speedIndex });
  };
  const setPlaying = (/** @type {boolean} */ on) => {
    demo.clock.paused = !on;
    $('play').textContent = on ? '❚❚ Pause' : '▶ Play';
    setAttr($('play'), 'aria-pressed', on ? 'true' : 'false');
    setAttr($('play'), 'data-playing', on ? 'true' : 'false');
  };
  const stepMs = () => Number($select('step-size').value);
  let stepping = 0;
  const step = async () => {
    setPlaying(false);
    // The clock reads the new time as soon as it jumps there, before that instant's timers have
    // run; body[data-stepping] says a step is still working (tests wait for it to go).
    document.body.dataset.stepping = String(++stepping);
    try {
      await timeline.advanceTo(demo.clock.now() + stepMs());
      session.progress(demo.clock.now(), true);
    } finally {
      // Cleared in the next frame, after the animation loop (whose callback was asked for first)
      // has drawn the step's last instant.
      requestAnimationFrame(() => {
        if (--stepping === 0) delete document.body.dataset.stepping;
      });
    }
  };
  $select('step-size').value = String(settings.stepMs ?? 1000);
  const stepLabel = () => setText($('step'), `Step +${stepMs() / 1000} s`);
  stepLabel();
  $('step-size').addEventListener('change', () => {
    stepLabel();
    saveSettings({ stepMs: stepMs() });
  });
  $('play').addEventListener('click', () => setPlaying(demo.clock.paused));
  $('step').addEventListener('click', step);
  $input('speed').addEventListener('input', () => setSpeed(Number($input('speed').value)));
  setSpeed(speedIndex);

  return { setPlaying, step, setSpeed, speedIndex: () => speedIndex };
}

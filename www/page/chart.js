// Queue length over virtual time, as an SVG line chart (no library): messages in the queue
// (visible + invisible), the visible part, and the number of running workers.

import { svg, setAttr, setText } from './dom.js';

/** @import { Sample } from './demo.js' */

const WINDOW_MS = 150_000;
const PLAYING_REDRAW_MS = 250; // while time runs, at most four redraws a second (it was a third of a 100× frame)
const PAD = { l: 30, r: 8, t: 8, b: 18 };

export class ChartView {
  #lastKey = '';
  #drawnAt = 0;
  #size = { width: 400, height: 140 };

  /** @param {Element} el the chart's `<svg>` */
  constructor(el) {
    this.el = el;
    // The size comes from a ResizeObserver: reading clientWidth in a frame after the lanes changed
    // would force a layout of the whole page, every frame.
    new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      this.#size = {
        width: Math.max(200, Math.round(width || 400)),
        height: Math.max(80, Math.round(height || 140)),
      };
    }).observe(el);
    this.grid = svg('g', { class: 'grid' });
    this.total = svg('polyline', { class: 'line total' });
    this.visible = svg('polyline', { class: 'line visible' });
    this.workers = svg('polyline', { class: 'line workers' });
    this.el.append(this.grid, this.total, this.visible, this.workers);
  }

  clear() {
    this.#lastKey = '';
  }

  /**
   * `playing`: time is running, so redraws are spaced out; paused, every change is drawn at once.
   * @param {Sample[]} history
   */
  render(history, { playing = false } = {}) {
    const { width, height } = this.#size;
    const last = history[history.length - 1];
    const key = `${width}x${height}:${history.length}:${last?.t}`;
    if (key === this.#lastKey) return;
    const now = performance.now();
    if (playing && now - this.#drawnAt < PLAYING_REDRAW_MS) return;
    this.#drawnAt = now;
    this.#lastKey = key;
    setAttr(this.el, 'viewBox', `0 0 ${width} ${height}`);

    const tEnd = Math.max(last?.t ?? 0, 30_000);
    const tStart = Math.max(0, tEnd - WINDOW_MS);
    const shown = history.filter((s) => s.t >= tStart);
    const peak = Math.max(4, ...shown.map((s) => Math.max(s.length, s.workers)));
    const yMax = niceCeil(peak);
    const x = (/** @type {number} */ t) =>
      PAD.l + ((t - tStart) / (tEnd - tStart)) * (width - PAD.l - PAD.r);
    const y = (/** @type {number} */ v) => height - PAD.b - (v / yMax) * (height - PAD.t - PAD.b);
    /** @param {(s: Sample) => number} pick */
    const points = (pick, step = false) => {
      /** @type {string[]} */
      const out = [];
      /** @type {number | null} */
      let prev = null;
      for (const s of shown) {
        if (step && prev !== null) out.push(`${x(s.t).toFixed(1)},${y(prev).toFixed(1)}`);
        out.push(`${x(s.t).toFixed(1)},${y(pick(s)).toFixed(1)}`);
        prev = pick(s);
      }
      return out.join(' ');
    };
    setAttr(
      this.total,
      'points',
      points((s) => s.length),
    );
    setAttr(
      this.visible,
      'points',
      points((s) => s.visible),
    );
    setAttr(
      this.workers,
      'points',
      points((s) => s.workers, true),
    );
    setAttr(this.el, 'data-samples', shown.length);
    setAttr(this.el, 'data-peak', Math.max(0, ...shown.map((s) => s.length)));
    setAttr(this.el, 'data-peak-workers', Math.max(0, ...shown.map((s) => s.workers)));
    setAttr(this.el, 'data-workers-now', last?.workers ?? 0);

    this.grid.replaceChildren();
    for (const v of [0, yMax / 2, yMax]) {
      this.grid.append(svg('line', { x1: PAD.l, x2: width - PAD.r, y1: y(v), y2: y(v) }));
      const label = svg('text', { x: PAD.l - 4, y: y(v) + 4, 'text-anchor': 'end' });
      setText(label, v);
      this.grid.append(label);
    }
    const stepS = (tEnd - tStart) / 1000 > 90 ? 30 : 10;
    for (let s = Math.ceil(tStart / 1000 / stepS) * stepS; s * 1000 <= tEnd; s += stepS) {
      const label = svg('text', { x: x(s * 1000), y: height - 4, 'text-anchor': 'middle' });
      setText(label, `${s}s`);
      this.grid.append(label);
    }
  }
}

/** @param {number} v */
function niceCeil(v) {
  for (const n of [4, 6, 8, 10, 12, 16, 20, 30, 40, 50, 60, 80, 100]) if (v <= n) return n;
  return Math.ceil(v / 50) * 50;
}

// The page's virtual clock and the timers that run on it.
//
// The engine never reads a clock of its own: it calls the `now` we hand to QueueService.open,
// which is `clock.now()`. Time moves only when `advanceTo` is called (by the animation loop
// while playing, or by Step), and it moves in jumps from one due timer to the next, so a
// scenario does exactly the same requests at exactly the same virtual times at 0.1× or 100×.

/** Scenario time zero: a fixed instant, so replays produce identical dates. */
export const EPOCH = Date.UTC(2025, 2, 3, 9, 0, 0);

export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100];

/**
 * A timer on the virtual clock; `cancel` marks it.
 * @typedef {{ at: number, seq: number, fn: () => unknown, cancelled: boolean }} Timer
 */

export class VirtualClock {
  #now = EPOCH;
  /** @type {Timer[]} sorted by (at, seq) */
  #timers = [];
  #seq = 0;
  /** @type {Promise<unknown>} */
  #chain = Promise.resolve();
  #wake = () => Infinity;
  #settle = async () => {};
  #halted = false;

  paused = true;
  speed = 1;

  /** Milliseconds since the Unix epoch, virtual. */
  now() {
    return this.#now;
  }

  /** Milliseconds since scenario time zero. */
  elapsed() {
    return this.#now - EPOCH;
  }

  /**
   * `wake()` names the next instant at which something changes by itself (a message becomes
   * visible or expires); `settle()` runs after every jump so observers see each such instant.
   * @param {{ wake: () => number, settle: () => Promise<void> }} observer
   */
  observe({ wake, settle }) {
    this.#wake = wake;
    this.#settle = settle;
  }

  /**
   * Runs `fn` at virtual time `at`. Returns a handle for `cancel`.
   * @param {number} at
   * @param {() => unknown} fn
   * @returns {Timer}
   */
  at(at, fn) {
    const timer = { at: Math.max(at, this.#now), seq: this.#seq++, fn, cancelled: false };
    let i = this.#timers.length;
    while (i > 0 && this.#timers[i - 1].at > timer.at) i--;
    this.#timers.splice(i, 0, timer);
    return timer;
  }

  /**
   * @param {number} ms
   * @param {() => unknown} fn
   */
  after(ms, fn) {
    return this.at(this.#now + ms, fn);
  }

  /** @param {Timer | null | undefined} timer */
  cancel(timer) {
    if (timer) timer.cancelled = true;
  }

  /**
   * Serializes `fn` with the clock's own work, so user actions never interleave with timers.
   * @template T
   * @param {() => T | PromiseLike<T>} fn
   * @returns {Promise<T>}
   */
  run(fn) {
    const next = this.#chain.then(fn);
    this.#chain = next.catch(() => {});
    return next;
  }

  /**
   * Moves time forward to `target`, stopping at every timer and every engine deadline.
   * @param {number} target
   * @returns {Promise<boolean>} false when `halt()` stopped it on the way
   */
  advanceTo(target) {
    return this.run(() => this.#advance(target));
  }

  /** @param {number} ms */
  advanceBy(ms) {
    return this.run(() => this.#advance(this.#now + ms));
  }

  /**
   * Stops the advance under way at the instant it has reached (guided mode pauses at a moment
   * this way); the timers still due run on the next advance. Resolves `advanceTo` with false.
   */
  halt() {
    this.#halted = true;
  }

  /** @param {number} target */
  async #advance(target) {
    this.#halted = false;
    for (;;) {
      const timer = this.#timers.find((t) => !t.cancelled);
      const tTimer = timer ? timer.at : Infinity;
      const tWake = this.#wake();
      const wake = tWake > this.#now ? tWake : Infinity;
      const t = Math.min(tTimer, wake);
      if (t > target) break;
      this.#now = Math.max(this.#now, t);
      // A message coming due at the instant a timer fires is seen first, then the timer runs: a
      // consumer polling just then receives a message that was visible, and the page says so.
      if (timer && timer.at <= this.#now && wake > this.#now) {
        this.#timers.splice(this.#timers.indexOf(timer), 1);
        try {
          await timer.fn();
        } catch (e) {
          console.error('azqueue page: a timer failed', e);
        }
      }
      await this.#settle();
      if (this.#halted) return false;
    }
    this.#timers = this.#timers.filter((t) => !t.cancelled);
    this.#now = Math.max(this.#now, target);
    await this.#settle();
    return !this.#halted;
  }

  /** Back to time zero with no timers (the caller rebuilds the scenario). */
  reset(at = EPOCH) {
    this.#timers = [];
    this.#now = at;
  }
}

/**
 * A small seeded PRNG (mulberry32): scenarios that use chance replay identically.
 * @param {number} seed
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * "00:42" or "01:02:05" for an elapsed time in ms; tenths when asked.
 * @param {number} ms
 */
export function formatElapsed(ms, tenths = false) {
  const neg = ms < 0;
  ms = Math.abs(ms);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  let out = h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${pad(m)}:${pad(sec)}`;
  if (tenths) out += `.${Math.floor((ms % 1000) / 100)}`;
  return (neg ? '-' : '') + out;
}

/**
 * "12 s", "1 min 5 s", for durations shown on cards.
 * @param {number} ms
 */
export function formatDuration(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const rest = s % 60;
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

// What survives a reload: the scenario, every action you took (stamped with its virtual time)
// and how far time had run. Because the engine is seeded and the clock is virtual, replaying
// those against a fresh engine rebuilds exactly the same queues, receipts, actors and log.
// (With a durable engine store the queues would survive on their own; the actors, which live
// in the page, would still need this.)

/** @import { Action, RecordedAction } from './actions.js' */
/** @import { Demo } from './demo.js' */

const KEY = 'azqueue-page-session';
const MAX_ACTIONS = 500;

export class Session {
  /** @type {string | null} */
  scenario = null;
  /** @type {RecordedAction[]} */
  actions = [];
  at = 0; // where the clock was (ms since the epoch)
  reached = 0; // the furthest time this timeline has run to, so a rewind can come back to it
  #savedAt = 0;

  constructor(storage = globalThis.localStorage) {
    this.storage = storage;
    try {
      const saved = JSON.parse(this.storage?.getItem(KEY) ?? 'null');
      if (saved && typeof saved.scenario === 'string' && Array.isArray(saved.actions)) {
        this.scenario = saved.scenario;
        this.actions = saved.actions.slice(0, MAX_ACTIONS);
        this.at = Number(saved.at) || 0;
        this.reached = Math.max(this.at, Number(saved.reached) || 0);
      }
    } catch {
      // unreadable: start afresh
    }
  }

  /**
   * A new run of `scenario` from time zero (with the actions and horizon a link carries).
   * @param {string} scenario
   * @param {RecordedAction[]} [actions]
   * @param {number} [reached]
   */
  begin(scenario, actions = /** @type {RecordedAction[]} */ ([]), reached = 0) {
    this.scenario = scenario;
    this.actions = actions.slice(0, MAX_ACTIONS);
    this.at = 0;
    this.reached = reached;
    this.save();
  }

  /**
   * Forgets the actions recorded after `at` (the future of a rewound timeline).
   * @param {number} at
   */
  truncate(at) {
    this.actions = this.actions.filter((a) => a.at <= at);
    this.reached = at;
    this.save();
  }

  /**
   * @param {number} at
   * @param {Action} action
   */
  record(at, action) {
    if (this.actions.length >= MAX_ACTIONS) return;
    this.actions.push({ at, ...action });
    this.save();
  }

  /**
   * Remembers how far time has run; written at most every 250 ms unless forced.
   * @param {number} at
   */
  progress(at, force = false) {
    if (at === this.at && !force) return;
    this.at = at;
    this.reached = Math.max(this.reached, at);
    const now = performance.now();
    if (force || now - this.#savedAt > 250) this.save();
  }

  save() {
    this.#savedAt = performance.now();
    try {
      this.storage?.setItem(
        KEY,
        JSON.stringify({
          scenario: this.scenario,
          actions: this.actions,
          at: this.at,
          reached: this.reached,
        }),
      );
    } catch {
      // storage full or refused: the session just will not survive a reload
    }
  }
}

/**
 * Replays `actions` on a freshly loaded scenario and runs the clock to `until` (virtual ms since
 * the epoch, like each action's `at`), in chunks so it can give up after `budgetMs` of wall
 * time. Resolves with how far it got.
 * @param {Demo} demo
 * @param {RecordedAction[]} actions
 * @param {number} until
 * @param {(action: Action) => unknown} apply
 */
export async function replay(demo, actions, until, apply, budgetMs = 8000) {
  const started = performance.now();
  const chunk = 10_000;
  const runTo = async (/** @type {number} */ target) => {
    while (demo.clock.now() < target) {
      if (performance.now() - started > budgetMs) return false;
      await demo.clock.advanceTo(Math.min(target, demo.clock.now() + chunk));
    }
    return true;
  };
  for (const action of actions) {
    if (!(await runTo(action.at))) return demo.clock.now();
    await demo.clock.run(() => apply(action));
  }
  await runTo(until);
  return demo.clock.now();
}

// Time travel. The engine is seeded and every action is recorded with the virtual time it ran
// at, so the state at any time t is rebuilt by loading the scenario afresh and replaying the
// actions up to t. Rewinding keeps the recorded future: playing on re-applies it at the same
// instants, so the same timeline comes back. Doing anything new after a rewind forks it: the
// recorded future is dropped and the new action is the timeline from then on.

import { EPOCH } from './clock.js';
import { replay } from './session.js';

/** @import { Action, RecordedAction } from './actions.js' */

export class Timeline {
  /** @type {RecordedAction[]} recorded actions later than the clock (after a rewind), oldest first */
  pending = [];
  reached = EPOCH; // the furthest virtual time this timeline has been run to
  replaying = false;
  /** @type {Promise<unknown>} */
  #work = Promise.resolve();
  /** @type {number | null} the latest target asked for while a replay was running */
  #wanted = null;

  /**
   * @param {object} o
   * @param {import("./demo.js").Demo} o.demo
   * @param {import("./session.js").Session} o.session
   * @param {(action: Action) => Promise<unknown>} o.apply applies one recorded action
   * @param {() => Promise<void>} o.reload loads the current scenario afresh (keeping the session)
   */
  constructor({ demo, session, apply, reload }) {
    this.demo = demo;
    this.session = session;
    this.apply = apply;
    this.reload = reload;
  }

  /**
   * Moves the clock forward to `target`, applying recorded actions at their instants.
   * @param {number} target
   */
  async advanceTo(target) {
    while (this.pending.length && this.pending[0].at <= target) {
      if ((await this.demo.clock.advanceTo(this.pending[0].at)) === false) return this.#mark(false);
      const action = /** @type {RecordedAction} */ (this.pending.shift());
      await this.demo.clock.run(() => this.apply(action));
    }
    return this.#mark(await this.demo.clock.advanceTo(target));
  }

  /** @param {boolean} result */
  #mark(result) {
    this.reached = Math.max(this.reached, this.demo.clock.now());
    return result;
  }

  /**
   * Rebuilds the state at `target` (virtual ms since the Unix epoch). Calls made while a replay
   * runs coalesce: only the latest target is replayed next.
   * @param {number} target
   * @returns {Promise<number>} the virtual time reached
   */
  seek(target) {
    this.#wanted = target;
    const done = this.#work.then(async () => {
      if (this.#wanted === null) return this.demo.clock.now(); // a later call replayed it already
      const t = this.#wanted;
      this.#wanted = null;
      return this.#rebuild(t);
    });
    this.#work = done.catch(() => {});
    return done;
  }

  /** @param {number} target */
  async #rebuild(target) {
    this.replaying = true;
    // A rewind keeps the future it came from: the slider still reaches it.
    this.reached = Math.max(this.reached, this.demo.clock.now(), this.session.reached);
    try {
      const actions = this.session.actions;
      await this.reload();
      const reached = await replay(
        this.demo,
        actions.filter((a) => a.at <= target),
        target,
        this.apply,
      );
      this.pending = actions.filter((a) => a.at > target);
      this.reached = Math.max(this.reached, reached);
      this.session.progress(reached, true);
      return reached;
    } finally {
      this.replaying = false;
    }
  }

  /** Resolves when no rebuild is running or waiting (an action must not land mid-replay). */
  settled() {
    return this.#work;
  }

  /** A new action at the current time: the recorded future, if any, is dropped. */
  fork() {
    if (!this.pending.length && this.reached <= this.demo.clock.now()) return false;
    this.session.truncate(this.demo.clock.now());
    this.pending = [];
    this.reached = this.demo.clock.now();
    return true;
  }

  /**
   * A new run of the scenario from time zero; `reached`, how far a link says it had run.
   * @param {number} [reached]
   */
  restart(reached = EPOCH) {
    this.pending = [];
    this.reached = reached;
  }
}

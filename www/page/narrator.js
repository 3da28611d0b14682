// The narrator: "what just happened", the scenario's moments, and the words around them. Every
// sentence it hands out is made when it is needed, from the live world (the settings, the actors,
// the engine's answers), never written ahead: a scenario's caption, intro and guide lines are
// functions of the world, and a moment's guide line also reads the facts of the event that
// ticked it (the DequeueCount received, the threshold passed).

/** @import { Demo } from './demo.js' */
/** @import { Scenario, Words } from './scenarios.js' */

const NARRATION_LIMIT = 60;

/**
 * One of a scenario's moments as the narrator tracks it: ticked (`done`, at `at` ms elapsed)
 * when the event `on` first happens to its actor (and message, if it names one); `facts` are
 * what the event said about itself.
 * @typedef {{ on: string, text: string, guide?: Words, actor?: string, label?: string,
 *   done: boolean, at: number | undefined, facts: Facts }} Moment
 * @typedef {Record<string, string | number | undefined>} Facts
 * @typedef {{ at: number, text: string, kind: string, moment: string | undefined,
 *   log: number | undefined }} Line a line of "what just happened"; `log`, the seq of the HTTP
 *   log entry it is about
 */

export class Narrator {
  /** @type {Line[]} */
  lines = [];
  seq = 0;
  /** @type {Map<string, Moment>} event kind → the scenario's moment of that kind */
  moments = new Map();
  /** @type {Scenario | null} */
  scenario = null;

  /**
   * Called when a scenario's moment ticks (guided mode stops the clock there).
   * @type {((moment: Moment) => void) | undefined}
   */
  onMoment;

  /**
   * @param {{ elapsed: () => number, world: Demo,
   *   lastLog: (actor: string | undefined) => number | undefined }} o the clock's elapsed time,
   *   the world the words are made from, and the seq of the newest HTTP log entry when `actor`
   *   made it (the call a moment is about)
   */
  constructor({ elapsed, world, lastLog }) {
    this.elapsed = elapsed;
    this.world = world;
    this.lastLog = lastLog;
  }

  /**
   * A new run of `scenario`: no lines; the intro is the first moment, at time zero.
   * @param {Scenario} scenario
   */
  begin(scenario) {
    this.scenario = scenario;
    this.lines = [];
    this.seq = 0;
    /** @type {Moment} */
    const intro = {
      on: 'intro',
      text: 'what the picture shows',
      guide: scenario.intro,
      done: true,
      at: 0,
      facts: {},
    };
    this.moments = new Map([
      ['intro', intro],
      ...scenario.moments.map(
        (m) =>
          /** @type {[string, Moment]} */ ([m.on, { ...m, done: false, at: undefined, facts: {} }]),
      ),
    ]);
  }

  /** The scenario's caption, from the world as it is now. */
  caption() {
    return this.#words(this.scenario?.caption, {});
  }

  /**
   * What guided mode says at `moment`, from the world as it is now and the event's facts.
   * @param {Moment} moment
   */
  guide(moment) {
    return this.#words(moment.guide, moment.facts) || moment.text;
  }

  /**
   * @param {Words | undefined} words
   * @param {Facts} facts
   */
  #words(words, facts) {
    return typeof words === 'function' ? words(this.world, facts) : (words ?? '');
  }

  /**
   * Something worth a line in "what just happened". `kind` also ticks the scenario's moment of
   * that kind, but only when the moment's own actor (and message, if it names one) did it: a
   * hand-added consumer crashing is not "Encoder A crashes".
   * A `quiet` line is only told when it ticks a moment (routine deletes would drown the rest).
   * @param {string} text
   * @param {string} [kind]
   * @param {{ quiet?: boolean, actor?: string, label?: string, facts?: Facts }} [who]
   */
  say(text, kind = 'info', { quiet = false, actor, label, facts = {} } = {}) {
    const m = this.moments.get(kind);
    const ticks =
      m && !m.done && (!m.actor || m.actor === actor) && (!m.label || m.label === label);
    if (ticks) {
      m.done = true;
      m.at = this.elapsed();
      m.facts = { ...facts, log: this.lastLog(actor) };
    }
    if (quiet && !ticks) return;
    this.lines.push({
      at: this.elapsed(),
      text,
      kind,
      moment: ticks ? kind : undefined,
      log: this.lastLog(actor),
    });
    this.seq++;
    if (this.lines.length > NARRATION_LIMIT) this.lines.shift();
    if (ticks) this.onMoment?.(m);
  }

  /**
   * The latest moment that happened before `elapsed` (ms since time zero), the intro at least.
   * @param {number} elapsed
   */
  momentBefore(elapsed) {
    let best = /** @type {Moment} the intro is always done */ (this.moments.get('intro'));
    for (const m of this.moments.values()) {
      const at = /** @type {number} */ (m.at);
      if (m.done && at < elapsed && at >= (best.at ?? 0)) best = m;
    }
    return best;
  }

  /** Every moment of the scenario has happened. */
  allDone() {
    return [...this.moments.values()].every((m) => m.done);
  }
}

/**
 * Why a received message became visible again, in words that do not blame the wrong thing:
 * who was handed it, whether they let go of it (crashed, failed, were removed) or are still
 * working on it with a receipt that stays good only until someone else receives it.
 * @param {{ holder: string, released: string | undefined, stillWorking: boolean,
 *   receipt: string | undefined } | undefined} lease
 */
export function whyBack(lease) {
  if (!lease) return 'its visibility timeout ran out and nobody deleted it';
  const { holder, released, stillWorking, receipt } = lease;
  if (released === 'crashed')
    return `${holder} crashed while holding it, so nobody deleted it before its visibility timeout ran out`;
  if (released === 'removed')
    return `${holder} was taken off the page while holding it, so nobody deleted it before its visibility timeout ran out`;
  if (released === 'failed')
    return `${holder} failed on it and left it undeleted, so it comes back when its visibility timeout runs out`;
  if (stillWorking)
    return `its visibility timeout ran out while ${holder} is still working on it; ${holder}'s receipt ${receipt} works only until someone else receives it`;
  return `its visibility timeout ran out and ${holder} never deleted it`;
}

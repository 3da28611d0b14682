// The narrator: "what just happened", the scenario's moments, and the words around them. Every
// sentence it hands out is made when it is needed, from the live world (the settings, the actors,
// the engine's answers), never written ahead: a scenario's caption, intro and guide lines are
// functions of the world, and a moment's guide line also reads the facts of the event that
// ticked it (the DequeueCount received, the threshold passed).

/** @import { Demo } from './demo.js' */
/** @import { Scenario, Words } from './scenarios.js' */

const NARRATION_LIMIT = 60;

/**
 * One of a scenario's moments as the narrator tracks it: an event, ticked (`done`, at `at` ms
 * elapsed) the first time something of kind `on` happens that `when` accepts (any one, without
 * it), whoever it happens to: a consumer added by hand who takes the redelivered order makes
 * "a message is redelivered" happen as surely as the scenario's own. `facts` are what the event
 * said about itself; `call` is the seq of the HTTP call that made it happen, or null when no
 * call did (a timeout ran out in the queue, a consumer failed inside itself).
 * `missed`: "next moment" found the world still before it happened (not with these settings).
 * @typedef {{ on: string, text: string, guide?: Words, when?: (facts: Facts, world: Demo) => boolean,
 *   done: boolean, at: number | undefined, facts: Facts, call: number | null | undefined,
 *   missed?: boolean }} Moment
 * @typedef {Record<string, string | number | boolean | undefined>} Facts
 * @typedef {{ at: number, text: string, kind: string, moment: string | undefined,
 *   log: number | undefined }} Line a line of "what just happened"; `log`, the seq of the HTTP
 *   log entry it is about
 * @typedef {{ quiet?: boolean, actor?: string, label?: string, facts?: Facts,
 *   call?: number | null }} Who who did it, to which message, what it said about itself, and the
 *   call that did it (null: none did)
 */

/**
 * Why no HTTP call is shown for an event that no call caused, by its kind.
 * @type {Record<string, string>}
 */
const NO_CALL = {
  reappeared:
    'No HTTP call caused this: the visibility timeout ran out inside the queue, and nobody was told.',
  expired: 'No HTTP call caused this: the time-to-live ran out inside the queue.',
  'scheduled-visible': 'No HTTP call caused this: the delay ran out inside the queue.',
  failed: 'No HTTP call: the consumer failed inside its own code, and the queue was not told.',
  crashed:
    'No HTTP call: a crashed process sends nothing; the queue only sees the timeout run out.',
  removed: 'No HTTP call: the worker went away without telling the queue.',
  'processed-twice':
    'No HTTP call: the second charge happened inside the consumer; the queue only delivered the copy it held.',
};

export class Narrator {
  /** @type {Line[]} */
  lines = [];
  seq = 0;
  /** @type {Map<string, Moment>} event kind → the scenario's moment of that kind */
  moments = new Map();
  /** @type {Scenario | null} */
  scenario = null;

  /**
   * Called for every event told (a line said, quiet or not): its kind and facts, and the moment
   * it ticked, if it ticked one (guided mode stops the clock there; questions are settled by it).
   * @type {((kind: string, facts: Facts, moment: Moment | undefined) => void) | undefined}
   */
  onEvent;

  /**
   * @param {{ elapsed: () => number, world: Demo }} o the clock's elapsed time, and the world
   *   the words are made from
   */
  constructor({ elapsed, world }) {
    this.elapsed = elapsed;
    this.world = world;
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
      call: undefined,
    };
    this.moments = new Map([
      ['intro', intro],
      ...scenario.moments.map(
        (m) =>
          /** @type {[string, Moment]} */ ([
            m.on,
            { ...m, done: false, at: undefined, facts: {}, call: undefined },
          ]),
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
   * Why no call is shown for `moment`, when no call caused it (undefined when one did, or for
   * the introduction).
   * @param {Moment} moment
   */
  noCall(moment) {
    if (moment.call !== null) return undefined;
    return NO_CALL[moment.on] ?? 'No HTTP call caused this.';
  }

  /**
   * Something worth a line in "what just happened". `kind` also ticks the scenario's moment of
   * that kind the first time its `when` accepts the event's facts.
   * A `quiet` line is only told when it ticks a moment (routine deletes would drown the rest).
   * @param {string} text
   * @param {string} [kind]
   * @param {Who} [who]
   */
  say(text, kind = 'info', { quiet = false, facts = {}, call } = {}) {
    const m = this.moments.get(kind);
    const ticks = m && !m.done && (!m.when || m.when(facts, this.world));
    if (ticks) {
      m.done = true;
      m.at = this.elapsed();
      m.facts = facts;
      m.call = call ?? null;
    }
    if (quiet && !ticks) {
      this.onEvent?.(kind, facts, undefined);
      return;
    }
    this.lines.push({
      at: this.elapsed(),
      text,
      kind,
      moment: ticks ? kind : undefined,
      log: call ?? undefined,
    });
    this.seq++;
    if (this.lines.length > NARRATION_LIMIT) this.lines.shift();
    this.onEvent?.(kind, facts, ticks ? m : undefined);
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

// What a student answered, kept in this browser (localStorage, no server, no account): per
// scenario, each question's verdict, and a summary a student can copy out to hand in.

/** @import { Asked } from './questions.js' */

const KEY = 'azqueue-page-results';

/**
 * One question's result: the prompt as asked, the choice made and the right one, as text.
 * @typedef {{ topic: string, prompt: string, chose: string | null, right: string | null,
 *   verdict: 'right' | 'wrong' | 'not answered' | 'waiting' }} Result
 * @typedef {Record<string, Record<string, Result>>} Stored scenario → question id → result
 */

export class Results {
  /** @type {Stored} */
  stored = {};

  constructor(storage = globalThis.localStorage) {
    this.storage = storage;
    try {
      const saved = JSON.parse(this.storage?.getItem(KEY) ?? '{}');
      if (saved && typeof saved === 'object') this.stored = saved;
    } catch {
      // unreadable: start afresh
    }
  }

  /**
   * Records `asked` as it stands (answered, settled, or both).
   * @param {string} scenario
   * @param {Asked} asked
   */
  record(scenario, asked) {
    const text = (/** @type {string | undefined} */ id) =>
      id === undefined ? null : (asked.choices.find((c) => c.id === id)?.text ?? id);
    const verdict =
      asked.right === undefined
        ? 'waiting'
        : asked.chose === undefined
          ? 'not answered'
          : asked.chose === asked.right
            ? 'right'
            : 'wrong';
    (this.stored[scenario] ??= {})[asked.q.id] = {
      topic: asked.q.topic,
      prompt: asked.prompt,
      chose: text(asked.chose),
      right: text(asked.right),
      verdict,
    };
    this.#save();
  }

  clear() {
    this.stored = {};
    this.#save();
  }

  /**
   * The summary, one block per scenario: right out of settled, then each question.
   * @param {(scenario: string) => string} titleOf
   */
  summary(titleOf) {
    return Object.entries(this.stored)
      .map(([scenario, results]) => {
        const all = Object.values(results);
        const right = all.filter((r) => r.verdict === 'right').length;
        const settled = all.filter((r) => r.verdict !== 'waiting').length;
        return [
          `${titleOf(scenario)}: ${right} of ${settled} right`,
          ...all.map(
            (r) =>
              `- [${r.verdict}] ${r.prompt} You said: ${r.chose ?? '(nothing)'}.${r.right && r.verdict !== 'right' ? ` Answer: ${r.right}.` : ''} (${r.topic})`,
          ),
        ].join('\n');
      })
      .join('\n\n');
  }

  #save() {
    try {
      this.storage?.setItem(KEY, JSON.stringify(this.stored));
    } catch {
      // storage refused: the results last as long as the page
    }
  }
}

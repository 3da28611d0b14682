// The scenario editor: a scenario in a form (scenario-form.js) and as JSON (scenario-format.js),
// the two kept the same and checked as they are written, run on the page's seeded engine, saved
// to a link (the scenario itself, deflated into the address: no server) that opens it in
// play-only mode (editor hidden) or in edit mode, and exported to or imported from a file.
// "Propose moments" fills the moments with the events the run on screen has shown so far.

import { EVENTS, check } from './scenario-format.js';
import { ScenarioForm } from './scenario-form.js';
import { setAttr, setText } from './dom.js';

/** @import { Spec } from './scenario-format.js' */
/** @import { Demo } from './demo.js' */

/**
 * @typedef {object} EditorElements
 * @property {HTMLElement} box the editor's panel
 * @property {HTMLElement} form where the form is drawn
 * @property {HTMLTextAreaElement} json
 * @property {HTMLElement} status what is wrong, or what was done
 * @property {HTMLButtonElement} run
 * @property {HTMLButtonElement} playLink
 * @property {HTMLButtonElement} editLink
 * @property {HTMLButtonElement} exportJson
 * @property {HTMLInputElement} importJson a file input
 * @property {HTMLButtonElement} propose
 */

export class Editor {
  /**
   * @param {EditorElements} el
   * @param {{ run: (spec: Spec) => Promise<void>, link: (spec: Spec, mode: string) => Promise<string>,
   *   demo: Demo }} o `run` loads the scenario, `link` makes its address
   */
  constructor(el, { run, link, demo }) {
    this.el = el;
    this.demo = demo;
    this.form = new ScenarioForm(el.form, (spec) => {
      el.json.value = JSON.stringify(spec, null, 2);
      this.#check();
    });
    el.json.addEventListener('input', () => {
      this.#check();
      this.#syncForm();
    });
    el.run.addEventListener('click', async () => {
      const spec = this.#check();
      if (!spec) return;
      try {
        await run(spec);
      } catch (e) {
        this.#say(`To fix: ${/** @type {Error} */ (e).message}`, true);
        return;
      }
      this.#say(`Running “${spec.title}” from time zero.`);
    });
    for (const [button, mode] of /** @type {[HTMLButtonElement, string][]} */ ([
      [el.playLink, 'play'],
      [el.editLink, 'edit'],
    ]))
      button.addEventListener('click', async () => {
        const spec = this.#check();
        if (!spec) return;
        const href = await link(spec, mode);
        setAttr(el.status, 'data-link', href);
        setAttr(el.status, 'data-mode', mode);
        try {
          await navigator.clipboard.writeText(href);
          this.#say(
            `Copied a ${mode === 'play' ? 'play-only' : 'edit'} link (${href.length} characters).`,
          );
        } catch {
          this.#say(href);
        }
      });
    el.exportJson.addEventListener('click', () => {
      const spec = this.#check();
      if (!spec) return;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(
        new Blob([`${JSON.stringify(spec, null, 2)}\n`], { type: 'application/json' }),
      );
      a.download = `${spec.queue}.scenario.json`;
      a.click();
      URL.revokeObjectURL(a.href);
      this.#say(`Exported ${a.download}.`);
    });
    el.importJson.addEventListener('change', async () => {
      const file = el.importJson.files?.[0];
      if (!file) return;
      this.el.json.value = await file.text();
      el.importJson.value = '';
      this.#syncForm();
      if (this.#check()) this.#say(`Imported ${file.name}: Run to play it.`);
    });
    el.propose.addEventListener('click', () => this.#propose());
  }

  get open() {
    return !this.el.box.hidden;
  }

  /**
   * Shows the editor with `spec` in it, and `problem`, what keeps it from running, if it has one
   * the page's own check cannot see (a fault rule the engine refuses).
   * @param {Spec} spec
   * @param {string} [problem]
   */
  show(spec, problem) {
    this.el.box.hidden = false;
    this.el.json.value = JSON.stringify(spec, null, 2);
    this.form.show(spec);
    this.#check();
    if (problem) this.#say(problem, true);
  }

  hide() {
    this.el.box.hidden = true;
  }

  /** The scenario written, checked; says what is wrong when it is not one. */
  #check() {
    let value;
    try {
      value = JSON.parse(this.el.json.value);
    } catch (e) {
      this.#say(`Not JSON yet: ${/** @type {Error} */ (e).message}`, true);
      return null;
    }
    const { spec, errors } = check(value);
    if (!spec) {
      this.#say(`To fix: ${errors.join('; ')}.`, true);
      return null;
    }
    const faults = spec.faults?.length || spec.limits?.queueMessagesPerSecond;
    this.#say(
      faults
        ? 'A scenario with faults: Run it (the engine answers by its rules), or copy its link.'
        : 'A scenario: Run it, or copy its link.',
    );
    return spec;
  }

  /** The form follows the JSON, once the JSON reads as a scenario's shape (not while half typed). */
  #syncForm() {
    try {
      const value = JSON.parse(this.el.json.value);
      if (Array.isArray(value?.producers) && Array.isArray(value?.consumers)) this.form.show(value);
    } catch {
      // Half-typed JSON: the form keeps what it showed, and the status says what is wrong.
    }
  }

  /** Fills the moments with the events this run has shown so far, each once. */
  #propose() {
    let value;
    try {
      value = JSON.parse(this.el.json.value);
    } catch {
      return this.#check();
    }
    const seen = [...new Set(this.demo.narration.map((l) => l.kind))].filter((k) => k in EVENTS);
    value.moments = seen.map((on) => ({
      on,
      text: EVENTS[/** @type {keyof typeof EVENTS} */ (on)],
    }));
    this.el.json.value = JSON.stringify(value, null, 2);
    this.#syncForm();
    this.#check();
    this.#say(`Proposed ${seen.length} moment(s) from what this run showed.`);
  }

  /**
   * @param {string} text
   * @param {boolean} [bad]
   */
  #say(text, bad = false) {
    setText(this.el.status, text);
    setAttr(this.el.status, 'data-bad', bad ? 'true' : undefined);
  }
}

// The scenario made in the editor, or opened from its link: the runnable scenario, the link
// parameters that carry it (`sc`, the scenario deflated; `mode`, play or edit), its place in the
// scenario choice, and the editor's wiring to the page (the toggle, Run, the links).

import { Editor } from './editor.js';
import { EXAMPLE, decodeSpec, encodeSpec, toScenario } from './scenario-format.js';
import { linkTo } from './link.js';
import { $, $input, setAttr } from './dom.js';

/** @import { Demo } from './demo.js' */
/** @import { Scenario } from './scenarios.js' */
/** @import { Spec } from './scenario-format.js' */
/** @import { FaultRuleSet } from '/pkg/web/azqueue.js' */

export class Edited {
  /** @type {Scenario | null} */
  scenario = null;
  /** @type {Record<string, string>} the link parameters that carry it */
  params = {};

  /** @param {HTMLSelectElement} select the scenario choice, which lists it */
  constructor(select) {
    this.select = select;
  }

  /**
   * Makes `spec` the edited scenario, opened by its links in `mode` ("play" or "edit").
   * @param {Spec} spec
   * @param {string} mode
   */
  async set(spec, mode) {
    this.scenario = toScenario(spec);
    this.params = { sc: await encodeSpec(spec), mode };
    const option = [...this.select.options].find((o) => o.value === 'custom');
    if (option) option.text = this.scenario.title;
    else this.select.append(new Option(this.scenario.title, 'custom'));
  }

  /**
   * `?sc=…` opens the scenario it carries: `mode=play` with the editor hidden, `mode=edit` with
   * the editor open on it. A scenario that cannot be opened (the link is damaged, or the engine
   * refuses one of its fault rules) is not listed: `fail` says why, and an edit link opens the
   * editor on it with the reason, to fix it there.
   * @param {string} href
   * @param {Editor} editor
   * @param {{ fail: (why: string) => void,
   *   refusal: (faults: FaultRuleSet) => Promise<string | undefined> }} o `refusal` says why the
   *   engine refuses `faults`, or nothing when it takes them
   */
  async openFromLink(href, editor, { fail, refusal }) {
    const params = new URL(href).searchParams;
    const text = params.get('sc');
    if (!text) return;
    const mode = params.get('mode') === 'edit' ? 'edit' : 'play';
    const { spec, errors } = await decodeSpec(text);
    if (!spec) return fail(`This link's scenario could not be opened: ${errors.join('; ')}.`);
    const faults = toScenario(spec).faults;
    const refused = faults && (await refusal(faults));
    if (refused) {
      fail(
        `This link's scenario “${spec.title}” could not be opened: the engine refuses one of its fault rules. ${refused}`,
      );
      if (mode === 'edit') editor.show(spec, `To fix: ${refused}`);
      return;
    }
    await this.set(spec, mode);
    document.body.dataset.mode = mode;
    if (mode === 'edit') editor.show(spec);
  }
}

/**
 * The editor, wired: Run loads the scenario, the links carry it, the toggle shows and hides it.
 * @param {{ demo: Demo, edited: Edited, load: (scenario: Scenario) => Promise<void>,
 *   toggle: HTMLButtonElement }} o
 */
export function bindEditor({ demo, edited, load, toggle }) {
  const editor = new Editor(
    {
      box: $('editor'),
      form: $('editor-form'),
      json: /** @type {HTMLTextAreaElement} */ ($('editor-json')),
      status: $('editor-status'),
      run: /** @type {HTMLButtonElement} */ ($('editor-run')),
      playLink: /** @type {HTMLButtonElement} */ ($('editor-play-link')),
      editLink: /** @type {HTMLButtonElement} */ ($('editor-edit-link')),
      exportJson: /** @type {HTMLButtonElement} */ ($('editor-export')),
      importJson: $input('editor-import'),
      propose: /** @type {HTMLButtonElement} */ ($('editor-propose')),
    },
    {
      demo,
      run: async (spec) => {
        await edited.set(spec, 'edit');
        await load(/** @type {Scenario} set above */ (edited.scenario));
      },
      link: async (spec, mode) =>
        linkTo(location.href, {
          scenario: 'custom',
          elapsed: 0,
          extra: { sc: await encodeSpec(spec), mode },
        }),
    },
  );
  toggle.addEventListener('click', () => {
    const open = !editor.open;
    if (open) editor.show(edited.scenario?.spec ?? EXAMPLE);
    else editor.hide();
    setAttr(toggle, 'aria-expanded', open ? 'true' : 'false');
  });
  return editor;
}

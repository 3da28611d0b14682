// The scenario editor's form: the scenario beside its JSON, field by field. Producers and when
// each message is sent (its delay and time-to-live), consumers with their work time, visibility
// timeout or lease, start and crash points, the poison threshold, moments, questions, and fault
// rules with throttling. Every change is written into the same spec the JSON shows, so the form
// makes the same scenario, link and file as the JSON does; checking stays scenario-format.js's.

import { FAULT_OPERATIONS } from './fault-operations.js';
import { EVENTS } from './scenario-format.js';
import { h } from './dom.js';

/** @import { Spec } from './scenario-format.js' */

/**
 * One field: its place in the item (`retry.tries` reaches into an object), its label, and how
 * it is entered. `offset` shows a 0-based number counted from 1.
 * @typedef {{ key: string, label: string, type: 'text' | 'number' | 'check' | 'select' | 'lines',
 *   options?: readonly string[], offset?: number, wide?: boolean }} Field
 * @typedef {{ title: string, key: 'producers' | 'consumers' | 'moments' | 'questions' | 'faults',
 *   item: string, fields: Field[], fresh: (spec: Spec) => any }} List
 */

const EVENT_KINDS = Object.keys(EVENTS);

/** @type {Field[]} */
const SCENARIO = [
  { key: 'title', label: 'Title', type: 'text' },
  { key: 'queue', label: 'Queue', type: 'text' },
  { key: 'poisonThreshold', label: 'Poison after (dequeues, 0 off)', type: 'number' },
  { key: 'limits.queueMessagesPerSecond', label: 'Throttle (messages/s)', type: 'number' },
  { key: 'intro', label: 'Introduction', type: 'text', wide: true },
];

/** @type {Field[]} */
const MESSAGE = [
  { key: 'at', label: 'Sent at (s)', type: 'number' },
  { key: 'text', label: 'Text', type: 'text' },
  { key: 'delayS', label: 'Delay (s)', type: 'number' },
  { key: 'ttlS', label: 'Time-to-live (s)', type: 'number' },
];

/** @type {List[]} */
const LISTS = [
  {
    title: 'Producers',
    key: 'producers',
    item: 'Producer',
    fields: [
      { key: 'name', label: 'Name', type: 'text' },
      { key: 'retry.tries', label: 'Retries of a 500/503', type: 'number' },
      { key: 'retry.firstS', label: 'First retry after (s)', type: 'number' },
    ],
    fresh: (spec) => ({ name: freshName(spec, 'Shop'), messages: [{ at: 0, text: 'order' }] }),
  },
  {
    title: 'Consumers',
    key: 'consumers',
    item: 'Consumer',
    fields: [
      { key: 'name', label: 'Name', type: 'text' },
      { key: 'kind', label: 'Kind', type: 'select', options: ['consumer', 'lease-worker'] },
      { key: 'workS', label: 'Work (s)', type: 'number' },
      { key: 'visibilityS', label: 'Visibility timeout / lease (s)', type: 'number' },
      { key: 'startS', label: 'Starts at (s)', type: 'number' },
      { key: 'pollS', label: 'Polls every (s)', type: 'number' },
      { key: 'crashAtS', label: 'Crashes at (s)', type: 'number' },
      { key: 'failsOn', label: 'Fails on text', type: 'text' },
      { key: 'idempotent', label: 'Idempotent (reads the ledger)', type: 'check' },
    ],
    fresh: (spec) => ({ name: freshName(spec, 'Cy'), workS: 5, visibilityS: 30 }),
  },
  {
    title: 'Moments',
    key: 'moments',
    item: 'Moment',
    fields: [
      { key: 'on', label: 'On', type: 'select', options: EVENT_KINDS },
      { key: 'text', label: 'Text', type: 'text', wide: true },
      { key: 'guide', label: "Banner's sentence", type: 'text', wide: true },
    ],
    fresh: () => ({ on: 'reappeared', text: EVENTS.reappeared }),
  },
  {
    title: 'Questions',
    key: 'questions',
    item: 'Question',
    fields: [
      { key: 'ask', label: 'Asked at', type: 'select', options: ['intro', ...EVENT_KINDS] },
      { key: 'settle', label: 'Answered when', type: 'select', options: ['', ...EVENT_KINDS] },
      { key: 'prompt', label: 'Question', type: 'text', wide: true },
      { key: 'choices', label: 'Choices (one a line)', type: 'lines', wide: true },
      { key: 'answer', label: 'Right choice (1, 2, …)', type: 'number', offset: 1 },
      {
        key: 'pick',
        label: 'Answered by clicking',
        type: 'select',
        options: ['', 'card', 'consumer'],
      },
      { key: 'why', label: 'Why (the evidence)', type: 'text', wide: true },
    ],
    fresh: () => ({ ask: 'intro', prompt: '', choices: ['Yes', 'No'], answer: 0, why: '' }),
  },
  {
    title: 'Faults',
    key: 'faults',
    item: 'Fault rule',
    fields: [
      { key: 'operation', label: 'Operation', type: 'select', options: FAULT_OPERATIONS },
      { key: 'status', label: 'Status', type: 'number' },
      { key: 'code', label: 'Code', type: 'text' },
      { key: 'message', label: 'Message', type: 'text' },
      { key: 'when', label: 'When', type: 'select', options: ['', 'before', 'after'] },
      { key: 'skip', label: 'Skip first', type: 'number' },
      { key: 'times', label: 'Times', type: 'number' },
      { key: 'probability', label: 'Probability (0–1)', type: 'number' },
    ],
    fresh: () => ({ operation: 'PutMessage', status: 503, times: 1 }),
  },
];

/**
 * A name no actor of `spec` has yet, from `base`.
 * @param {Spec} spec
 * @param {string} base
 */
function freshName(spec, base) {
  const taken = new Set([...spec.producers, ...spec.consumers].map((a) => a.name));
  let n = 1;
  while (taken.has(n === 1 ? base : `${base} ${n}`)) n++;
  return n === 1 ? base : `${base} ${n}`;
}

/**
 * @param {any} item
 * @param {string} key
 */
const read = (item, key) => key.split('.').reduce((o, k) => o?.[k], item);

/**
 * Sets `key` of `item` to `value`, or removes it (and an object it leaves empty) when undefined.
 * @param {any} item
 * @param {string} key
 * @param {unknown} value
 */
function write(item, key, value) {
  const [head, ...rest] = key.split('.');
  if (rest.length) {
    const inner = item[head] ?? {};
    write(inner, rest.join('.'), value);
    if (Object.keys(inner).length) item[head] = inner;
    else delete item[head];
  } else if (value === undefined) delete item[key];
  else item[key] = value;
}

export class ScenarioForm {
  /** @type {Spec | null} the scenario the form shows; changed in place */
  spec = null;

  /**
   * @param {HTMLElement} box
   * @param {(spec: Spec) => void} onChange a field, an addition or a removal changed `spec`
   */
  constructor(box, onChange) {
    this.box = box;
    this.onChange = onChange;
  }

  /**
   * Shows `spec` (a copy of it: the form changes its own).
   * @param {Spec} spec
   */
  show(spec) {
    this.spec = structuredClone(spec);
    this.#render();
  }

  #render() {
    const spec = /** @type {Spec} */ (this.spec);
    const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.field;
    this.box.replaceChildren(
      h(
        'fieldset',
        { class: 'form-item' },
        h('legend', { text: 'Scenario' }),
        ...this.#fields(spec, SCENARIO, ''),
      ),
      ...LISTS.map((list) => this.#list(spec, list)),
    );
    // An addition or a removal redraws the form: the focus stays on the button's place.
    if (focused)
      /** @type {HTMLElement | null} */ (
        this.box.querySelector(`[data-field="${focused}"]`)
      )?.focus();
  }

  /**
   * @param {Spec} spec
   * @param {List} list
   */
  #list(spec, list) {
    spec[list.key] ??= [];
    const items = /** @type {any[]} */ (spec[list.key]);
    return h(
      'section',
      { class: 'form-list', 'aria-label': list.title },
      h('h3', { text: list.title }),
      ...items.map((item, i) =>
        h(
          'fieldset',
          { class: 'form-item' },
          h('legend', { text: `${list.item} ${i + 1}${item.name ? ` · ${item.name}` : ''}` }),
          ...this.#fields(item, list.fields, `${list.key}.${i}.`),
          ...(list.key === 'producers' ? [this.#messages(item, `${list.key}.${i}.`)] : []),
          this.#button(
            `Remove ${list.item.toLowerCase()} ${i + 1}`,
            `${list.key}.${i}.remove`,
            () => items.splice(i, 1),
          ),
        ),
      ),
      this.#button(`Add ${list.item.toLowerCase()}`, `${list.key}.add`, () =>
        items.push(list.fresh(spec)),
      ),
    );
  }

  /**
   * A producer's messages, one row each.
   * @param {{ messages: any[] }} producer
   * @param {string} path
   */
  #messages(producer, path) {
    producer.messages ??= [];
    const { messages } = producer;
    return h(
      'div',
      { class: 'form-messages' },
      ...messages.map((m, j) =>
        h(
          'div',
          { class: 'form-row', role: 'group', 'aria-label': `Message ${j + 1}` },
          ...this.#fields(m, MESSAGE, `${path}messages.${j}.`),
          this.#button(`Remove message ${j + 1}`, `${path}messages.${j}.remove`, () =>
            messages.splice(j, 1),
          ),
        ),
      ),
      this.#button('Add message', `${path}messages.add`, () => {
        const last = messages.at(-1);
        messages.push({ at: last ? last.at + 5 : 0, text: `message ${messages.length + 1}` });
      }),
    );
  }

  /**
   * @param {string} text
   * @param {string} field where it is, for the focus after a redraw
   * @param {() => void} change
   */
  #button(text, field, change) {
    return h('button', {
      type: 'button',
      class: 'quiet',
      'data-field': field,
      text,
      onclick: () => {
        change();
        this.#render();
        this.onChange(/** @type {Spec} */ (this.spec));
      },
    });
  }

  /**
   * The inputs for `fields` of `item`; `path` names them (`consumers.1.workS`) for tests and focus.
   * @param {any} item
   * @param {Field[]} fields
   * @param {string} path
   */
  #fields(item, fields, path) {
    return fields.map((f) => {
      const value = read(item, f.key);
      const attrs = { 'data-field': `${path}${f.key}`, name: `${path}${f.key}` };
      /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */
      let input;
      if (f.type === 'select') {
        input = /** @type {HTMLSelectElement} */ (
          h('select', attrs, ...(f.options ?? []).map((o) => new Option(o || '—', o)))
        );
        input.value = value ?? '';
      } else if (f.type === 'lines') {
        input = /** @type {HTMLTextAreaElement} */ (h('textarea', { ...attrs, rows: 3 }));
        input.value = (value ?? []).join('\n');
      } else {
        input = /** @type {HTMLInputElement} */ (
          h('input', {
            ...attrs,
            type: f.type === 'check' ? 'checkbox' : f.type === 'number' ? 'number' : 'text',
            step: f.type === 'number' ? 'any' : undefined,
          })
        );
        if (f.type === 'check') input.checked = value === true;
        else
          input.value =
            value === undefined ? '' : String(f.offset ? Number(value) + f.offset : value);
      }
      input.addEventListener(f.type === 'check' || f.type === 'select' ? 'change' : 'input', () => {
        write(item, f.key, entered(input, f));
        this.onChange(/** @type {Spec} */ (this.spec));
      });
      return h(
        'label',
        { class: `form-field${f.wide ? ' wide' : ''}${f.type === 'check' ? ' check' : ''}` },
        h('span', { text: f.label }),
        input,
      );
    });
  }
}

/**
 * What a field holds, as the spec keeps it; undefined for an empty one (the key is left out).
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} input
 * @param {Field} f
 */
function entered(input, f) {
  if (f.type === 'check') return /** @type {HTMLInputElement} */ (input).checked || undefined;
  if (f.type === 'lines')
    return input.value
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  if (input.value === '') return undefined;
  if (f.type === 'number') return Number(input.value) - (f.offset ?? 0);
  return input.value;
}

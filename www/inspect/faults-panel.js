// The inspector's fault panel (docs/inspector.md, "Fault rules"): the target's fault rules with
// their live counts, its limits with the requests each refused, the faults injected lately, and
// the forms that add a rule (a few common fields, or the whole rule as JSON), set or lift the
// limits, remove a rule or clear them all, all through `/_azqueue/faults` (docs/faults.md). A
// refusal is shown in the server's own words, and the server applies nothing of it. A target
// that does not serve the path (an edge runner takes its rules from a variable) is said so.

import { h, setAttr, setText } from '../page/dom.js';
import { FAULT_OPERATIONS } from '../page/fault-operations.js';
import { RefusedError } from './api.js';
import { RuleList, recentFault } from './faults-view.js';
import { throttled } from './throttled.js';

/** @import { FaultsView, InspectorApi, Limits } from './api.js' */

/** The least time between two reads of the rules while events keep coming. */
const REFRESH_GAP_MS = 500;
/** How often the counts are read while a rule is active: a match that lets a request through
 * and changes nothing (a Peek, a skip) sends no event. */
const POLL_MS = 2000;
/** The injected faults listed, newest first. */
const RECENT = 20;
/** The limits by their wire name, with how the page names them. @type {Array<[keyof Limits, string, string]>} */
const LIMITS = [
  ['queueMessagesPerSecond', 'Per queue', 'messages/s'],
  ['accountRequestsPerSecond', 'Per account', 'requests/s'],
];

/**
 * A labelled input of the rule form.
 * @param {string} name the rule's field
 * @param {string} label
 * @param {Record<string, string>} [attrs]
 */
const input = (name, label, attrs = {}) =>
  h('label', {}, `${label} `, h('input', { name, 'data-testid': `fault-${name}`, ...attrs }));

/**
 * A select of the rule form, its first choice "any" (the field left out).
 * @param {string} name
 * @param {string} label
 * @param {string} any
 * @param {readonly string[]} values
 */
const select = (name, label, any, values) =>
  h(
    'label',
    {},
    `${label} `,
    h(
      'select',
      { name, 'data-testid': `fault-${name}` },
      h('option', { value: '', text: any }),
      ...values.map((v) => h('option', { value: v, text: v })),
    ),
  );

/** The rule form's number fields: the rest are text. */
const NUMBERS = new Set(['status', 'probability', 'skip', 'times', 'delayMs']);

/**
 * The rule the form describes: each filled field, numbers as numbers (whether they make a valid
 * rule is the server's to say).
 * @param {HTMLFormElement} form
 */
function ruleOf(form) {
  /** @type {Record<string, string | number>} */
  const rule = {};
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim();
    if (text) rule[name] = NUMBERS.has(name) ? Number(text) : text;
  }
  return rule;
}

/**
 * The body the JSON box's text stands for: a whole body (`rules`, `seed`, `limits`) as it is, a
 * list of rules, or one rule.
 * @param {string} text
 * @returns {Record<string, unknown>}
 */
function bodyOf(text) {
  const value = JSON.parse(text);
  if (Array.isArray(value)) return { rules: value };
  const whole =
    value !== null &&
    typeof value === 'object' &&
    ['rules', 'seed', 'limits'].some((k) => k in value);
  return whole ? value : { rules: [value] };
}

/**
 * The fault panel for `api`'s target.
 * @param {InspectorApi} api
 */
export function faultPanel(api) {
  const ui = {
    unavailable: h('p', {
      class: 'inspect-note',
      'data-testid': 'faults-unavailable',
      hidden: true,
    }),
    body: h('div', { class: 'faults-body', hidden: true }),
    summary: h('p', { 'data-testid': 'faults-summary' }),
    rules: h('ol', {
      class: 'fault-rules',
      'data-testid': 'fault-rules',
      'aria-label': 'Rules',
      tabindex: '-1',
    }),
    clearAll: h('button', {
      type: 'button',
      'data-testid': 'clear-faults',
      text: 'Clear all rules',
      title: 'Every rule goes, the limits the server started with come back',
    }),
    form: h('form', { class: 'fault-form', 'data-testid': 'fault-form' }),
    jsonForm: h('form', { class: 'fault-json', 'data-testid': 'fault-json-form' }),
    json: h('textarea', {
      name: 'json',
      rows: '3',
      'data-testid': 'fault-json',
      spellcheck: 'false',
      placeholder: '{"operation": "GetMessages", "when": "after", "code": "OperationTimedOut"}',
    }),
    outcome: h('p', {
      class: 'fault-outcome',
      'data-testid': 'fault-outcome',
      'aria-live': 'polite',
    }),
    limitsForm: h('form', { class: 'fault-form', 'data-testid': 'limits-form' }),
    liftLimits: h('button', { type: 'button', 'data-testid': 'lift-limits', text: 'Lift both' }),
    limitsNow: h('p', { 'data-testid': 'limits-now' }),
    limitsOutcome: h('p', {
      class: 'fault-outcome',
      'data-testid': 'limits-outcome',
      'aria-live': 'polite',
    }),
    recent: h('ol', { class: 'recent-faults', 'data-testid': 'recent-faults' }),
    noRecent: h('p', { class: 'inspect-note', text: 'None since this page opened.' }),
  };
  /** @type {Record<string, HTMLInputElement>} */
  const limitInputs = {};
  for (const [name, label, unit] of LIMITS) {
    const field = h('input', {
      name,
      type: 'number',
      step: '1',
      'data-testid': `limit-${name}`,
      placeholder: 'none',
    });
    limitInputs[name] = field;
    ui.limitsForm.append(h('label', {}, `${label}, ${unit} `, field));
  }
  ui.limitsForm.append(
    h('button', { type: 'submit', 'data-testid': 'set-limits', text: 'Set limits' }),
    ui.liftLimits,
  );
  ui.form.append(
    select('operation', 'Operation', 'any', FAULT_OPERATIONS),
    input('queue', 'Queue', { placeholder: 'any', autocomplete: 'off' }),
    input('status', 'Status', { type: 'number', placeholder: '503' }),
    input('code', 'Code', { placeholder: 'ServerBusy', list: 'fault-codes', autocomplete: 'off' }),
    select('when', 'When', 'default', ['before', 'after']),
    input('delayMs', 'Delay ms', { type: 'number', placeholder: '0' }),
    input('probability', 'Probability', { type: 'number', step: 'any', placeholder: '1' }),
    input('skip', 'Skip', { type: 'number', placeholder: '0' }),
    input('times', 'Times', { type: 'number', placeholder: 'no end' }),
    h(
      'datalist',
      { id: 'fault-codes' },
      ...['ServerBusy', 'OperationTimedOut', 'InternalError'].map((v) => h('option', { value: v })),
    ),
    h('button', { type: 'submit', 'data-testid': 'add-rule', text: 'Add rule' }),
  );
  ui.jsonForm.append(
    h(
      'label',
      { for: 'fault-json' },
      'Or the whole rule as JSON (a list of rules, or a body of POST /_azqueue/faults)',
    ),
    ui.json,
    h('button', { type: 'submit', 'data-testid': 'add-json', text: 'Add from JSON' }),
  );
  ui.json.id = 'fault-json';
  ui.body.append(
    ui.summary,
    ui.rules,
    h('p', {}, ui.clearAll),
    h('h3', { text: 'Add a rule' }),
    ui.form,
    ui.jsonForm,
    ui.outcome,
    h('h3', { text: 'Limits' }),
    ui.limitsNow,
    ui.limitsForm,
    ui.limitsOutcome,
    h('h3', { text: 'Recent faults, newest first' }),
    ui.recent,
    ui.noRecent,
  );
  const root = h(
    'section',
    { class: 'faults', 'data-testid': 'faults', 'aria-labelledby': 'faults-title' },
    h('h2', { id: 'faults-title', text: 'Fault rules' }),
    ui.unavailable,
    ui.body,
  );

  const list = new RuleList(ui.rules, (id) =>
    change(
      () => api.removeFaults(id),
      () => `Removed rule ${id}.`,
    ),
  );
  /** The last reading: whether any rule is active, and the limits as last shown. */
  let active = false;
  let shownLimits = '';
  /** Set once the target turned out not to serve the fault rules, until it is live again. */
  let unavailable = false;

  /** @param {FaultsView} view */
  const show = (view) => {
    ui.unavailable.hidden = true;
    ui.body.hidden = false;
    list.show(view.rules);
    const live = view.rules.filter((r) => !r.retired).length;
    active = live > 0;
    setText(
      ui.summary,
      view.rules.length === 0
        ? 'No rules: every request is answered as it comes.'
        : `${view.rules.length} ${view.rules.length === 1 ? 'rule' : 'rules'}, ${live} active; ` +
            'the first that matches a request and fires decides its answer.',
    );
    setAttr(ui.summary, 'data-rules', view.rules.length);
    ui.clearAll.disabled =
      view.rules.length === 0 && !Object.values(view.limits).some((v) => v !== null);
    setText(
      ui.limitsNow,
      LIMITS.map(([name, label, unit]) => {
        const limit = view.limits[name];
        const refused = view.throttled[name];
        return `${label}: ${limit === null ? 'no limit' : `${limit} ${unit}`} (refused ${refused})`;
      }).join(' · '),
    );
    for (const [name] of LIMITS) {
      setAttr(ui.limitsNow, `data-${name}`, view.limits[name] ?? 'none');
      setAttr(ui.limitsNow, `data-throttled-${name}`, view.throttled[name]);
    }
    // The fields are filled when the limits in force change, and only then: what someone is
    // typing there stays until they set it.
    const limits = JSON.stringify(view.limits);
    if (limits !== shownLimits) {
      shownLimits = limits;
      for (const [name] of LIMITS) limitInputs[name].value = String(view.limits[name] ?? '');
    }
  };

  /**
   * Says why the target's fault rules cannot be shown, from what reading them answered.
   * @param {unknown} e
   */
  const explain = async (e) => {
    unavailable = true;
    ui.body.hidden = true;
    ui.unavailable.hidden = false;
    const base = api.base;
    const edge = await api.probe();
    const why = edge
      ? `${base} is an edge runner, which takes its fault rules from the AZQUEUE_FAULTS ` +
        'variable as each Durable Object opens; they cannot be read or changed by request ' +
        '(docs/faults.md, “At the edge”).'
      : e instanceof RefusedError
        ? `${base} does not serve them: it answered ${e.status}, “${e.why}”.`
        : `${base} could not be read from this page: is it running, and was it started ` +
          `with --devOrigin ${location.origin}?`;
    setText(ui.unavailable, `Fault rules are unavailable: ${why}`);
  };

  const refresh = throttled(REFRESH_GAP_MS, explain, async () => show(await api.faults()));

  /**
   * Runs a change, then shows the rules as they now are and says in `outcome` what happened:
   * `done`'s words, the server's refusal (which applied nothing), or that it was not reached.
   * @template T
   * @param {() => Promise<T>} action
   * @param {(result: T) => string} done
   * @param {HTMLElement} [outcome]
   */
  const change = (action, done, outcome = ui.outcome) =>
    action().then(
      (result) => {
        say(outcome, done(result), false);
        refresh();
      },
      (e) => {
        if (e instanceof RefusedError)
          say(outcome, `Refused, and nothing was changed: ${e.why}`, true);
        else say(outcome, `${api.base} could not be reached: ${e}`, true);
      },
    );

  /**
   * @param {HTMLElement} outcome
   * @param {string} text
   * @param {boolean} refused
   */
  const say = (outcome, text, refused) => {
    setText(outcome, text);
    outcome.classList.toggle('refused', refused);
  };

  /** @param {{ ids: string[] }} answer */
  const added = ({ ids }) =>
    ids.length === 0 ? 'Done.' : `Added ${ids.length === 1 ? 'rule' : 'rules'} ${ids.join(', ')}.`;

  ui.form.addEventListener('submit', (e) => {
    e.preventDefault();
    change(() => api.addFaults({ rules: [ruleOf(ui.form)] }), added);
  });
  ui.jsonForm.addEventListener('submit', (e) => {
    e.preventDefault();
    let body;
    try {
      body = bodyOf(ui.json.value);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      say(ui.outcome, `That is not JSON, so nothing was sent: ${why}`, true);
      return;
    }
    change(() => api.addFaults(body), added);
  });
  ui.clearAll.addEventListener('click', () =>
    change(
      () => api.removeFaults(),
      () => 'Every rule removed; the limits are the ones the server started with.',
    ),
  );
  ui.limitsForm.addEventListener('submit', (e) => {
    e.preventDefault();
    /** @type {Record<string, number | null>} */
    const limits = {};
    for (const [name] of LIMITS) {
      const text = limitInputs[name].value.trim();
      limits[name] = text === '' ? null : Number(text);
    }
    change(
      () => api.addFaults({ limits }),
      () => 'Limits set.',
      ui.limitsOutcome,
    ).then(() => {
      shownLimits = '';
    });
  });
  ui.liftLimits.addEventListener('click', () =>
    change(
      () =>
        api.addFaults({ limits: { queueMessagesPerSecond: null, accountRequestsPerSecond: null } }),
      () => 'Both limits lifted.',
      ui.limitsOutcome,
    ),
  );

  // Matches that change nothing send no event: while a rule is active its counts are read
  // now and then, and only while the page is in view.
  setInterval(() => {
    if (active && !unavailable && document.visibilityState === 'visible') refresh();
  }, POLL_MS);

  refresh();
  return {
    root,
    /**
     * An event from the target's stream: a fault is listed and counted; any other change may
     * have been matched by an active rule.
     * @param {Record<string, any>} e
     */
    onEvent(e) {
      if (unavailable) return;
      if (e.type === 'fault') {
        ui.recent.prepend(recentFault(e));
        while (ui.recent.children.length > RECENT) ui.recent.lastElementChild?.remove();
        ui.noRecent.hidden = true;
        refresh();
      } else if (active) refresh();
    },
    /** The stream is back: whatever changed meanwhile is read. @param {boolean} open */
    onLive(open) {
      if (!open) return;
      unavailable = false;
      refresh();
    },
  };
}

// The soak's random faults (`node scripts/soak.mjs --faults P`): the rule set a store starts with,
// so that a fraction P of Put, Get, Delete and Update Message requests is answered
// `503 ServerBusy` or `500 OperationTimedOut`, half of them before the operation (nothing
// changes) and half after it (its change is committed, then the error is answered), as Azure's
// front end and its timed-out writes do (docs/faults.md).
//
// Each rule's message is Azure's text with a mark naming its `when`, so the soak's transport
// (fault-watch.mjs) tells the ledger what every faulted answer means, and the workload tells a
// fault the SDK gave up on (after its retries) from an unexpected error. A real client cannot
// know whether a 500 came before or after; the ledger can, so it checks both meanings exactly.
//
// Pure module: the workload that imports it is also bundled into the Chromium soak's page.

/** The operations the rules take, by the names the rules use. */
export const FAULTED_OPERATIONS = ['PutMessage', 'GetMessages', 'DeleteMessage', 'UpdateMessage'];

/** The errors injected, with Azure's texts for them (the REST service's error table). */
const ERRORS = [
  {
    status: 503,
    code: 'ServerBusy',
    text: 'The server is currently unable to receive requests. Please retry your request.',
  },
  {
    status: 500,
    code: 'OperationTimedOut',
    text: 'The operation could not be completed within the permitted time.',
  },
];

/** @typedef {'before' | 'after'} When */

const MARK = /\(soak fault, (before|after)\)/;

/**
 * The `when` of the soak's rule that answered with this error text (a response body or a
 * RestError's message), or null for an error no soak rule made.
 * @param {string | undefined} text
 * @returns {When | null}
 */
export function faultWhen(text) {
  const m = MARK.exec(text ?? '');
  return m ? /** @type {When} */ (m[1]) : null;
}

/**
 * Whether the SDK threw this after its last try was answered by a soak rule.
 * @param {unknown} error
 */
export function isInjected(error) {
  return faultWhen(/** @type {{ message?: string }} */ (error)?.message) !== null;
}

/**
 * The rule set (the body of `POST /_azqueue/faults`, and of AZQUEUE_FAULTS at the edge) that
 * answers a fraction `probability` of each faulted operation's requests with an error. Per
 * operation there are four rules, every pairing of the two errors with `before` and `after`;
 * a rule that matches and does not fire leaves the request to the next, so each fires with the
 * chance that makes all four together fire with `probability`.
 * @param {number} probability between 0 and 1
 * @param {number} seed
 */
export function faultRuleSet(probability, seed) {
  const combos = ERRORS.flatMap((e) =>
    /** @type {When[]} */ (['before', 'after']).map((when) => ({ ...e, when })),
  );
  // 1 - (1 - each)^4 = probability; rules keep a probability to a millionth.
  const each = Math.round((1 - (1 - probability) ** (1 / combos.length)) * 1e6) / 1e6;
  const rules = FAULTED_OPERATIONS.flatMap((operation) =>
    combos.map(({ status, code, text, when }) => ({
      operation,
      probability: each,
      status,
      code,
      message: `${text} (soak fault, ${when})`,
      when,
    })),
  );
  return { seed, rules };
}

/**
 * The injected counts of a `GET /_azqueue/faults` answer, by operation and `when`, and in all.
 * @param {{ rules: { operation?: string, when?: string, injected: number }[] }} state
 */
export function injectedCounts(state) {
  /** @type {Record<string, number>} */
  const by = {};
  let total = 0;
  for (const r of state.rules) {
    const key = `${r.operation ?? 'any'} ${r.when ?? 'before'}`;
    by[key] = (by[key] ?? 0) + r.injected;
    total += r.injected;
  }
  return { total, by };
}

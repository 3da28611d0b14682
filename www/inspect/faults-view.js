// The fault panel's words: a rule as a reader takes it in (what it takes, what it does, when it
// fires, its counts), an injected fault as one line, and the list of rules kept in step with the
// server's without rebuilding it, so a refresh never takes the focus from a Remove button.

import { h, setAttr, setText } from '../page/dom.js';

/** @import { FaultRule } from './api.js' */

/**
 * Which requests `r` takes.
 * @param {FaultRule} r
 */
export function ruleMatches(r) {
  const operation = r.operation ?? 'every operation';
  const queue = r.queue ? `queue ${r.queue}` : 'any queue';
  const account = r.account ? `account ${r.account}` : 'any account';
  return `${operation} on ${queue} of ${account}`;
}

/**
 * What `r` does when it fires.
 * @param {FaultRule} r
 */
export function ruleDoes(r) {
  const parts = [];
  const when = r.when === 'after' ? 'after the operation is applied' : 'instead of the operation';
  if (r.status !== undefined) parts.push(`answers ${r.status} ${r.code} ${when}`);
  if (r.drop === 'reset')
    parts.push(`resets the connection ${r.status === undefined ? when : ''}`.trim());
  if (r.drop === 'partial') parts.push('cuts the answer off halfway');
  if (r.delayMs > 0) parts.push(`answers ${r.delayMs} ms late`);
  return parts.join(', ') || 'nothing';
}

/**
 * When `r` fires.
 * @param {FaultRule} r
 */
export function ruleFires(r) {
  const chance = r.probability === 1 ? 'always' : `with probability ${r.probability}`;
  const skip = r.skip > 0 ? `, after letting ${r.skip} through` : '';
  const times = r.times === undefined ? ', with no end' : `, at most ${r.times} times`;
  return `${chance}${skip}${times}`;
}

/**
 * A fault event's time on the queues' clock, to the millisecond.
 * @param {string} at an ISO time
 */
const timeOf = (at) => at.replace(/^.*T/, '').replace('Z', ' UTC');

/**
 * One injected fault as a line of the recent list.
 * @param {Record<string, any>} e a `fault` event (docs/faults.md, "Events")
 */
export function recentFault(e) {
  const where = e.queue ? `queue ${e.queue}` : `account ${e.account}`;
  const by = e.limit ? `the limit ${e.limit}` : `rule ${e.rule}`;
  const answer =
    e.status !== undefined
      ? `${e.status} ${e.code}${e.when === 'after' ? ' after the operation' : ''}`
      : e.drop
        ? `answer cut (${e.drop})`
        : `answer delayed ${e.delayMs} ms`;
  return h(
    'li',
    {
      'data-testid': 'recent-fault',
      'data-operation': e.operation,
      'data-rule': e.rule,
      'data-limit': e.limit,
      'data-status': e.status,
    },
    h('time', { datetime: e.at, text: timeOf(String(e.at)) }),
    ` ${e.operation} on ${where}: ${answer}, by ${by}`,
  );
}

/** The elements of one listed rule, to update in place. */
class RuleItem {
  /**
   * @param {string} id
   * @param {(id: string) => void} onRemove
   */
  constructor(id, onRemove) {
    this.matches = h('dd', {});
    this.does = h('dd', {});
    this.fires = h('dd', {});
    this.counts = h('p', { class: 'fault-counts', 'data-testid': 'fault-counts' });
    this.li = h(
      'li',
      { class: 'fault-rule', 'data-testid': 'fault-rule', 'data-id': id },
      h(
        'div',
        { class: 'fault-rule-head' },
        h('strong', { text: `Rule ${id}` }),
        h('button', {
          type: 'button',
          'data-testid': 'remove-rule',
          'aria-label': `Remove rule ${id}`,
          text: 'Remove',
          onclick: () => onRemove(id),
        }),
      ),
      h(
        'dl',
        {},
        h('div', {}, h('dt', { text: 'Takes' }), this.matches),
        h('div', {}, h('dt', { text: 'Does' }), this.does),
        h('div', {}, h('dt', { text: 'Fires' }), this.fires),
      ),
      this.counts,
    );
  }

  /** @param {FaultRule} r */
  show(r) {
    setText(this.matches, ruleMatches(r));
    setText(this.does, ruleDoes(r));
    setText(this.fires, ruleFires(r));
    const retired = r.retired ? ' · retired (fired its times)' : '';
    setText(this.counts, `matched ${r.matched} · injected ${r.injected}${retired}`);
    setAttr(this.li, 'data-matched', r.matched);
    setAttr(this.li, 'data-injected', r.injected);
    setAttr(this.li, 'data-retired', String(r.retired));
  }
}

/** The server's rules, listed in its order, each item kept while its rule is there. */
export class RuleList {
  /**
   * @param {HTMLElement} list an `<ol>`
   * @param {(id: string) => void} onRemove
   */
  constructor(list, onRemove) {
    this.list = list;
    this.onRemove = onRemove;
    /** @type {Map<string, RuleItem>} */
    this.items = new Map();
  }

  /** @param {FaultRule[]} rules */
  show(rules) {
    const ids = new Set(rules.map((r) => r.id));
    /** Where the focus was, when it was in a rule that goes: that rule's place in the list. */
    let focusAt = -1;
    for (const [id, item] of this.items)
      if (!ids.has(id)) {
        if (item.li.contains(document.activeElement))
          focusAt = [...this.list.children].indexOf(item.li);
        item.li.remove();
        this.items.delete(id);
      }
    for (const r of rules) {
      let item = this.items.get(r.id);
      if (!item) {
        item = new RuleItem(r.id, this.onRemove);
        this.items.set(r.id, item);
        this.list.append(item.li);
      }
      item.show(r);
    }
    // New rules join at the end, as the server adds them, so the items that stay keep their
    // place (and a focused button its focus); only an id given again after its removal within
    // one refresh can be out of place, and then the list is put in the server's order.
    const order = rules.map((r) => /** @type {RuleItem} */ (this.items.get(r.id)).li);
    if (order.some((li, i) => this.list.children[i] !== li)) this.list.append(...order);
    // A keyboard user who removed a rule goes on from the rule now in its place (or the last),
    // or from the list when none is left, rather than from the top of the page.
    if (focusAt >= 0) {
      const next = order[Math.min(focusAt, order.length - 1)];
      const button = next?.querySelector('button');
      if (button) button.focus();
      else this.list.focus();
    }
  }
}

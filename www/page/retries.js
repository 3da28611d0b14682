// What a producer's retries did, told from the queue itself: after a refused Put the page looks
// in the queue for the text it sent, so "nothing was stored" or "it was stored before the error"
// is read from the engine, never assumed from the status code. A retry that stores a second copy
// is the duplicate the "service is busy" scenario is about.

/** @import { Demo } from './demo.js' */
/** @import { Producer } from './producer.js' */
/** @import { Result, WireMessage } from './rest.js' */

/**
 * The labels of the messages in the scenario's queue whose text is `text`, in label order.
 * @param {Demo} demo
 * @param {string} text
 */
export async function copiesOf(demo, text) {
  const found = (await demo.rest.inspect(demo.queue))?.messages ?? [];
  return found
    .filter((m) => m.messageText === text)
    .map((m) => demo.label(m.messageId))
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/** @param {string[]} labels */
export const listed = (labels) =>
  labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;

/**
 * A Put the producer will send again: what the service answered and what the queue holds now.
 * @param {Demo} demo
 * @param {Producer} p
 * @param {Result} r
 * @param {string} text
 * @param {{ retry: number, tries: number, waitS: number }} plan
 */
export async function tellRefused(demo, p, r, text, { retry, tries, waitS }) {
  const stored = await copiesOf(demo, text);
  const answered = `${p.name}'s Put Message of “${text}” got ${r.status} ${r.code ?? ''}${r.reason ? ` (“${r.reason}”)` : ''}.`;
  const again = `${p.name} waits ${waitS} s and sends it again (retry ${retry} of ${tries}).`;
  const held = stored.length
    ? `The queue holds it all the same, as ${listed(stored)}: the Put was committed before the error.`
    : 'The queue holds no copy of it: nothing was stored.';
  const kind = r.code === 'ServerBusy' ? 'throttled' : r.status === 500 ? 'timed-out' : 'refused';
  const text500 =
    kind === 'timed-out' ? ` ${p.name} cannot tell from a 500 whether the message was stored.` : '';
  demo.say(`${answered}${text500} ${held} ${again}`, kind, {
    actor: p.name,
    call: r.entry.seq,
    facts: {
      actor: p.name,
      text,
      status: r.status,
      code: r.code,
      reason: r.reason,
      retry,
      tries,
      waitS,
      stored: stored.length,
      labels: listed(stored),
    },
  });
}

/**
 * A Put that succeeded after `retries` retries: stored once, or twice when an earlier attempt
 * had been committed before its error.
 * @param {Demo} demo
 * @param {Producer} p
 * @param {Result} r
 * @param {string} text
 * @param {number} retries
 */
export async function tellRetried(demo, p, r, text, retries) {
  const label = demo.label(/** @type {WireMessage} a Put that succeeded */ (r.message).messageId);
  const copies = await copiesOf(demo, text);
  const facts = {
    actor: p.name,
    text,
    label,
    retries,
    copies: copies.length,
    labels: listed(copies),
  };
  const who = { actor: p.name, label, call: r.entry.seq, facts };
  if (copies.length > 1)
    demo.say(
      `${p.name}'s retry ${retries} of “${text}” was stored as ${label}, and so had been the Put that timed out: the queue now holds ${copies.length} copies, ${listed(copies)}, with the same text and different ids. Every consumer will see each of them.`,
      'duplicated',
      who,
    );
  else
    demo.say(
      `${p.name}'s retry ${retries} of “${text}” was stored as ${label}, and it is the only copy in the queue: the refused attempts stored nothing.`,
      'retried',
      who,
    );
}

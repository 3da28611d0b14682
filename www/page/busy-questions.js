// The questions of scenario 6, the service is busy (questions.js has the format): is a refused
// Put in the queue, how many copies a retry after a time-out leaves, and what the idempotent
// consumer does with a duplicate. Each right answer is read from what the run reports.

/** @import { Question } from './questions.js' */

const TOPIC = 'retries and idempotency';

/** @type {Question[]} */
export const BUSY_QUESTIONS = [
  {
    id: 'busy-stored',
    ask: 'throttled',
    topic: TOPIC,
    prompt: (w, f) =>
      `${f.actor}'s Put Message of “${f.text}” was answered ${f.status} ${f.code}. Is “${f.text}” in the queue now?`,
    choices: () => [
      { id: 'no', text: 'No: the service refused it before storing anything' },
      { id: 'yes', text: 'Yes: the service stored it and then said it was busy' },
      { id: 'half', text: 'Half of it: the body was cut off' },
    ],
    answer: (a) => (Number(a.stored) ? 'yes' : 'no'),
    why: (a) =>
      Number(a.stored)
        ? `The queue held “${a.text}” as ${a.labels} when the ${a.status} came back.`
        : `The queue held no message with “${a.text}” when the ${a.status} ${a.code} came back: a busy service refuses before it works, so ${a.actor}'s retry is safe.`,
  },
  {
    id: 'busy-copies',
    ask: 'timed-out',
    topic: TOPIC,
    prompt: (w, f) =>
      `${f.actor}'s Put of “${f.text}” was answered ${f.status} ${f.code}, and ${f.actor} will send it again in ${f.waitS} s. How many messages with this text will the queue hold after the retry?`,
    choices: () => [1, 2, 0].map((n) => ({ id: String(n), text: String(n) })),
    settle: ['duplicated', 'retried'],
    about: (a, s) => s.text === a.text,
    answer: (a, s) => String(s.copies),
    why: (a, s) =>
      Number(s.copies) > 1
        ? `After the retry the queue held ${s.copies} copies of “${s.text}”, ${s.labels}: the Put that timed out had been committed before its 500, and the retry stored it again.`
        : `After the retry the queue held one copy of “${s.text}”, ${s.labels}.`,
  },
  {
    id: 'busy-idempotent',
    ask: 'processed-twice',
    topic: TOPIC,
    subject: (w) => {
      const careful = w.consumers().find((c) => c.kind === 'consumer' && c.idempotent);
      return { careful: careful?.name ?? 'an idempotent consumer' };
    },
    prompt: (w, f) =>
      `${f.actor} charged “${f.text}” twice. ${f.careful} reads the payments ledger before charging. When the next duplicate reaches ${f.careful}, what will happen?`,
    choices: () => [
      { id: 'skipped', text: 'It is deleted without a second charge' },
      { id: 'charged', text: 'It is charged again' },
      { id: 'refused', text: 'The queue refuses to deliver a second copy' },
    ],
    settle: ['deduplicated', 'processed-twice'],
    about: (a, s) => s.actor === a.careful,
    answer: (a, s) => (Number(s.charges) > 1 ? 'charged' : 'skipped'),
    why: (a, s) =>
      Number(s.charges) > 1
        ? `${s.actor} charged “${s.text}” from ${s.label}: ${s.charges} charges in the ledger.`
        : `${s.actor} found “${s.text}” charged by ${s.firstBy} from ${s.first} and deleted ${s.label} with ${s.receipt}: the ledger still has one charge. The queue delivered both copies: only the consumer can tell them apart.`,
  },
];

// Runs the test's commands in this page: `GET /command` waits for one (`{ id, fn, args }`),
// `window.azq[fn](...args)` (work.js) runs it, `POST /result` answers. Lets Node drive a
// browser it can only start and kill (Firefox, WebKitGTK), the same way as Chromium.
import './work.js';

addEventListener('error', (e) => report('error', `${e.message}`));
addEventListener('unhandledrejection', (e) => report('error', `${e.reason?.stack ?? e.reason}`));

/** @param {...unknown} entry */
function report(...entry) {
  fetch('/ledger', { method: 'POST', body: JSON.stringify(entry) }).catch(() => {});
}

for (;;) {
  let command;
  try {
    const r = await fetch('/command');
    if (!r.ok) break; // another page took over
    command = await r.json();
  } catch {
    await new Promise((r) => setTimeout(r, 100));
    continue;
  }
  let reply;
  try {
    // A helper of work.js, by name.
    const helpers = /** @type {Record<string, (...args: unknown[]) => unknown>} */ (window.azq);
    reply = { id: command.id, ok: true, value: await helpers[command.fn](...command.args) };
  } catch (e) {
    reply = { id: command.id, ok: false, error: String(/** @type {any} */ (e)?.stack ?? e) };
  }
  await fetch('/result', { method: 'POST', body: JSON.stringify(reply) });
}

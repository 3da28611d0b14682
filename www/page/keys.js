// The presenter's keys, wherever the focus is: → or PageDown the next moment (or Continue), ←
// or PageUp the previous moment (a clicker sends those), Space play/pause, "." step, "[" "]"
// speed, and the keys main.js adds (restart, guided, scenarios, presentation mode), "?" this
// list. A focused button, checkbox, slider or list never swallows them; only a field you type
// into keeps its keys (and Escape leaves it, so the keys work again). While a message's history
// is open they wait: time does not move on behind a dialog being read.

/**
 * What each key does, in the order the key sheet lists them.
 * @typedef {{ keys: string[], label: string, run: (key: string) => unknown }} Binding (`key`:
 *   which of its keys was pressed)
 */

/** Fields whose keys are the typist's. */
const TYPING =
  'input:not([type]), input[type=text], input[type=number], input[type=search], input[type=url], textarea, [contenteditable]';

/**
 * @param {{ bindings: Binding[], sheet: HTMLDialogElement, list: HTMLElement }} o
 */
export function bindPresenterKeys({ bindings, sheet, list }) {
  list.replaceChildren(
    ...bindings
      .map((b) => {
        const dt = document.createElement('dt');
        dt.append(
          ...b.keys.flatMap((k, i) => {
            const kbd = document.createElement('kbd');
            kbd.textContent = k === ' ' ? 'Space' : k;
            return i ? [' ', kbd] : [kbd];
          }),
        );
        const dd = document.createElement('dd');
        dd.textContent = b.label;
        return [dt, dd];
      })
      .flat(),
  );
  /** @type {Map<string, Binding>} */
  const byKey = new Map(bindings.flatMap((b) => b.keys.map((k) => [keyName(k), b])));
  let swallowUp = '';
  // Capture phase, before a focused control acts on the key (a button clicks on Space's keyup,
  // a checkbox toggles, a slider or a list moves on the arrows).
  document.addEventListener(
    'keydown',
    (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest(TYPING)) {
        if (e.key === 'Escape') /** @type {HTMLElement} */ (target).blur();
        return;
      }
      const binding = byKey.get(e.key);
      if (!binding) return;
      // Inside the key sheet only "?" (and Escape, the dialog's own) act; inside any other
      // dialog none do.
      if (sheet.open && e.key !== '?') return;
      if ([...document.querySelectorAll('dialog[open]')].some((d) => d !== sheet)) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.key === ' ') swallowUp = ' ';
      if (!e.repeat || e.key !== ' ') binding.run(e.key);
    },
    true,
  );
  document.addEventListener(
    'keyup',
    (e) => {
      if (e.key === swallowUp) {
        swallowUp = '';
        e.preventDefault();
        e.stopPropagation();
      }
    },
    true,
  );
}

/**
 * The `KeyboardEvent.key` of a key as the sheet names it.
 * @param {string} k
 */
function keyName(k) {
  return { '→': 'ArrowRight', '←': 'ArrowLeft', Space: ' ' }[k] ?? k;
}

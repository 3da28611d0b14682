// Shareable moments: `?scenario=<id>&t=<seconds>` opens a scenario paused at that time. The
// engine is seeded and the clock virtual, so the same link shows the same picture anywhere.

import { isScenario } from './scenarios.js';

/** The moment a URL asks for: { scenario, t (ms) }, or null when it asks for none (or a bad one). */
/**
 * @param {string} href
 * @returns {{ scenario: string, t: number } | null}
 */
export function momentFromUrl(href) {
  const params = new URL(href).searchParams;
  const scenario = params.get('scenario');
  if (!scenario || !isScenario(scenario)) return null;
  const t = Number(params.get('t') ?? 0);
  return { scenario, t: Number.isFinite(t) && t > 0 ? Math.min(t, 24 * 3600) * 1000 : 0 };
}

/**
 * The link to `scenario` at `elapsedMs`, on this page's address.
 * @param {string} href
 * @param {string} scenario
 * @param {number} elapsedMs
 */
export function linkTo(href, scenario, elapsedMs) {
  const url = new URL(href);
  url.search = '';
  url.hash = '';
  url.searchParams.set('scenario', scenario);
  url.searchParams.set('t', String(Math.round(elapsedMs / 100) / 10));
  return url.href;
}

/**
 * Wires "copy link to this moment"; says what it copied, and that your own actions are not in it.
 * @param {{ button: HTMLElement, status: HTMLElement }} elements
 * @param {() => { scenario: string, elapsed: number, acted: boolean }} current
 */
export function bindCopyLink({ button, status }, current) {
  button.addEventListener('click', async () => {
    const { scenario, elapsed, acted } = current();
    const link = linkTo(location.href, scenario, elapsed);
    status.dataset.link = link;
    const note = acted ? ' (the scenario only: your own actions are not in the link)' : '';
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = `Copied${note}.`;
    } catch {
      // Clipboard refused (insecure origin, no permission): show the link to copy by hand.
      status.textContent = `${link}${note}`;
    }
  });
}

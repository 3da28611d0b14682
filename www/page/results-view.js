// The "Your answers" panel: the summary of what was answered (results.js), copied out or cleared.

import { $, setText } from './dom.js';

/** @import { Results } from './results.js' */

/**
 * @param {Results} results
 * @param {(id: string) => { title: string }} scenarioOf a scenario's title by its id
 */
export function bindResults(results, scenarioOf) {
  showResults(results, scenarioOf);
  $('copy-results').addEventListener('click', async () => {
    const text = $('results-text').textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setText($('results-status'), 'Copied.');
    } catch {
      // Clipboard refused: the summary is on screen to select by hand.
      setText($('results-status'), 'Select the summary above to copy it.');
    }
  });
  $('clear-results').addEventListener('click', () => {
    results.clear();
    showResults(results, scenarioOf);
  });
}

/**
 * @param {Results} results
 * @param {(id: string) => { title: string }} scenarioOf
 */
export function showResults(results, scenarioOf) {
  const text = results.summary((id) => scenarioOf(id).title);
  setText($('results-text'), text || 'No answers yet: turn on Guided and Questions, and play.');
}

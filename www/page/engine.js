// Opens the page's engine on the virtual clock: IndexedDB when the build and the browser allow
// it, else memory, and says why it fell back. Seeded, so every run of a scenario is the same.

/** @import { FaultRuleSet, QueueService } from '/pkg/web/azqueue.js' */

const SEED = 20110818;

/**
 * @param {typeof QueueService} Service the engine's class
 * @param {() => number} now the virtual clock
 * @param {FaultRuleSet} [faults] the fault rules and limits to open with (a build with them)
 * @returns {Promise<{ service: QueueService, store: string, note: string }>}
 */
export async function openEngine(Service, now, faults) {
  const base = { now, anonymous: true, seed: SEED, name: 'azqueue-page', faults };
  try {
    // Relaxed: a reload restores the page by replaying its session, never from this store, so
    // waiting for each commit buys nothing here; at 100× it was most of the burst's time.
    const service = await Service.open({ ...base, store: 'indexeddb', durability: 'relaxed' });
    return { service, store: 'indexeddb', note: '' };
  } catch (e) {
    const service = await Service.open({ ...base, store: 'memory' });
    const code = /** @type {any} */ (e)?.code;
    const note =
      code === 'StoreUnavailable'
        ? 'this browser offers no IndexedDB here'
        : code === 'StoreLocked'
          ? "another tab holds this page's database"
          : String(/** @type {any} */ (e)?.message ?? e);
    return { service, store: 'memory', note };
  }
}

/**
 * Opens and frees a service with `faults`: throws the engine's reason for a rule set it refuses,
 * before a scenario tears down the one on screen.
 * @param {typeof QueueService} Service the engine's class, with fault rules
 * @param {FaultRuleSet} faults
 */
export async function checkFaults(Service, faults) {
  const service = await Service.open({ store: 'memory', anonymous: true, faults });
  service.free();
}

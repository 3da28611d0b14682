// A read the inspector repeats whenever something may have changed, made at most once at a time
// and at most once per gap: a call meanwhile runs it once more afterwards, so the last change is
// always reflected however many arrive together, and a burst of producers costs the server a
// few reads rather than one per event (BENCHMARKS.md, "Producers with an open inspector").

/**
 * `run` wrapped so: calling the result starts it now, or once more after the run in flight and
 * at least `gapMs` after the last start. What it throws goes to `onError`.
 * @param {number} gapMs
 * @param {(e: unknown) => void} onError
 * @param {() => Promise<unknown>} run
 * @returns {() => void}
 */
export function throttled(gapMs, onError, run) {
  let running = false;
  let again = false;
  let lastStart = -Infinity;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let waiting;
  const go = () => {
    if (running || waiting) {
      again = true;
      return;
    }
    const wait = lastStart + gapMs - performance.now();
    if (wait > 0) {
      waiting = setTimeout(() => {
        waiting = undefined;
        go();
      }, wait);
      return;
    }
    running = true;
    again = false;
    lastStart = performance.now();
    run()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) go();
      });
  };
  return go;
}

// Resident memory of processes, read from Linux's /proc, for the soak's memory-over-time figures.

import fs from 'node:fs';

/**
 * The resident set of `pid`, in MiB (0 for a process that is gone).
 * @param {number} pid
 */
export function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * The proportional set of `pid` in MiB: its private pages plus its share of those it shares, so
 * the figures of a browser's processes add up without counting shared pages once per process.
 * @param {number} pid
 */
export function pssMiB(pid) {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * `pid` and all its descendants.
 * @param {number} pid
 */
export function processTree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of fs.readdirSync(`/proc/${out[i]}/task`)) {
        const text = fs.readFileSync(`/proc/${out[i]}/task/${task}/children`, 'utf8').trim();
        if (text) out.push(...text.split(/\s+/).map(Number));
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

// The workerd processes a Miniflare in this process started, for reading their CPU time from /proc.

import fs from 'node:fs';

/**
 * The pids of this process's workerd children (Miniflare spawns the binary itself).
 * @returns {number[]}
 */
export function workerdPids() {
  return fs
    .readdirSync('/proc/self/task')
    .flatMap((task) =>
      fs.readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/),
    )
    .filter(Boolean)
    .map(Number)
    .filter((pid) => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd');
}

/**
 * The pid of this process's one workerd child.
 * @returns {number}
 */
export function workerdPid() {
  const found = workerdPids();
  if (found.length !== 1) throw new Error(`expected one workerd child, found ${found.length}`);
  return found[0];
}

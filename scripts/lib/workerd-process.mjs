// The workerd process a Miniflare in this process started, for reading its CPU time from /proc.

import fs from 'node:fs';

/**
 * The pid of this process's one workerd child (Miniflare spawns the binary itself).
 * @returns {number}
 */
export function workerdPid() {
  const children = fs
    .readdirSync('/proc/self/task')
    .flatMap((task) =>
      fs.readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/),
    )
    .filter(Boolean)
    .map(Number);
  const found = children.filter(
    (pid) => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd',
  );
  if (found.length !== 1) throw new Error(`expected one workerd child, found ${found.length}`);
  return found[0];
}

// Runs a Node program to completion for tests that check what a CLI prints and how it exits
// (the server's flags, the edge's dev.mjs, a script in the installed package's project).
import { execFile } from 'node:child_process';

/**
 * Runs `node args…` and resolves to { code, signal, stdout, stderr } however it exits; rejects
 * only if it is still running after `timeoutMs` (it is then SIGKILLed).
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }>}
 */
export function runNode(args, { cwd, env = process.env, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    /** @type {import('node:child_process').ExecFileOptions} */
    const options = { cwd, env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20 };
    execFile(process.execPath, args, { ...options, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error?.killed) {
        reject(
          new Error(`node ${args.join(' ')} did not exit in ${timeoutMs} ms:\n${stdout}${stderr}`),
        );
        return;
      }
      // A non-zero exit is an error whose `code` is the exit status; a signal leaves it null.
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, signal: error?.signal ?? null, stdout, stderr });
    });
  });
}

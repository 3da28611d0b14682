// The video job of scenario 2, as its message text says it: the file and the next stage to run.
// The cards draw a job's stages, the lease worker reads and writes them.

/** @typedef {{ video: string, stage: string }} Job */

export const STAGES = ['scan', 'encode', 'compress', 'done'];

/**
 * The video job's message text: the file and the next stage to run, as JSON.
 * @param {string} video
 * @param {string} stage
 */
export function jobText(video, stage) {
  return JSON.stringify({ video, stage });
}

/**
 * A video job ({ video, stage }) or undefined for any other message.
 * @param {string | undefined} text
 * @returns {Job | undefined}
 */
export function parseJob(text) {
  if (!text || text[0] !== '{') return undefined;
  try {
    const j = JSON.parse(text);
    if (typeof j.video === 'string' && STAGES.includes(j.stage)) return j;
  } catch {
    // not JSON: not a job
  }
  return undefined;
}

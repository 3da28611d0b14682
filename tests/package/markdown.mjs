// Reading Markdown as the package tests run it: its fenced blocks, an sh block's commands, and
// the anchor a heading gets. Not a test file itself.

/** @typedef {{ lang: string, file: string, text: string }} Block */

/**
 * The fenced blocks of a Markdown text, in order.
 * @param {string} markdown
 * @returns {Block[]}
 */
export function blocks(markdown) {
  return [...markdown.matchAll(/^```(\w*)[ \t]*([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => ({
    lang: m[1],
    file: m[2].trim(),
    text: m[3],
  }));
}

/**
 * The commands of an sh block: comments dropped, `\` continuations joined.
 * @param {string} text
 */
export function commands(text) {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}

/**
 * The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as `-`.
 * @param {string} heading
 */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

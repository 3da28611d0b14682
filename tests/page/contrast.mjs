// WCAG AA contrast, measured in the page: every visible text element whose ink (its colour, with
// the opacity of it and its ancestors) against its background (the layers under it) falls short
// of 4.5:1, or 3:1 for large text. Run with page.evaluate(contrastFailures).

/** In the page: every visible text element whose contrast falls short of WCAG AA. */
export function contrastFailures() {
  /** @param {string} c a CSS colour: rgb() or rgba() */
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const [r, g, b, a = 1] = m[1]
      .split(/[,\s/]+/)
      .filter(Boolean)
      .map(Number);
    return [r, g, b, a];
  };
  /** @param {number[]} rgb */
  const lum = ([r, g, b]) => {
    const f = (/** @type {number} */ v) =>
      (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  /**
   * @param {number[]} top
   * @param {number[]} bottom
   */
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  /** @param {Element} el */
  const background = (el) => {
    /** @type {number[][]} */
    const layers = [];
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reduceRight((acc, c) => over(c, acc), [255, 255, 255, 1]);
  };
  /**
   * @param {number[]} a
   * @param {number[]} b
   */
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  /** @type {string[]} */
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, .leaving, .dissolved, [hidden], dialog:not([open]), .visually-hidden'))
      continue;
    if (el.closest('button:disabled, input:disabled, select:disabled')) continue; // inactive: exempt
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
    if (!text) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden') continue;
    let opacity = 1;
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement)
      opacity *= Number(getComputedStyle(e).opacity);
    if (opacity < 0.05) continue;
    const bg = background(el);
    const fg = parse(s.color);
    const ink = over([fg[0], fg[1], fg[2], fg[3] * opacity], bg);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    const need = large ? 3 : 4.5;
    const got = ratio(ink, bg);
    if (got < need - 0.005)
      out.push(
        `${el.tagName.toLowerCase()}.${el.className} “${(el.textContent ?? '').trim().slice(0, 30)}” ${got.toFixed(2)}:1 < ${need}`,
      );
  }
  return out;
}

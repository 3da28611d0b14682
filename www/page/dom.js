// Small DOM helpers shared by the views: element creation, and setters that touch the DOM only
// when a value changes (the views run every animation frame).

/**
 * The page's element with this id (index.html has every id the page asks for).
 * @param {string} id
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** The page's `<input>` with this id. @param {string} id */
export const $input = (id) => /** @type {HTMLInputElement} */ ($(id));
/** The page's `<select>` with this id. @param {string} id */
export const $select = (id) => /** @type {HTMLSelectElement} */ ($(id));

/**
 * An element with attributes (`class`, `text`, `on<event>` listeners, booleans as present or
 * absent) and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string | null | undefined)} children
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== undefined && c !== null) el.append(c);
  return el;
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 */
export function svg(tag, attrs = {}) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * @param {Element} el
 * @param {unknown} text
 */
export function setText(el, text) {
  const value = String(text);
  if (el.textContent !== value) el.textContent = value;
}

/**
 * Sets `name`, or removes it for undefined, null or false.
 * @param {Element} el
 * @param {string} name
 * @param {unknown} value
 */
export function setAttr(el, name, value) {
  if (value === undefined || value === null || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const text = String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
}

/**
 * @param {Element} el
 * @param {string} name
 * @param {unknown} on
 */
export function setClass(el, name, on) {
  if (el.classList.contains(name) !== Boolean(on)) el.classList.toggle(name, Boolean(on));
}

export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

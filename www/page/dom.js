// Small DOM helpers shared by the views: element creation, and setters that touch the DOM only
// when a value changes (the views run every animation frame).

/** The page's element with this id. @param {string} id */
export const $ = (id) => document.getElementById(id);
/** The page's `<input>` with this id. @param {string} id */
export const $input = (id) => /** @type {HTMLInputElement} */ ($(id));
/** The page's `<select>` with this id. @param {string} id */
export const $select = (id) => /** @type {HTMLSelectElement} */ ($(id));

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

export function svg(tag, attrs = {}) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

export function setText(el, text) {
  text = String(text);
  if (el.textContent !== text) el.textContent = text;
}

export function setAttr(el, name, value) {
  if (value === undefined || value === null || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  value = String(value);
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export function setClass(el, name, on) {
  if (el.classList.contains(name) !== Boolean(on)) el.classList.toggle(name, Boolean(on));
}

export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

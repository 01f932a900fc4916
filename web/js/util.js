// Small DOM helpers shared by every page.

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

function setAttrs(el, attrs, svg) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (!svg && (k === 'value' || k === 'checked' || k === 'disabled' || k === 'selected')) el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

/**
 * Creates an HTML element: h('button', {class: 'x', onclick}, 'text'). The answer is typed
 * loosely, as before: callers use the element of the tag they named (an input's `value`).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {any}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs, false);
  append(el, children);
  return el;
}

/**
 * Creates an SVG element (typed loosely, like `h`).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {any}
 */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs, true);
  append(el, children);
  return el;
}

/**
 * Replaces the children of `el`.
 * @param {any} el
 * @param {...any} children
 * @returns {any}
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Upper-cases the first letter. */
export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** A short relative time ("3 min ago") for an RFC 3339 time. */
export function ago(iso) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 45) return 'just now';
  if (s < 90) return '1 min ago';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 5400) return '1 hour ago';
  if (s < 86400) return `${Math.round(s / 3600)} hours ago`;
  if (s < 172800) return 'yesterday';
  return new Date(t).toLocaleDateString();
}

/**
 * Shows a short message at the bottom of the screen.
 * @param {any} message
 * @param {string} [kind]
 * @param {number} [ms]
 * @returns {HTMLElement}
 */
export function toast(message, kind = 'info', ms = 3200) {
  let box = document.getElementById('toasts');
  if (!box) {
    box = /** @type {HTMLElement} */ (h('div', { id: 'toasts', role: 'status', 'aria-live': 'polite' }));
    document.body.append(box);
  }
  const t = h('div', { class: ['toast', `toast-${kind}`] }, message);
  box.append(t);
  setTimeout(() => t.classList.add('toast-out'), ms);
  setTimeout(() => t.remove(), ms + 400);
  return t;
}

/** Copies text to the clipboard; falls back to a selection for old browsers. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { style: { position: 'fixed', opacity: '0' } }, text);
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}

/** Debounces `fn`. */
export function debounce(fn, ms) {
  let t = 0;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

/** Scrolls `container` (a scrolling list) so that `el` is in view, without moving the page. */
export function scrollWithin(container, el) {
  if (!container || !el) return;
  const c = container.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.top < c.top) container.scrollTop -= c.top - r.top;
  else if (r.bottom > c.bottom) container.scrollTop += r.bottom - c.bottom;
}

/**
 * Whether the board's targets must suit a finger: on a touch screen (a coarse pointer) or in a
 * phone-sized window. Then a cell is one target (a small mark on it, such as a Fighter beside
 * a ground piece, is chosen from a menu instead of hit on its own) and small boards can zoom.
 */
export function fingerSized() {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse), (max-width: 600px)').matches;
}

/** Whether the reader asked for less motion: no sliding or fading pieces then. */
export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Whether the screen is a touch screen (a coarse pointer, no mouse): it taps and has no Esc key. */
export function touchScreen() {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

/**
 * The word for pressing on the board with the pointer in use: "click", or "tap" on a touch
 * screen; with a capital when `capital`.
 * @param {boolean} [capital]
 */
export function clickWord(capital = false) {
  const word = touchScreen() ? 'tap' : 'click';
  return capital ? cap(word) : word;
}

/**
 * A line said while a move is half made, with how to drop it where there is a keyboard:
 * `text` then " Esc cancels.".
 * @param {string} text
 */
export function withEsc(text) {
  return touchScreen() || !text ? text : `${text} Esc cancels.`;
}

/** "1 move", "3 moves": a count with its noun. */
export function count(n, noun, plural = `${noun}s`) {
  return `${n} ${n === 1 ? noun : plural}`;
}

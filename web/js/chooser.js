// The chooser: a small menu by a clicked cell, offering the moves that share the clicks made
// (a step with or without a spin, carry or leave…), grouped in rows.

import { h, cap } from './util.js';

/**
 * An option of the chooser: its button's label, its row, the value it stands for and a
 * tooltip (also the button's `data-move`).
 * @typedef {object} ChooserOption
 * @property {string} label
 * @property {string} [group]
 * @property {string} value
 * @property {string} [title]
 */

/** @type {((v: ChooserOption | null) => void) | null} */
let chooserClose = null;

/**
 * Opens a chooser over `wrap` next to `cell` of the board `svg`; resolves with the chosen
 * option, or null when cancelled (Escape, a click outside, the × button, another chooser).
 * @param {HTMLElement} wrap
 * @param {SVGElement} svg
 * @param {ChooserOption[]} options
 * @param {string} cell
 * @param {string} title
 * @returns {Promise<ChooserOption | null>}
 */
export function openChooser(wrap, svg, options, cell, title) {
  if (chooserClose) chooserClose(null);
  return new Promise((resolve) => {
    const box = h('div', { class: 'chooser', role: 'dialog', 'aria-label': title });
    /** @param {ChooserOption | null} v */
    const finish = (v) => {
      chooserClose = null;
      box.remove();
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onOutside, true);
      resolve(v);
      svg.focus({ preventScroll: true });
    };
    /** @param {KeyboardEvent} ev */
    const onKey = (ev) => {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation();
        finish(null);
      }
    };
    /** @param {PointerEvent} ev */
    const onOutside = (ev) => {
      if (!box.contains(/** @type {Node | null} */ (ev.target))) finish(null);
    };
    chooserClose = finish;
    /** @type {Map<string, ChooserOption[]>} */
    const groups = new Map();
    for (const o of options) groups.set(o.group || '', (groups.get(o.group || '') || []).concat([o]));
    box.append(h('div', { class: 'chooser-head' }, h('span', {}, title),
      h('button', { class: 'chooser-x', type: 'button', 'aria-label': 'Cancel', onclick: () => finish(null) }, '×')));
    for (const [g, os] of groups) {
      const row = h('div', { class: 'chooser-row' });
      if (g && groups.size > 1) row.append(h('div', { class: 'chooser-group' }, cap(g)));
      else if (g) row.append(h('div', { class: 'chooser-group' }, cap(g)));
      const btns = h('div', { class: 'chooser-btns' });
      for (const o of os) {
        btns.append(h('button', { type: 'button', class: 'btn chooser-btn', title: o.title || '', 'data-move': o.title || '', onclick: () => finish(o) }, o.label));
      }
      row.append(btns);
      box.append(row);
    }
    wrap.append(box);
    // Place it next to the cell, inside the board area.
    const hit = svg.querySelector(`[data-cell="${cell}"]`);
    const wrapRect = wrap.getBoundingClientRect();
    if (hit) {
      const r = hit.getBoundingClientRect();
      const bw = box.offsetWidth;
      const bh = box.offsetHeight;
      let x = r.left - wrapRect.left + r.width / 2 - bw / 2;
      let y = r.bottom - wrapRect.top + 6;
      if (y + bh > wrapRect.height) y = r.top - wrapRect.top - bh - 6;
      x = Math.max(4, Math.min(wrapRect.width - bw - 4, x));
      y = Math.max(4, Math.min(wrapRect.height - bh - 4, y));
      box.style.left = `${x}px`;
      box.style.top = `${y}px`;
    }
    document.addEventListener('keydown', onKey, true);
    setTimeout(() => document.addEventListener('pointerdown', onOutside, true), 0);
    const first = /** @type {HTMLElement | null} */ (box.querySelector('.chooser-btn'));
    if (first) first.focus({ preventScroll: true });
  });
}

/** Closes the open chooser, if any (as cancelled). */
export function closeChooser() {
  if (chooserClose) chooserClose(null);
}

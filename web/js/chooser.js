// The chooser: a small menu by the clicked cell, offering the moves that share the same clicks
// (a spin's facing, a Fighter attacking or sharing a square, which piece of a cell was meant).

import { h, cap } from './util.js';

/**
 * Opens a chooser over `wrap` (the board's container), next to `cell` of the board `svg`.
 * `options` are {label, group?, value, title?}. Returns {promise, close}: the promise gives the
 * option picked, or null when the chooser is cancelled (Escape, a click outside, the ×, or
 * `close(null)`).
 */
export function openChooser(wrap, svg, options, cell, title) {
  let close = null;
  const promise = new Promise((resolve) => {
    const box = h('div', { class: 'chooser', role: 'dialog', 'aria-label': title });
    const onKey = (ev) => {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation();
        finish(null);
      }
    };
    const onOutside = (ev) => {
      if (!box.contains(ev.target)) finish(null);
    };
    let done = false;
    function finish(v) {
      if (done) return;
      done = true;
      box.remove();
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onOutside, true);
      resolve(v);
      svg.focus({ preventScroll: true });
    }
    close = finish;
    const groups = new Map();
    for (const o of options) groups.set(o.group || '', (groups.get(o.group || '') || []).concat([o]));
    box.append(h('div', { class: 'chooser-head' }, h('span', {}, title),
      h('button', { class: 'chooser-x', type: 'button', 'aria-label': 'Cancel', onclick: () => finish(null) }, '×')));
    for (const [g, os] of groups) {
      const row = h('div', { class: 'chooser-row' });
      if (g) row.append(h('div', { class: 'chooser-group' }, cap(g)));
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
    setTimeout(() => { if (!done) document.addEventListener('pointerdown', onOutside, true); }, 0);
    const first = box.querySelector('.chooser-btn');
    if (first) first.focus({ preventScroll: true });
  });
  return { promise, close };
}

// Obsidio's drawing style: while a light-square placement waits for its second token, the first
// one is drawn see-through on the square chosen. Its drawing: influence and control tokens, the
// targets, each colour's last move, and the anchor.

import { s } from '../util.js';
import { K, stone } from './drawing.js';

/** @typedef {import('./drawing.js').GameDrawing} GameDrawing */

export default {
  ghosts(builder) {
    const g = new Map();
    const colour = builder.state && builder.state.to_move && builder.state.to_move.colour;
    if (colour && builder.sel.length) g.set(builder.sel[0], { colour, r: 0.3 });
    return g;
  },
};

const pieces = {
  token: (p) => [stone(p, 0.3)],
  control: (p) => [
    stone(p, 0.4),
    s('circle', { r: 0.27 * K, class: 'control-ring' }),
    s('circle', { r: 0.12 * K, class: 'control-core' }),
  ],
};

/** A target square: a tile with a ring. */
function square({ cell, cx, cy, x0, y0 }) {
  if (cell.shade !== 'target') return [];
  return [
    s('rect', { class: 'target-tile', x: x0 + 9, y: y0 + 9, width: K - 18, height: K - 18, rx: 12 }),
    s('circle', { class: 'target-ring', cx, cy, r: 0.27 * K }),
  ];
}

/**
 * Each colour's last move: the latest one bright, the other one faint, with a tab of the colour
 * in the corner.
 */
function lastMoves({ marks, x0, y0, view }) {
  const out = [];
  for (const m of marks) {
    if (m !== 'last-black' && m !== 'last-white') continue;
    const col = m.slice(5);
    const latest = !view.lastMover || view.lastMover === col;
    out.push(s('rect', { class: ['last', m, latest ? '' : 'last-older'], x: x0, y: y0, width: K, height: K }));
    out.push(s('path', { class: ['last-tab', `last-tab-${col}`], d: `M${x0} ${y0} h${K * 0.26} L${x0} ${y0 + K * 0.26} Z` }));
  }
  return out;
}

/** The anchor: the last token placed. */
function anchor({ marks, cx, cy }) {
  if (!marks.includes('anchor')) return [];
  return [s('g', { class: 'anchor', transform: `translate(${cx} ${cy})` },
    s('circle', { r: 0.46 * K, class: 'anchor-ring' }),
    s('path', { class: 'anchor-pin', d: 'M0 -44 L8 -34 L-8 -34 Z M0 44 L8 34 L-8 34 Z M-44 0 L-34 8 L-34 -8 Z M44 0 L34 8 L34 -8 Z' }))];
}

/** @type {GameDrawing} */
export const drawing = { pieces, square, over: lastMoves, overlay: anchor };

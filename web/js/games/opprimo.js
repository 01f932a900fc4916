// Opprimo's drawing: soldiers as small stones on the points, Officers with a star, Kings with a
// crown on their triangles, the castles' triangles and the stars where soldiers are promoted.

import { s } from '../util.js';
import { K, stone, crownSymbol } from './drawing.js';

/** @typedef {import('./drawing.js').GameDrawing} GameDrawing */

function starPath(cx, cy, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i += 1) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join(' L')} Z`;
}

function defs() {
  return [
    crownSymbol(),
    s('symbol', { id: 'sym-star', viewBox: '-50 -50 100 100' },
      s('path', { d: starPath(0, 0, 46, 19) })),
  ];
}

const pieces = {
  soldier: (p) => [stone(p, 0.27)],
  officer: (p) => [
    stone(p, 0.29),
    s('use', { href: '#sym-star', class: 'officer-star', x: -0.17 * K, y: -0.17 * K, width: 0.34 * K, height: 0.34 * K }),
  ],
  king: (p) => [
    stone(p, 0.2, 'king-disc'),
    s('use', { href: '#sym-crown', class: 'king-crown', x: -0.13 * K, y: -0.13 * K, width: 0.26 * K, height: 0.26 * K }),
  ],
};

/** @type {GameDrawing} */
export const drawing = {
  defs,
  pieces,
  // A triangle of a castle takes its side's colour.
  triangle: ({ marks }) => marks.filter((m) => m.startsWith('castle-')),
  // A point where soldiers are promoted is a star, not a dot.
  point: ({ marks, cx, cy }) => {
    const star = marks.find((m) => m.startsWith('star-'));
    return star ? s('use', { href: '#sym-star', class: ['star', star], x: cx - 0.27 * K, y: cy - 0.27 * K, width: 0.54 * K, height: 0.54 * K }) : null;
  },
};

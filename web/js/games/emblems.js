// The emblems on the start page's game cards: a drawing style per game, and a plain one for a
// game that has none. The list of games itself comes from the server's catalog.

import { s } from '../util.js';

/** The emblem of game `name` for its card on the start page. */
export function emblem(name) {
  const svg = s('svg', { class: 'emblem', viewBox: '0 0 120 90', 'aria-hidden': 'true' });
  if (name === 'sight-reduction') {
    svg.append(s('rect', { x: 30, y: 5, width: 60, height: 80, rx: 4, fill: '#c9a46c' }));
    const pat = 'WBWBBWWBBBWWWBWBBWBWWBWB';
    for (let i = 0; i < 24; i += 1) {
      const x = 37.5 + (i % 4) * 15;
      const y = 12.5 + Math.floor(i / 4) * 13;
      if (i === 9 || i === 14) continue;
      svg.append(s('circle', { cx: x, cy: y, r: 5.6, fill: pat[i] === 'W' ? 'url(#g-white)' : 'url(#g-black)' }));
    }
  } else if (name === 'obsidio') {
    svg.append(s('rect', { x: 15, y: 0, width: 90, height: 90, rx: 4, fill: '#d9d2c3' }));
    for (let r = 0; r < 5; r += 1) {
      for (let f = 0; f < 5; f += 1) {
        const x = 15 + f * 18;
        const y = r * 18;
        if (f % 2 === 1 && r % 2 === 1) {
          svg.append(s('rect', { x: x + 2, y: y + 2, width: 14, height: 14, rx: 3, fill: '#4b5d73' }));
        } else if ((f + r) % 2 === 0) svg.append(s('rect', { x, y, width: 18, height: 18, fill: '#c2b8a3' }));
      }
    }
    /** @type {[number, number, string][]} */
    const stones = [[0, 1, 'black'], [2, 1, 'white'], [1, 0, 'black'], [1, 2, 'black'], [3, 2, 'white'], [2, 3, 'white'], [4, 3, 'white']];
    for (const [f, r, c] of stones) {
      svg.append(s('circle', { cx: 15 + f * 18 + 9, cy: r * 18 + 9, r: 6, fill: `url(#g-${c})` }));
    }
    svg.append(s('circle', { cx: 15 + 3 * 18 + 9, cy: 3 * 18 + 9, r: 7.5, fill: 'url(#g-white)' }));
  } else if (name === 'opprimo') {
    const dx = 17;
    const pt = (c, r) => [18 + c * dx, 86 - r * 8];
    const g = s('g', { stroke: '#8a7a5a', 'stroke-width': 1.2 });
    for (let c = 0; c < 6; c += 1) {
      for (let r = 0; r < 10; r += 1) {
        if ((c + r) % 2 !== 1) continue;
        const [x, y] = pt(c, r);
        for (const [dc, dr] of [[0, 2], [1, 1], [-1, 1]]) {
          const c2 = c + dc;
          const r2 = r + dr;
          if (c2 >= 0 && c2 < 6 && r2 < 10) {
            const [x2, y2] = pt(c2, r2);
            g.append(s('line', { x1: x, y1: y, x2, y2 }));
          }
        }
      }
    }
    svg.append(s('rect', { x: 8, y: 0, width: 104, height: 90, rx: 4, fill: '#f3e9d2' }), g);
    for (const [c, r, col] of [[1, 0, 'yellow'], [3, 0, 'yellow'], [0, 1, 'yellow'], [2, 1, 'yellow'], [4, 1, 'yellow'], [1, 2, 'yellow'], [3, 4, 'red'], [2, 5, 'yellow'], [1, 8, 'red'], [3, 8, 'red'], [0, 9, 'red'], [2, 9, 'red'], [4, 9, 'red'], [5, 8, 'red']]) {
      const [x, y] = pt(c, r);
      svg.append(s('circle', { cx: x, cy: y, r: 5, fill: `url(#g-${col})` }));
    }
  } else if (name === 'assideum') {
    svg.append(s('rect', { x: 15, y: 0, width: 90, height: 90, rx: 4, fill: '#a9b8c9' }));
    for (let r = 0; r < 5; r += 1) {
      for (let f = 0; f < 5; f += 1) {
        if ((f + r) % 2 === 0) svg.append(s('rect', { x: 15 + f * 18, y: r * 18, width: 18, height: 18, fill: '#dfe6ee' }));
      }
    }
    svg.append(s('rect', { x: 33, y: 18, width: 54, height: 72, fill: 'rgba(255,255,255,0.35)' }));
    svg.append(s('circle', { cx: 60, cy: 81, r: 7.5, fill: 'url(#g-white)', stroke: '#333', 'stroke-width': 0.8 }));
    svg.append(s('path', { d: 'M60 68 L65 75 L55 75 Z', fill: '#1d2633' }));
    svg.append(s('use', { href: '#sym-fighter', x: 48, y: 24, width: 24, height: 24, fill: '#fff', stroke: '#1d2633', 'stroke-width': 4 }));
    svg.append(s('circle', { cx: 96, cy: 9, r: 7, fill: 'url(#g-black)' }));
    svg.append(s('use', { href: '#sym-fighter', x: 15, y: 0, width: 18, height: 18, fill: '#222', transform: 'rotate(180 24 9)' }));
  } else {
    // A game without an emblem of its own: a plain board with two stones.
    svg.append(s('rect', { x: 30, y: 15, width: 60, height: 60, rx: 4, fill: '#d9d2c3' }));
    for (let i = 1; i < 3; i += 1) {
      svg.append(s('line', { x1: 30 + i * 20, y1: 15, x2: 30 + i * 20, y2: 75, stroke: '#8a7a5a' }));
      svg.append(s('line', { x1: 30, y1: 15 + i * 20, x2: 90, y2: 15 + i * 20, stroke: '#8a7a5a' }));
    }
    svg.append(s('circle', { cx: 60, cy: 45, r: 7, fill: 'url(#g-black)' }));
    svg.append(s('circle', { cx: 40, cy: 25, r: 7, fill: 'url(#g-white)' }));
  }
  return svg;
}

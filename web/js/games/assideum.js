// assideum's drawing: lettered discs with the arrows of where they face (a crown for the
// Commander, a ring for a Portal), Fighters drawn as planes above the ground piece with a target
// of their own, the flight zones, and the Commander in siege.

import { s } from '../util.js';
import { K, pieceKey, disc, crownSymbol } from './drawing.js';

/** @typedef {import('./drawing.js').GameDrawing} GameDrawing */

function defs() {
  return [
    s('pattern', { id: 'p-zone-white', width: 16, height: 16, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      s('rect', { width: 16, height: 16, fill: 'rgba(59,130,246,0.16)' }),
      s('rect', { width: 6, height: 16, fill: 'rgba(255,255,255,0.6)' })),
    s('pattern', { id: 'p-zone-black', width: 16, height: 16, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(-45)' },
      s('rect', { width: 16, height: 16, fill: 'rgba(20,30,60,0.10)' }),
      s('rect', { width: 6, height: 16, fill: 'rgba(20,30,60,0.32)' })),
    // A Fighter: a small delta-wing jet pointing up (the start page's emblem uses it too).
    s('symbol', { id: 'sym-fighter', viewBox: '-50 -50 100 100' },
      s('path', { d: 'M0 -46 L9 -16 L9 -4 L44 18 L44 28 L9 18 L7 34 L20 44 L20 48 L0 42 L-20 48 L-20 44 L-7 34 L-9 18 L-44 28 L-44 18 L-9 -4 L-9 -16 Z' })),
    crownSymbol(),
  ];
}

const lettered = (p, at) => disc(p, at.flipped);

const pieces = {
  commander: (p, at) => disc(p, at.flipped, [s('use', { href: '#sym-crown', class: 'glyph', x: -0.22 * K, y: -0.24 * K, width: 0.44 * K, height: 0.44 * K })]),
  portal: (p, at) => disc(p, at.flipped, [
    s('circle', { r: 0.36 * K * 0.72, class: 'portal-ring' }),
    s('text', { class: 'glyph-text', y: 2 }, p.label || p.kind[0].toUpperCase()),
  ]),
  vedrin: lettered,
  striker: lettered,
  cruiser: lettered,
  ranger: lettered,
};

/**
 * Fighters: alone they fill the square; with a ground piece, landed ones sit as a badge at its
 * lower right and flying ones hover at the top right (top left for a second group).
 */
function fighters(list, { cx, cy, hasGround, flipped }) {
  const g = s('g', { class: 'fighters' });
  const spots = [];
  const groups = new Map();
  for (const p of list) {
    const key = `${p.colour}-${p.flying ? 'fly' : 'land'}`;
    groups.set(key, (groups.get(key) || []).concat([p]));
  }
  let slot = 0;
  for (const [key, ps] of groups) {
    const [col, mode] = key.split('-');
    const flying = mode === 'fly';
    let fx = cx;
    let fy = cy;
    let size = 0.56 * K;
    if (hasGround || groups.size > 1) {
      if (flying) {
        size = 0.4 * K;
        fx = cx + (slot === 0 ? 0.28 : -0.28) * K;
        fy = cy - 0.28 * K;
        slot += 1;
      } else {
        size = 0.32 * K;
        fx = cx + 0.3 * K;
        fy = cy + 0.3 * K;
      }
    }
    const up = col === 'white';
    const rot = (up ? 0 : 180) + (flipped ? 180 : 0);
    const fg = s('g', { class: ['fighter', `fighter-${col}`, flying ? 'flying' : 'landed'], transform: `translate(${fx} ${fy})`, 'data-piece': pieceKey(ps[0]) });
    fg.append(s('circle', { class: flying ? 'fighter-halo' : 'fighter-badge', r: size * 0.56 }));
    fg.append(s('use', { href: '#sym-fighter', class: 'fighter-body', x: -size / 2, y: -size / 2, width: size, height: size, transform: `rotate(${rot})` }));
    if (ps.length > 1) {
      fg.append(s('circle', { class: 'count-badge', cx: size * 0.45, cy: -size * 0.45, r: 0.11 * K }));
      fg.append(s('text', { class: 'count-text', x: size * 0.45, y: -size * 0.45 }, String(ps.length)));
    }
    g.append(fg);
    spots.push({ x: fx, y: fy, r: Math.max(size * 0.56, 0.17 * K) });
  }
  return { el: g, spots };
}

/**
 * Flight zones, as the view asks for them (`view.zones`): 'both', a colour, or {colour, portal}
 * for one Portal's own zone, with the rest of its side's zones fainter.
 */
function zones({ marks, x0, y0, view }) {
  const out = [];
  const z = view.zones;
  for (const col of ['white', 'black']) {
    if (!marks.includes(`zone-${col}`)) continue;
    /** @type {string[] | null} */
    let cls = null;
    if (z === 'both' || z === col) cls = ['zone', `zone-${col}`];
    else if (z && typeof z === 'object' && z.colour === col) {
      cls = marks.includes(`zone-of-${z.portal}`) ? ['zone', `zone-${col}`] : ['zone', `zone-${col}`, 'zone-faint'];
    }
    if (cls) out.push(s('rect', { class: cls, x: x0, y: y0, width: K, height: K }));
  }
  return out;
}

/** The Commander of the side to move, in siege. */
function siege({ marks, x0, y0 }) {
  return marks.filter((m) => m === 'siege')
    .map(() => s('rect', { class: 'siege', x: x0 + 2, y: y0 + 2, width: K - 4, height: K - 4, rx: 6 }, s('title', {}, 'in siege')));
}

/** @type {GameDrawing} */
export const drawing = {
  defs,
  pieces,
  layer: {
    name: 'fighter',
    kind: 'fighter',
    selector: '.fighter',
    title: (cell) => `Fighter on ${cell}`,
    draw: fighters,
  },
  under: zones,
  over: siege,
};

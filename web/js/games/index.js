// The games' drawing styles and drawings. The rules, the move clicks and the words come from the
// server with each position (the game's own presentation); a game's style here says how its
// page builds moves beyond that, and its drawing how its pieces and marks look (drawing.js says
// what the board asks of it). A game without an entry is drawn from its board description alone.

import obsidio, { drawing as obsidioDrawing } from './obsidio.js';
import sightReduction, { drawing as sightReductionDrawing } from './sight-reduction.js';
import { drawing as assideumDrawing } from './assideum.js';
import { drawing as opprimoDrawing } from './opprimo.js';

/** @typedef {import('./drawing.js').GameDrawing} GameDrawing */

const STYLES = {
  obsidio,
  'sight-reduction': sightReduction,
};

export function stylesFor(game) {
  return STYLES[game] || {};
}

/** Each game's drawing, by the name the state gives (`game`); their symbols install in this order. */
const DRAWINGS = new Map([
  ['assideum', assideumDrawing],
  ['opprimo', opprimoDrawing],
  ['obsidio', obsidioDrawing],
  ['sight-reduction', sightReductionDrawing],
]);

const all = [...DRAWINGS.values()];
const each = (part) => all.map((d) => d[part]).filter(Boolean);

/**
 * A board of no game named (or of one without a drawing) is drawn with every game's pieces and
 * marks, as the board description names them.
 * @type {GameDrawing}
 */
const EVERY = {
  pieces: Object.assign({}, ...each('pieces')),
  layer: each('layer')[0],
  square: (at) => each('square').flatMap((f) => f(at)),
  under: (at) => each('under').flatMap((f) => f(at)),
  over: (at) => each('over').flatMap((f) => f(at)),
  overlay: (at) => each('overlay').flatMap((f) => f(at)),
  triangle: (at) => each('triangle').flatMap((f) => f(at)),
  point: (at) => each('point').map((f) => f(at)).find(Boolean) || null,
};

/**
 * The drawing of `game`.
 * @param {string} [game]
 * @returns {GameDrawing}
 */
export function drawingFor(game) {
  return (game && DRAWINGS.get(game)) || EVERY;
}

/** Every game's symbols and patterns, each id once. */
export function gameDefs() {
  const seen = new Set();
  const out = [];
  for (const f of each('defs')) {
    for (const el of f()) {
      const id = el.getAttribute('id');
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(el);
    }
  }
  return out;
}

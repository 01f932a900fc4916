// Sight Reduction's style and drawing. It removes pieces where they stand (a pair is two clicks,
// neither piece goes anywhere): nothing to drag. Its pieces are plain stones; a solitaire game
// that must leave its last pieces on given squares marks them (`goal-white`, `goal-black`).

import { s } from '../util.js';
import { K, stone } from './drawing.js';

/** @typedef {import('./drawing.js').GameDrawing} GameDrawing */
/** @typedef {import('./drawing.js').SquarePlace} SquarePlace */

export default { drag: false };

/**
 * The dashed frame of a square where a solitaire game must leave its last piece of a colour.
 * @param {SquarePlace} at
 */
function goals({ marks, x0, y0 }) {
  return marks.filter((m) => m === 'goal-white' || m === 'goal-black')
    .map((m) => s('rect', { class: ['goal', m], x: x0 + 5, y: y0 + 5, width: K - 10, height: K - 10, rx: 10 }));
}

/** @type {GameDrawing} */
export const drawing = {
  pieces: { piece: (p) => [stone(p, 0.38)] },
  over: goals,
};

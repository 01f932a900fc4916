// Sight Reduction's style and drawing. It removes pieces where they stand (a pair is two clicks,
// neither piece goes anywhere): nothing to drag. Its pieces are plain stones.

import { stone } from './drawing.js';

/** @typedef {import('./drawing.js').GameDrawing} GameDrawing */

export default { drag: false };

/** @type {GameDrawing} */
export const drawing = {
  pieces: { piece: (p) => [stone(p, 0.38)] },
};

// What the board renderer (board.js) and the games' drawings share: the scale, the parts of a
// piece that several games draw alike, and the interface through which the board asks a game to
// draw its own pieces and marks. The board knows cells and shapes; a game's drawing knows what
// its pieces look like and what its marks mean.

import { s } from '../util.js';

/** SVG units per board unit. */
export const K = 100;

/** What a piece is, for matching where pieces went: its colour and kind. */
export const pieceKey = (p) => `${p.colour}-${p.kind}`;

/**
 * A piece of a board description.
 * @typedef {object} Piece
 * @property {string} colour
 * @property {string} kind
 * @property {string} [label] what its disc says, where not the kind's first letter
 * @property {string} [facing] n, e, s or w, as the first seat sees the board
 * @property {boolean} [promoted]
 * @property {boolean} [flying]
 */

/**
 * A square cell being drawn, for a game's marks on it.
 * @typedef {object} SquarePlace
 * @property {any} cell the cell of the board description
 * @property {string[]} marks its marks
 * @property {number} cx its centre, in SVG units
 * @property {number} cy
 * @property {number} x0 its top left corner, in SVG units
 * @property {number} y0
 * @property {any} view the board view (BoardView's `view`)
 */

/**
 * A point or triangle of a board of points being drawn.
 * @typedef {object} PointPlace
 * @property {any} cell
 * @property {string[]} marks
 * @property {number} cx its centre, in SVG units
 * @property {number} cy
 * @property {any} view
 */

/**
 * Pieces drawn above a cell's ground piece, with a target of their own beside it.
 * @typedef {object} LayerDrawing
 * @property {string} name the layer's word (the `data-layer` of its targets, as the moves name it)
 * @property {string} kind the kind of the pieces on the layer
 * @property {string} selector picks the layer's pieces out of a cell's drawing (what a drag from
 *   the layer's target carries)
 * @property {(cell: string) => string} title what the layer's own target says
 * @property {(list: Piece[], at: {cx: number, cy: number, hasGround: boolean, flipped: boolean}) =>
 *   {el: any, spots: {x: number, y: number, r: number}[]}} draw the layer's pieces on one cell, and
 *   the spots where each group of them can be clicked on its own
 */

/**
 * A game's drawing: what the board asks of it. Every part may be left out.
 * @typedef {object} GameDrawing
 * @property {() => any[]} [defs] symbols and patterns its drawing uses, installed once per
 *   document (by id: two games may share one)
 * @property {Record<string, (p: Piece, at: {flipped: boolean}) => any[]>} [pieces] the drawing
 *   of each piece kind: the children of the piece's group (a kind not listed is a lettered disc)
 * @property {LayerDrawing} [layer]
 * @property {(at: SquarePlace) => any[]} [square] drawn on a square, above its shade
 * @property {(at: SquarePlace) => any[]} [under] marks under the board's own (hint, last move)
 * @property {(at: SquarePlace) => any[]} [over] marks over the last move, under the selection
 * @property {(at: SquarePlace) => any[]} [overlay] above the pieces, under the targets
 * @property {(at: PointPlace) => string[]} [triangle] classes of a triangle
 * @property {(at: PointPlace) => any} [point] a point's own drawing in place of its dot, or null
 */

const FACING_ANGLE = { n: 0, e: 90, s: 180, w: 270 };

/**
 * A disc of the piece's colour: the arrow of where it faces, the disc, what it shows in its
 * middle (`middle`, else its label or the kind's first letter), and a bar when promoted.
 * @param {Piece} p
 * @param {boolean} flipped
 * @param {any[]} [middle]
 * @returns {any[]}
 */
export function disc(p, flipped, middle) {
  const r = 0.36 * K;
  const parts = [];
  if (p.facing) {
    let a = FACING_ANGLE[p.facing] || 0;
    if (flipped) a += 180;
    parts.push(s('path', { class: 'facing', transform: `rotate(${a})`, d: `M0 ${-r - 17} L${r * 0.62} ${-r * 0.5} L${-r * 0.62} ${-r * 0.5} Z` }));
  }
  parts.push(s('circle', { r, fill: `url(#g-${p.colour})`, class: 'stone', filter: 'url(#f-shadow)' }));
  parts.push(...(middle || [s('text', { class: 'glyph-text', y: 2 }, p.label || p.kind[0].toUpperCase())]));
  if (p.promoted) parts.push(s('path', { class: 'promoted', d: `M${-r * 0.5} ${r * 0.55} L${r * 0.5} ${r * 0.55}` }));
  return parts;
}

/**
 * A plain stone of radius `r` board units, in the colour's gradient.
 * @param {Piece} p
 * @param {number} r
 * @param {string} [cls] a class beside `stone`
 */
export function stone(p, r, cls) {
  return s('circle', { r: r * K, fill: `url(#g-${p.colour})`, class: cls ? `stone ${cls}` : 'stone', filter: 'url(#f-shadow)' });
}

/** A crown, worn by more than one game's pieces. */
export function crownSymbol() {
  return s('symbol', { id: 'sym-crown', viewBox: '-50 -50 100 100' },
    s('path', { d: 'M-38 22 L-44 -22 L-20 0 L0 -34 L20 0 L44 -22 L38 22 Z M-38 30 L38 30 L38 40 L-38 40 Z' }));
}

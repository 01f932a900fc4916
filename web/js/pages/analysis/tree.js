// The analysis board's data: the tree of moves tried, the game options as the address holds
// them, and the seat colours the evaluation bar is drawn in.

/**
 * An evaluation of GET /api/analysis (an `analysis` event), or the page's own `{error}` when
 * the computer cannot answer.
 * @typedef {object} Evaluation
 * @property {string} [error]
 * @property {number} first_score the first seat's share, 0 to 1
 * @property {string} text
 * @property {string} move the best move
 * @property {string[]} pv the best line
 * @property {boolean} [last] the search is done
 * @property {boolean} [exact] proven
 * @property {number} nodes positions searched
 * @property {string[]} [cells] the best move's cells
 */

/** A node of the tree of moves tried: the move that led here and the position it reached. */
export class Node {
  constructor(parent, move, view) {
    this.parent = parent;
    this.move = move;
    this.view = view;
    this.children = [];
    this.depth = parent ? parent.depth + 1 : 0;
  }

  path() {
    const out = [];
    for (let n = this; n.parent; n = n.parent) out.unshift(n.move);
    return out;
  }
}

/**
 * Game options as the server's query string writes them (`k=v,k=v`).
 * @param {Record<string, string>} options
 * @returns {string}
 */
export const optionsText = (options) => Object.entries(options || {}).map(([k, v]) => `${k}=${v}`).join(',');

/**
 * The game options of the address's `options` text.
 * @param {string|null} text
 * @returns {Record<string, string>}
 */
export function optionsFrom(text) {
  const out = {};
  for (const part of (text || '').split(',')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}

/**
 * The colours of the first seat and of the second in position `view` of game `info`, where known.
 * @param {any} view
 * @param {any} info
 * @returns {[string|null, string|null]}
 */
export function seatColours(view, info) {
  const t = view.to_move;
  const other = t && t.colour ? (info.colours || []).find((c) => c !== t.colour) : null;
  if (!other) return [null, null];
  return t.seat === 'first' ? [t.colour, other] : [other, t.colour];
}

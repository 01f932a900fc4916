// What a shown review knows: the review itself, its graph's sides and shares, the move shown,
// the board's way up, and the positions worked out (each once).

import { positionView } from '../../engine/index.js';

/**
 * @typedef {object} ReviewState
 * @property {any} review the review (the server's or the engine's)
 * @property {number} n the number of moves reviewed
 * @property {Record<string, string>} names the colour (or name) of each seat, for words
 * @property {(string|null)[]} sides the graph's two sides (sideScores)
 * @property {number[]} scores the share of the first side at each point
 * @property {string[]} words the sides in words
 * @property {Map<number, Promise<any>>} positions the positions asked for, by ply
 * @property {number} ply the move shown (0: the start)
 * @property {boolean} flipped
 */

/**
 * The position after `p` moves of the review, worked out once (the engine first).
 * @param {ReviewState} rs
 * @param {number} p
 * @returns {Promise<any>}
 */
export async function positionAt(rs, p) {
  const { review } = rs;
  if (!rs.positions.has(p)) {
    rs.positions.set(p, positionView({ game: review.game, options: review.option_values, position: review.start, moves: review.plies.slice(0, p).map((x) => x.move) }));
  }
  return /** @type {Promise<any>} */ (rs.positions.get(p));
}

/**
 * The analysis page's address for position `at` of the review.
 * @param {any} review
 * @param {any} at
 * @returns {string}
 */
export function analyseHref(review, at) {
  const q = new URLSearchParams({ game: review.game, position: at.position });
  const optText = Object.entries(review.option_values || {}).map(([k, v]) => `${k}=${v}`).join(',');
  if (optText) q.set('options', optText);
  return `/analysis?${q}`;
}

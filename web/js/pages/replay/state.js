// What the replay page knows: the game, the move shown, the board's way up, the timer that
// plays the moves, whether the server can give earlier positions, and the positions it gave.

/**
 * @typedef {object} ReplayState
 * @property {any} state the game as the server gave it (its final position)
 * @property {number} n the number of moves
 * @property {number} ply the move shown (0: the start)
 * @property {boolean} flipped
 * @property {number} timer the interval playing the moves; 0 when paused
 * @property {boolean} available the server can give earlier positions
 * @property {Map<number, any>} cache the positions given, by ply
 */

/**
 * The replay of game `state`, at the move the address asks for (else at the start).
 * @param {any} state
 * @param {URLSearchParams} query
 * @returns {ReplayState}
 */
export function newReplayState(state, query) {
  const n = state.moves.length;
  let ply = Math.min(n, Math.max(0, Number(query.get('ply') ?? n) || 0));
  if (query.get('ply') === null) ply = 0;
  return { state, n, ply, flipped: false, timer: 0, available: true, cache: new Map([[n, state]]) };
}

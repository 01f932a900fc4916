// Games kept in this browser: games against the computer played by the engine in the page
// (engine/index.js), with no server. Each is its start and its moves, kept in localStorage
// under one key; the engine works out everything else from them. Their ids begin `local-`, so
// a page tells them from the server's at a glance.

const KEY = 'boardlab:local-games';

/** Most games kept: past it the oldest finished ones go first. */
export const LOCAL_LIMIT = 200;

/**
 * A game kept in this browser.
 * @typedef {object} LocalGame
 * @property {string} id `local-` and 16 hex digits
 * @property {string} game the game's name
 * @property {string} title the game's title
 * @property {Record<string, string>} options the options chosen (as the catalog names them)
 * @property {number} [seed] the set-up's seed (none: 0)
 * @property {string} [position] the starting position text, if not the normal set-up
 * @property {{first: string, second: string}} seats `human` or `computer:SPEC` for each seat
 * @property {string[]} moves the moves played, in canonical notation
 * @property {'first'|'second'|null} resigned the seat that resigned
 * @property {'ongoing'|'finished'} status
 * @property {string} result the result in words, once finished ('' before)
 * @property {number} [version] counts the changes (moves, take-backs, a resignation), so that a
 *   page tells a newer state from an older one
 * @property {string} [rematch] the rematch's id, once one was started from this game
 * @property {string} created RFC 3339
 * @property {string} updated RFC 3339
 */

/** Whether `id` names a game kept in this browser. */
export function isLocal(/** @type {string} */ id) {
  return /^local-[0-9a-f]{16}$/.test(id);
}

/** A new id for a game kept here. */
export function newLocalId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `local-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** @returns {Record<string, LocalGame>} */
function readAll() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * Writes every game kept; throws an Error in words when the browser refuses (storage full or
 * turned off).
 * @param {Record<string, LocalGame>} all
 */
function writeAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (e) {
    throw new Error(`this browser did not keep the game (${(e && e.name) || e}): its storage may be full or turned off`);
  }
}

/**
 * The games kept here, the last played first.
 * @returns {LocalGame[]}
 */
export function localGames() {
  return Object.values(readAll())
    .filter((g) => g && isLocal(g.id) && Array.isArray(g.moves))
    .sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
}

/**
 * Game `id`, or null when this browser does not keep it.
 * @param {string} id
 * @returns {LocalGame|null}
 */
export function localGame(id) {
  const g = readAll()[id];
  return g && isLocal(g.id) && Array.isArray(g.moves) ? g : null;
}

/**
 * Keeps `game` (a new one, or a new state of one kept), stamping `updated`. Past
 * [LOCAL_LIMIT] games, the oldest finished ones are let go. Throws an Error in words when the
 * browser refuses.
 * @param {LocalGame} game
 */
export function keepLocal(game) {
  const all = readAll();
  all[game.id] = { ...game, updated: new Date().toISOString() };
  const finished = Object.values(all)
    .filter((g) => g.status === 'finished' && g.id !== game.id)
    .sort((a, b) => (a.updated < b.updated ? -1 : 1));
  while (Object.keys(all).length > LOCAL_LIMIT && finished.length) delete all[/** @type {LocalGame} */ (finished.shift()).id];
  writeAll(all);
}

/**
 * Forgets game `id`.
 * @param {string} id
 */
export function forgetLocal(id) {
  const all = readAll();
  delete all[id];
  writeAll(all);
}

/**
 * The position request of a game kept here: its start and the first `ply` moves (all of them
 * by default), as the engine takes it.
 * @param {LocalGame} g
 * @param {number} [ply]
 * @returns {import('../engine/index.js').PositionRequest}
 */
export function localRequest(g, ply = g.moves.length) {
  return {
    game: g.game,
    options: g.options,
    ...(g.position ? { position: g.position } : { seed: g.seed || 0 }),
    moves: g.moves.slice(0, ply),
  };
}

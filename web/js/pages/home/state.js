// What the start page knows: the catalog's games and the game being set up (from the address
// first: `game`, `mode`, `seat`, `level`, `clock` and `o.NAME` for each option). The questions
// asked of it are here too; none of them changes anything.

import { cap } from '../../util.js';

/** The computer's levels: the catalog's, once it has come. */
export const LEVELS = { min: 1, max: 10, def: 3 };

/**
 * The game being set up.
 * @typedef {object} HomePick
 * @property {string} game
 * @property {Record<string, string>} options the options that differ from the game's defaults
 * @property {string} mode 'same', 'computer' or 'online'
 * @property {number} level the computer's
 * @property {string} seat 'first', 'second' or 'random'
 * @property {string} seed a number, or '' for a random one
 * @property {string} position a start position's text, or ''
 * @property {string} clock
 */

/**
 * @typedef {object} HomeState
 * @property {any} cat the catalog
 * @property {any[]} games the catalog's games
 * @property {HomePick} pick
 */

/**
 * The state of a start page opened with catalog `cat` at an address with `query`.
 * @param {any} cat
 * @param {URLSearchParams} query
 * @returns {HomeState}
 */
export function newHomeState(cat, query) {
  const games = cat.games;
  if (cat.levels) {
    LEVELS.min = cat.levels.min ?? LEVELS.min;
    LEVELS.max = cat.levels.max ?? LEVELS.max;
    LEVELS.def = cat.levels.default ?? LEVELS.def;
  }
  /** @type {HomePick} */
  const pick = {
    game: games.some((g) => g.name === query.get('game')) ? query.get('game') : games[0].name,
    options: {},
    mode: ['same', 'computer', 'online'].includes(/** @type {string} */ (query.get('mode'))) ? /** @type {string} */ (query.get('mode')) : 'computer',
    level: 0,
    seat: ['first', 'second', 'random'].includes(/** @type {string} */ (query.get('seat'))) ? /** @type {string} */ (query.get('seat')) : 'first',
    seed: '',
    position: '',
    clock: query.get('clock') || '',
  };
  for (const [k, v] of query) if (k.startsWith('o.')) pick.options[k.slice(2)] = v;
  pick.level = Math.min(LEVELS.max, Math.max(LEVELS.min, Number(query.get('level')) || LEVELS.def));
  return { cat, games, pick };
}

/**
 * The catalog entry of the game picked.
 * @param {HomeState} hs
 */
export function info(hs) {
  return hs.games.find((g) => g.name === hs.pick.game);
}

/**
 * Whether the options make the game a solitaire (one person, on this screen).
 * @param {HomeState} hs
 */
export function solitaire(hs) {
  return hs.pick.options.mode === 'solitaire';
}

/**
 * The colour of `seat` in the game picked, or the seat where the game names no colours.
 * @param {HomeState} hs
 * @param {string} seat
 */
export function colourOf(hs, seat) {
  const g = info(hs);
  const cols = [...(g.colours || [])];
  // A game whose `first` option names the colour that moves first gives it to the first seat.
  const first = hs.pick.options.first;
  if (first && cols.includes(first)) cols.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
  return cols.length ? cap(cols[seat === 'first' ? 0 : 1]) : seat;
}

// What the lobby knows: the catalog, the challenge being written (kept between redraws of the
// form), the last listing of the open challenges and its error, and the loads in flight. The
// small questions asked of a challenge or a game are here too; none of them changes anything.

/**
 * The challenge being written in the form.
 * @typedef {object} Pick
 * @property {string} game
 * @property {Record<string, string>} options the options that differ from the game's defaults
 * @property {string} seat 'first', 'second' or 'random'
 * @property {boolean} rated
 * @property {string} clock
 * @property {string} opponent 'anyone', 'player' or 'computer'
 * @property {string} name the player challenged, for `opponent` 'player'
 * @property {number} level the computer's, for `opponent` 'computer'
 */

/**
 * @typedef {object} LobbyState
 * @property {any} cat the catalog
 * @property {Record<string, any>} infos the catalog's games by name
 * @property {{min: number, max: number, def: number}} levels the computer's levels
 * @property {Pick} pick
 * @property {boolean} closed the page has been left
 * @property {any[] | null} challenges the last listing; null until it has come
 * @property {string} listError what went wrong with the list, said above it
 * @property {Promise<void> | null} loading the listing on its way
 * @property {boolean} again another listing is wanted once this one is in
 * @property {Set<string>} withdrawn the player's challenges withdrawn here
 */

/**
 * What the lobby's parts share: its state, its elements and what redraws them.
 * @typedef {object} Lobby
 * @property {HTMLElement} root
 * @property {LobbyState} ls
 * @property {HTMLElement} list the open challenges
 * @property {HTMLElement} listNote the list's error
 * @property {HTMLElement} side the form, or the way to sign in
 * @property {() => void} drawList
 * @property {() => void} drawForm
 */

/**
 * The state of a lobby opened with catalog `cat`.
 * @param {any} cat
 * @returns {LobbyState}
 */
export function newLobbyState(cat) {
  const infos = Object.fromEntries(cat.games.map((g) => [g.name, g]));
  const levels = { min: 1, max: 10, def: 3, ...(cat.levels ? { min: cat.levels.min ?? 1, max: cat.levels.max ?? 10, def: cat.levels.default ?? 3 } : {}) };
  const pick = { game: cat.games[0].name, options: {}, seat: 'random', rated: ratedChoice.get(), clock: '', opponent: 'anyone', name: '', level: levels.def };
  return { cat, infos, levels, pick, closed: false, challenges: null, listError: '', loading: null, again: false, withdrawn: new Set() };
}

/**
 * The catalog entry of the game picked in the form.
 * @param {LobbyState} ls
 */
export function info(ls) {
  return ls.infos[ls.pick.game];
}

/**
 * Options of a game's one-person mode (a puzzle): not for a challenge.
 * @param {{ solitaire_options: string[] }} game the game in the catalog
 * @param {{ name: string }} spec one of its options
 */
export function puzzleOnly(game, spec) {
  return game.solitaire_options.includes(spec.name);
}

/** An option's value in words: on / off for switches, the value otherwise. */
function valueWords(v) {
  if (v === 'true' || v === true) return 'on';
  if (v === 'false' || v === false) return 'off';
  return String(v);
}

/**
 * The options of a challenge that differ from the game's defaults, by their labels.
 * @param {any} ch the challenge
 * @param {any} info its game in the catalog
 * @returns {{text: string, title: string}[]}
 */
export function optionsWords(ch, info) {
  const specs = (info && info.options) || [];
  const out = [];
  for (const spec of specs) {
    const v = ch.options ? ch.options[spec.name] : undefined;
    if (v === undefined || v === null || String(v) === String(spec.default)) continue;
    out.push({ text: `${spec.label || 'Option'}: ${valueWords(v)}`, title: spec.description });
  }
  return out;
}

/**
 * The colours of a game's seats, in seat order (a `first` option names the colour moving first).
 * @param {any} info the game in the catalog
 * @param {Record<string, string>} [options]
 * @returns {string[]}
 */
export function seatColours(info, options = {}) {
  const cols = [...((info && info.colours) || [])];
  const first = options.first;
  if (first && cols.includes(first)) cols.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
  return cols;
}

/** The last choice of rated or casual, kept by the browser: the next challenge starts with it. */
export const ratedChoice = {
  key: 'boardlab:lobby-rated',
  get() {
    try {
      return localStorage.getItem(this.key) === 'true';
    } catch {
      return false;
    }
  },
  /** @param {boolean} on */
  set(on) {
    try {
      localStorage.setItem(this.key, String(!!on));
    } catch {
      // without storage the choice lasts while the page is open
    }
  },
};

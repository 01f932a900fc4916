// The lobby and the server: the list of challenges loaded (one request at a time), a challenge
// accepted, withdrawn or posted, and the game looked for when the player's own was accepted.

import { cap, toast } from '../../util.js';
import { api } from '../../api.js';
import { go } from '../../nav.js';
import { refreshGames } from '../../account.js';
import { info, puzzleOnly } from './state.js';

/** @typedef {import('./state.js').Lobby} Lobby */

/**
 * Loads the challenges and draws the list; asked while a load is on its way, loads once more
 * after it.
 * @param {Lobby} lp
 */
export async function load(lp) {
  const { ls } = lp;
  if (ls.loading) {
    ls.again = true;
    return;
  }
  ls.loading = api.lobby().then((res) => {
    const before = ls.challenges || [];
    const listed = /** @type {any[]} */ (res.challenges || []);
    ls.challenges = listed;
    ls.listError = '';
    // A challenge of the player's gone without being withdrawn here was most likely accepted:
    // the live channel says so at once; if its word was missed (a reconnection), the new
    // game is looked for among the player's games.
    const now = new Set(listed.map((c) => c.id));
    for (const c of before) if (c.yours && !now.has(c.id) && !ls.withdrawn.has(c.id)) lookForGame(lp, c);
  }).catch((e) => {
    ls.listError = `Cannot load the challenges: ${e.message}`;
  }).finally(() => {
    ls.loading = null;
    if (ls.closed) return;
    lp.drawList();
    if (ls.again) {
      ls.again = false;
      load(lp);
    }
  });
}

/**
 * Goes to the game a vanished challenge `c` of the player's started, if there is one.
 * @param {Lobby} lp
 * @param {any} c
 */
function lookForGame(lp, c) {
  const { ls } = lp;
  setTimeout(async () => {
    if (ls.closed) return;
    try {
      const res = await api.myGames({ game: c.game, result: 'ongoing', limit: 10 });
      const g = res.games.find((x) => x.opponent_player === 'human' && Date.parse(x.created) >= Date.parse(c.created));
      if (g && !ls.closed) go(`/games/${g.id}`);
    } catch {
      // the list stays; the player's games are a click away
    }
  }, 2500);
}

/**
 * Accepts challenge `ch` (its button `btn`) and goes to the game.
 * @param {Lobby} lp
 * @param {any} ch
 * @param {HTMLButtonElement} btn
 */
export async function accept(lp, ch, btn) {
  const { ls } = lp;
  ls.listError = '';
  btn.disabled = true;
  btn.textContent = 'Starting…';
  try {
    const res = await api.accept(ch.id);
    refreshGames();
    go(`/games/${res.game}`);
  } catch (e) {
    ls.listError = cap(e.status === 404 ? `${e.message} (accepted by someone else, withdrawn or expired)` : e.message);
    load(lp);
    lp.drawList();
  }
}

/**
 * Withdraws the player's challenge `ch` (its button `btn`).
 * @param {Lobby} lp
 * @param {any} ch
 * @param {HTMLButtonElement} btn
 */
export async function cancel(lp, ch, btn) {
  const { ls } = lp;
  ls.listError = '';
  btn.disabled = true;
  try {
    ls.withdrawn.add(ch.id);
    await api.cancelChallenge(ch.id);
    toast('Challenge withdrawn.', 'ok');
  } catch (e) {
    ls.listError = cap(e.message);
  }
  load(lp);
}

/**
 * Posts the challenge of the form: to the game at once against the computer, to the list
 * otherwise. `err` says what went wrong; `btn` is the form's button, `label` its words.
 * @param {Lobby} lp
 * @param {HTMLElement} err
 * @param {HTMLButtonElement} btn
 * @param {string} label
 */
export async function postChallenge(lp, err, btn, label) {
  const { pick } = lp.ls;
  err.textContent = '';
  /** @type {Record<string, any>} */
  const body = { game: pick.game, options: { ...pick.options }, seat: pick.seat };
  // Options that make a puzzle are not offered; their values are left to the defaults.
  for (const spec of info(lp.ls).options) if (puzzleOnly(info(lp.ls), spec)) delete body.options[spec.name];
  if (pick.clock) body.clock = pick.clock;
  if (pick.opponent === 'computer') {
    body.opponent = `computer:level:${pick.level}`;
  } else {
    body.rated = pick.rated;
    if (pick.opponent === 'player') {
      if (!pick.name) {
        err.textContent = 'Enter the name of the player to challenge.';
        /** @type {HTMLElement} */ (lp.side.querySelector('#lobby-opponent-name')).focus();
        return;
      }
      body.opponent = pick.name;
    }
  }
  btn.disabled = true;
  btn.textContent = pick.opponent === 'computer' ? 'Starting…' : 'Posting…';
  try {
    const res = await api.challenge(body);
    if (res.game) {
      refreshGames();
      go(`/games/${res.game}`);
      return;
    }
    toast(pick.opponent === 'player' ? `Challenge sent to ${pick.name}.` : 'Challenge posted: it waits for an opponent here.', 'ok');
    btn.disabled = false;
    btn.textContent = label;
    load(lp);
  } catch (e) {
    err.textContent = cap(e.message);
    btn.disabled = false;
    btn.textContent = label;
  }
}

/**
 * The lobby's live channel: every change, and every (re)connection, loads the list again.
 * Null where the browser has none.
 * @param {Lobby} lp
 * @returns {EventSource | null}
 */
export function openLive(lp) {
  if (typeof EventSource !== 'function') return null;
  const source = new EventSource('/api/lobby/live');
  // `hello` on every (re)connection: what changed meanwhile is fetched then.
  source.addEventListener('hello', () => load(lp));
  source.addEventListener('lobby', () => load(lp));
  return source;
}

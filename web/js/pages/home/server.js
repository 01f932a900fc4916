// The start page and the server: the game set up is created (and claimed for the account),
// and the recent games are fetched (with those kept in this browser).

import { mount } from '../../util.js';
import { api, seats } from '../../api.js';
import { go } from '../../nav.js';
import { accountName, claimGame } from '../../account.js';
import { engineAvailable, engineGame, EngineUnavailable } from '../../engine/index.js';
import { newLocalId, keepLocal, localRequest } from '../../local/games.js';
import { solitaire, info } from './state.js';
import { recentView } from './views.js';
import { localRows } from '../gamerows.js';
import { localGames } from '../../local/games.js';

/** @typedef {import('./state.js').HomeState} HomeState */

/**
 * Creates the game set up and goes to it. `err` says what went wrong; `btn` is the start
 * button.
 * @param {HomeState} hs
 * @param {HTMLElement} err
 * @param {HTMLButtonElement} btn
 */
export async function create(hs, err, btn) {
  const { pick } = hs;
  err.textContent = '';
  const mode = solitaire(hs) ? 'same' : pick.mode;
  let mySeat = pick.seat === 'random' ? (Math.random() < 0.5 ? 'first' : 'second') : pick.seat;
  /** @type {Record<string, any>} */
  const body = { game: pick.game, options: { ...pick.options }, seats: { first: 'human', second: 'human' } };
  if (mode === 'same') body.same_screen = true;
  if (mode === 'computer') body.seats[mySeat === 'first' ? 'second' : 'first'] = `computer:level:${pick.level}`;
  if (pick.seed !== '') body.seed = Number(pick.seed);
  if (pick.position) body.position = pick.position;
  if (pick.clock && mode !== 'same') body.clock = pick.clock;
  btn.disabled = true;
  btn.textContent = 'Starting…';
  // Against the computer with no clock, the game is played in this browser by the engine.
  // (Where the engine's files do not load, the server plays instead.)
  if (mode === 'computer' && !body.clock && engineAvailable() && await createLocal(hs, body, err, btn)) return;
  try {
    const res = await api.create(body);
    /** @type {Record<string, any>} */
    const tokens = {};
    if (mode === 'online') {
      tokens[mySeat] = res.tokens[mySeat];
      const other = mySeat === 'first' ? 'second' : 'first';
      tokens.invite = { seat: other, token: res.tokens[other] };
    } else {
      Object.assign(tokens, res.tokens);
    }
    seats.set(res.id, tokens);
    // Signed in: the seats this browser keeps become the account's (never the invite's).
    if (accountName()) {
      btn.textContent = 'Adding to your games…';
      await claimGame(res.id, tokens);
    }
    go(`/games/${res.id}`);
  } catch (e) {
    err.textContent = e.message;
    btn.disabled = false;
    btn.textContent = 'Start game';
  }
}

/** A random set-up seed for a game kept here (small enough for JavaScript's numbers). */
function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/**
 * Starts a game against the computer kept in this browser (no server), from the `body` the
 * server would have been sent, and goes to it. The engine checks the set-up first. Returns
 * false when the engine cannot run here (nothing was done), else true.
 * @param {HomeState} hs
 * @param {Record<string, any>} body
 * @param {HTMLElement} err
 * @param {HTMLButtonElement} btn
 * @returns {Promise<boolean>}
 */
async function createLocal(hs, body, err, btn) {
  const now = new Date().toISOString();
  /** @type {import('../../local/games.js').LocalGame} */
  const g = {
    id: newLocalId(), game: body.game, title: (info(hs) && info(hs).title) || body.game, options: body.options,
    seats: body.seats, moves: [], resigned: null, status: 'ongoing', result: '', created: now, updated: now, version: 0,
  };
  if (body.position) g.position = body.position;
  else g.seed = body.seed !== undefined ? body.seed : randomSeed();
  try {
    await engineGame(localRequest(g));
    keepLocal(g);
    go(`/games/${g.id}`);
  } catch (e) {
    if (e instanceof EngineUnavailable) return false;
    err.textContent = e.message || String(e);
    btn.disabled = false;
    btn.textContent = 'Start game';
  }
  return true;
}

/**
 * Fetches the recent games and shows them in `recent`, with the games kept in this browser
 * among them (nothing when there are none, or they cannot be had).
 * @param {HomeState} hs
 * @param {HTMLElement} recent
 */
export async function loadRecent(hs, recent) {
  const mine = new Set(seats.mine());
  const [listed, kept] = await Promise.all([
    api.list({ limit: 8 }).then((r) => r.games).catch(() => []),
    localRows(localGames().slice(0, 8)).catch(() => []),
  ]);
  const list = [...kept, ...listed].sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0)).slice(0, 8);
  if (!list.length) {
    mount(recent);
    return;
  }
  mount(recent, ...recentView(hs, list, mine));
}

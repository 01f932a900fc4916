// A game against the computer kept in this browser (local/games.js): no server holds it. Its
// start and moves are read from the browser's storage and the engine (engine/index.js) works
// out the rest; the state it makes has the shape the server sends, so the page draws it as it
// draws any game. This browser holds the person's seat; the engine plays the computer's.

import { engineGame, engineMove, engineHint, enginePosition, engineRecord } from '../../engine/index.js';
import { localGame, keepLocal, localRequest, newLocalId } from '../../local/games.js';
import { go } from '../../nav.js';
import { toast } from '../../util.js';
import { computerOf } from '../shared.js';
import { setFeedback, canMove, whyNot, sync } from './state.js';
import { receive, viewAt, showHint } from './connection.js';

/** @typedef {import('../../local/games.js').LocalGame} LocalGame */
/** @typedef {import('./state.js').Page} Page */

/** The other seat. */
const other = (/** @type {string} */ seat) => (seat === 'first' ? 'second' : 'first');

/**
 * The seat this browser plays in `g` (the one that is not the computer's).
 * @param {LocalGame} g
 * @returns {'first'|'second'}
 */
export function humanSeat(g) {
  return g.seats.first === 'human' ? 'first' : 'second';
}

/**
 * The game's state as the server would send it, from the engine's view of it.
 * @param {LocalGame} g
 * @param {{view: any, seats: {first: string|null, second: string|null, moves: string[]}}} worked what engineGame answered
 * @returns {any}
 */
export function stateOf(g, { view, seats }) {
  const seatView = (/** @type {'first'|'second'} */ seat) => {
    const computer = computerOf(g.seats[seat]);
    return { player: g.seats[seat], kind: computer ? 'computer' : 'human', computer, colour: seats[seat], joined: false, account: null };
  };
  const over = !!view.result;
  const tm = view.to_move;
  return {
    id: g.id, game: g.game, title: g.title, options: view.options || g.options, seed: g.seed || 0,
    start_position: g.position || null,
    seats: { first: seatView('first'), second: seatView('second') },
    same_screen: false, solitaire: !!view.solitaire, rated: false, clock: null,
    version: g.version || 0,
    status: over ? 'finished' : 'ongoing',
    to_move: !over && tm ? { seat: tm.seat, colour: tm.colour, computer: g.seats[tm.seat] !== 'human' } : null,
    legal_moves: over ? [] : view.legal_moves,
    moves: view.moves.map((/** @type {string} */ move, /** @type {number} */ i) => ({ ply: i + 1, seat: seats.moves[i], move })),
    result: view.result || null,
    draw_offer: null, undo_request: null, declined: null, rematch_offer: null, rematch_rated: false,
    rematch: g.rematch || null,
    position: view.position, diagram: view.diagram, board: view.board, interaction: view.interaction,
    last_cells: view.last_cells || [], created: g.created, updated: g.updated,
  };
}

/**
 * Game `id` from this browser's storage with its state worked out, or an Error in words.
 * @param {string} id
 * @returns {Promise<any>}
 */
export async function loadLocal(id) {
  const g = localGame(id);
  if (!g) {
    const e = /** @type {Error & {status?: number}} */ (new Error('This game is not kept in this browser: games against the computer stay on the device they were played on.'));
    e.status = 404;
    throw e;
  }
  return stateOf(g, await engineGame(localRequest(g), g.resigned));
}

/**
 * Works out `next` (a change of game `g`: new moves, a resignation), keeps it and draws it.
 * Nothing is kept when the engine refuses or the browser's storage does: the message is told.
 * @param {Page} pg
 * @param {LocalGame} next
 * @returns {Promise<boolean>} whether it was kept
 */
async function commit(pg, next) {
  const { ps } = pg;
  let state;
  try {
    const worked = await engineGame(localRequest(next), next.resigned);
    // The moves as the engine writes them (a move typed in capitals is kept in its notation).
    next.moves = worked.view.moves;
    next.version = (next.version || 0) + 1;
    next.status = worked.view.result ? 'finished' : 'ongoing';
    next.result = worked.view.result ? worked.view.result.text : '';
    keepLocal(next);
    state = stateOf(/** @type {LocalGame} */ (localGame(next.id)), worked);
  } catch (e) {
    if (ps.closed) return false;
    setFeedback(ps, e.message || String(e), 'error');
    sync(pg);
    pg.render();
    return false;
  }
  if (ps.closed) return true;
  setFeedback(ps, '');
  receive(pg, state);
  return true;
}

/**
 * The game as kept now, or null (with a word on the page) when it is gone from the storage.
 * @param {Page} pg
 * @returns {LocalGame|null}
 */
function current(pg) {
  const g = localGame(pg.id);
  if (!g) {
    setFeedback(pg.ps, 'This game is no longer kept in this browser.', 'error');
    pg.render();
  }
  return g;
}

/**
 * The computer's turn: the engine is asked for its move, which is kept and drawn. An answer
 * that comes after the page was left, or after the game changed (a take-back), is let go.
 * @param {Page} pg
 */
export async function computerTurn(pg) {
  const { ps } = pg;
  const state = ps.state;
  if (!state || state.status !== 'ongoing' || !state.to_move || !state.to_move.computer) return;
  const g = current(pg);
  if (!g) return;
  const version = g.version || 0;
  const spec = g.seats[state.to_move.seat].slice('computer:'.length);
  let move;
  try {
    move = await engineMove(localRequest(g), spec, (g.seed || 0) + g.moves.length);
  } catch (e) {
    if (ps.closed) return;
    setFeedback(ps, `The computer could not move: ${e.message || e}`, 'error');
    pg.render();
    return;
  }
  const now = localGame(pg.id);
  if (ps.closed || !now || (now.version || 0) !== version) return;
  await commit(pg, { ...now, moves: [...now.moves, move] });
  if (!ps.closed) computerTurn(pg);
}

/**
 * Plays the person's `move` (from the board, its buttons or typed); `played` runs once it was
 * kept. An illegal move changes nothing: the engine's words say why.
 * @param {Page} pg
 * @param {string} move
 * @param {() => void} [played]
 */
async function playMine(pg, move, played) {
  const { ps } = pg;
  const g = current(pg);
  if (!g) return;
  ps.busy = true;
  setFeedback(ps, `Playing ${move}…`, 'pending');
  sync(pg, false);
  pg.render();
  const kept = await commit(pg, { ...g, moves: [...g.moves, move] });
  ps.busy = false;
  if (kept && played) played();
  sync(pg);
  pg.render();
  if (kept) computerTurn(pg);
}

/**
 * Plays `move` from the board or its buttons.
 * @param {Page} pg
 * @param {string} move
 */
export async function sendLocal(pg, move) {
  if (!canMove(pg.ps)) return;
  await playMine(pg, move);
}

/**
 * Plays the move typed in notation.
 * @param {Page} pg
 */
export async function submitTypedLocal(pg) {
  const { ps } = pg;
  const input = /** @type {HTMLInputElement} */ (pg.el.typedInput);
  const text = input.value.trim();
  if (!text) return;
  if (!canMove(ps)) {
    setFeedback(ps, whyNot(ps), 'error');
    pg.render();
    return;
  }
  await playMine(pg, text, () => {
    input.value = '';
  });
}

/**
 * Takes back the person's last move and the computer's reply to it, at once.
 * @param {Page} pg
 */
async function takeBack(pg) {
  const g = current(pg);
  if (!g) return;
  const mine = humanSeat(g);
  const seats = pg.ps.state.moves.map((/** @type {{seat: string}} */ m) => m.seat);
  const last = seats.lastIndexOf(mine);
  if (last < 0) return;
  if (await commit(pg, { ...g, moves: g.moves.slice(0, last) })) computerTurn(pg);
}

/**
 * A new game kept here like `g`, with the colours swapped, and goes to it.
 * @param {Page} pg
 * @param {LocalGame} g
 */
function rematch(pg, g) {
  if (g.rematch && localGame(g.rematch)) {
    go(`/games/${g.rematch}`);
    return;
  }
  const now = new Date().toISOString();
  /** @type {LocalGame} */
  const next = {
    id: newLocalId(), game: g.game, title: g.title, options: g.options,
    seats: { first: g.seats.second, second: g.seats.first },
    moves: [], resigned: null, status: 'ongoing', result: '', created: now, updated: now, version: 0,
  };
  if (g.position) next.position = g.position;
  else next.seed = crypto.getRandomValues(new Uint32Array(1))[0];
  try {
    keepLocal(next);
    keepLocal({ ...g, rematch: next.id });
  } catch (e) {
    setFeedback(pg.ps, e.message || String(e), 'error');
    pg.render();
    return;
  }
  toast('The rematch starts: colours swapped.');
  go(`/games/${next.id}`);
}

/**
 * Resigns, takes back or starts a rematch (draw offers have no place against the computer).
 * @param {Page} pg
 * @param {string} kind
 */
export async function actionLocal(pg, kind) {
  const g = current(pg);
  if (!g) return;
  if (kind === 'resign') {
    if (g.status === 'ongoing') await commit(pg, { ...g, resigned: humanSeat(g) });
  } else if (kind === 'undo') await takeBack(pg);
  else if (kind === 'rematch') rematch(pg, g);
}

/**
 * Shows the position after `ply` moves, worked out by the engine.
 * @param {Page} pg
 * @param {number|null} ply
 */
export function viewAtLocal(pg, ply) {
  return viewAt(pg, ply, async (p, n) => {
    const g = localGame(p.id);
    if (!g) throw new Error('the game is no longer kept in this browser');
    return enginePosition(localRequest(g, n));
  });
}

/**
 * A suggested move from the engine, from the game's start and moves.
 * @param {Page} pg
 */
export function showHintLocal(pg) {
  return showHint(pg, async (p) => {
    const g = localGame(p.id);
    if (!g) throw new Error('the game is no longer kept in this browser');
    return engineHint(localRequest(g), p.ps.state.version);
  });
}

/**
 * Downloads the game's record, made by the engine: `pgn` the text form, `json` the other.
 * @param {Page} pg
 * @param {'pgn'|'json'} format
 */
export async function downloadLocal(pg, format) {
  const g = localGame(pg.id);
  if (!g) return;
  try {
    const text = await engineRecord(localRequest(g), g.resigned, {
      first: g.seats.first, second: g.seats.second, started: g.created,
      ...(g.status === 'finished' ? { finished: g.updated } : {}),
      format: format === 'json' ? 'json' : 'text',
    });
    const blob = new Blob([text], { type: format === 'json' ? 'application/json' : 'text/plain' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `boardlab-${g.game}-${g.id}.${format}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    setFeedback(pg.ps, `Cannot make the record: ${e.message || e}`, 'error');
    pg.render();
  }
}

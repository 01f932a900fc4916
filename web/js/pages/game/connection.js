// The game page and the server: invite links, moves and offers sent, errors told, earlier
// positions and hints fetched, and the live channel that brings the other player's moves.

import { engineAvailable, engineHint, EngineUnavailable } from '../../engine/index.js';
import { toast } from '../../util.js';
import { go } from '../../nav.js';
import { moveSound } from '../../sound.js';
import { api, seats, ApiError } from '../../api.js';
import { closeChooser } from '../../chooser.js';
import { LiveGame } from '../../live.js';
import { accountName, claimGame } from '../../account.js';
import { apply, saveSeen, setFeedback, canMove, whyNot, actingSeat, mySeats, sync } from './state.js';

/** A seat token: 128 random bits as 32 lower-case hex digits. */
function newToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Opens `#join=SEAT.TOKEN` (an invite link) and hides it: the server exchanges the link's token
 * for this browser's own, once. Returns what to tell the player, or null without a link.
 * @param {string} id the game
 * @returns {Promise<{kind: string, text: string}|null>}
 */
export async function takeInvite(id) {
  const m = /^#join=(first|second)\.([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return null;
  history.replaceState(null, '', location.pathname + location.search);
  const held = seats.get(id);
  if (held.invite && held.invite.token === m[2]) {
    return { kind: 'error', text: 'This is your own invite link: send it to your opponent. You keep your seat.' };
  }
  if (held[m[1]]) return { kind: 'ok', text: 'You already hold this seat.' };
  try {
    // The new token is made here, so a join whose answer is lost can be sent again.
    const body = { token: m[2], new_token: newToken() };
    let joined;
    try {
      joined = await api.join(id, body);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'network') throw e;
      joined = await api.join(id, body);
    }
    seats.add(id, joined.seat, joined.token);
    // Signed in: the seat becomes the account's, so it can be played from any browser.
    if (accountName()) await claimGame(id, { [joined.seat]: joined.token });
    return { kind: 'ok', text: `You joined the game${joined.state.seats[joined.seat].colour ? ` as ${joined.state.seats[joined.seat].colour}` : ''}.` };
  } catch (e) {
    if (e.code === 'invite_used') return { kind: 'error', text: 'This invite link has already been used: the seat is taken. You can watch the game.' };
    return { kind: 'error', text: `Cannot join: ${e.message}` };
  }
}

/**
 * Takes in a game state from the server (an answer or the live channel) and redraws.
 * @param {import('./state.js').Page} pg
 * @param {any} next
 */
export function receive(pg, next) {
  const { ps, root } = pg;
  const done = apply(ps, next);
  if (done.kind !== 'state') return;
  const state = ps.state;
  root.dataset.version = String(state.version);
  root.dataset.status = state.status;
  if (done.changed) {
    if (done.movedOn && state.moves.length > 0) moveSound();
    closeChooser();
  }
  sync(pg);
  pg.render();
  if (done.rematchNow && mySeats(ps).length) {
    toast('The rematch starts: colours swapped.');
    followRematch(pg);
  }
}

/**
 * Keeps this browser's seats in the rematch (the seats swap) and opens it.
 * @param {import('./state.js').Page} pg
 */
export function followRematch(pg) {
  const { ps } = pg;
  if (!ps.state.rematch) return;
  // A seat played by the account alone needs nothing here: the server keeps the accounts.
  for (const seat of mySeats(ps)) if (ps.tokens[seat]) seats.add(ps.state.rematch, seat === 'first' ? 'second' : 'first', ps.tokens[seat]);
  go(`/games/${ps.state.rematch}`);
}

/**
 * Asks the server for the game again.
 * @param {import('./state.js').Page} pg
 */
export async function refresh(pg) {
  try {
    receive(pg, await api.game(pg.id));
  } catch (e) {
    if (e.status === 404) throw e;
    setFeedback(pg.ps, e.message, 'error');
    pg.render();
  }
}

/** After a request: a newer state may have come over the live connection meanwhile. */
function settle(pg) {
  sync(pg);
  pg.render();
}

async function handleError(pg, e) {
  const { ps } = pg;
  if (e instanceof ApiError && e.status === 409 && e.code === 'stale_version') {
    await refresh(pg);
    setFeedback(ps, 'The game moved on meanwhile; here is the current position.', 'error');
  } else if (e instanceof ApiError && e.status === 403) {
    setFeedback(ps, `${e.message} — this browser does not hold that seat.`, 'error');
  } else {
    setFeedback(ps, e.message || String(e), 'error');
  }
  sync(pg);
  pg.render();
}

/**
 * Plays `move` (from the board or its buttons).
 * @param {import('./state.js').Page} pg
 * @param {string} move
 */
export async function send(pg, move) {
  const { ps } = pg;
  if (!canMove(ps)) return;
  const seat = ps.state.to_move.seat;
  ps.busy = true;
  setFeedback(ps, `Playing ${move}…`, 'pending');
  sync(pg, false);
  pg.render();
  await postMove(pg, move, seat);
}

/**
 * Sends `move` for `seat` at the version shown and takes in the answer; `played` runs once
 * the server accepted it.
 * @param {import('./state.js').Page} pg
 * @param {string} move
 * @param {string} seat
 * @param {() => void} [played]
 */
async function postMove(pg, move, seat, played) {
  const { ps } = pg;
  try {
    // Without the seat's token (a seat of the account) none is sent: the session speaks.
    const next = await api.move(pg.id, { move, token: ps.tokens[seat], version: ps.state.version });
    ps.busy = false;
    if (played) played();
    setFeedback(ps, '');
    receive(pg, next);
    settle(pg);
  } catch (e) {
    ps.busy = false;
    await handleError(pg, e);
  }
}

/**
 * Plays the move typed in notation.
 * @param {import('./state.js').Page} pg
 */
export async function submitTyped(pg) {
  const { ps } = pg;
  const input = /** @type {HTMLInputElement} */ (pg.el.typedInput);
  const text = input.value.trim();
  if (!text) return;
  if (!ps.state || ps.state.status !== 'ongoing') {
    setFeedback(ps, 'The game is over.', 'error');
    pg.render();
    return;
  }
  if (!canMove(ps)) {
    setFeedback(ps, whyNot(ps), 'error');
    pg.render();
    return;
  }
  const seat = ps.state.to_move.seat;
  ps.busy = true;
  pg.render();
  await postMove(pg, text, seat, () => {
    input.value = '';
  });
}

/**
 * Resigns, or offers, answers or withdraws a draw, an undo or a rematch.
 * @param {import('./state.js').Page} pg
 * @param {string} kind
 * @param {string} [act]
 * @param {object} [extra] more of the body
 */
export async function action(pg, kind, act, extra = {}) {
  const { ps, id } = pg;
  const seat = actingSeat(ps);
  if (!seat) return;
  try {
    let next;
    const body = { token: ps.tokens[seat], version: ps.state.version };
    if (kind === 'resign') next = await api.resign(id, body);
    else if (kind === 'draw') next = await api.draw(id, { ...body, action: act });
    else if (kind === 'rematch') next = await api.rematch(id, { ...body, action: act, ...extra });
    else next = await api.undo(id, { ...body, action: act });
    setFeedback(ps, '');
    receive(pg, next);
  } catch (e) {
    await handleError(pg, e);
  }
}

/**
 * Shows the position after `ply` moves (null or the last: the game itself), fetched once (by
 * `fetchAt`: from the server, unless the game is kept in this browser).
 * @param {import('./state.js').Page} pg
 * @param {number|null} ply
 * @param {(pg: import('./state.js').Page, ply: number) => Promise<any>} [fetchAt]
 */
export async function viewAt(pg, ply, fetchAt = (p, n) => api.at(p.id, n)) {
  const { ps } = pg;
  if (!ps.state) return;
  const n = ps.state.moves.length;
  if (ply === null || ply >= n) {
    ps.viewPly = null;
    ps.viewed = null;
    sync(pg);
    pg.render();
    return;
  }
  ply = Math.max(0, ply);
  const key = `${ply}:${ps.state.moves.slice(0, ply).map((m) => m.move).join(' ')}`;
  ps.viewPly = ply;
  sync(pg, false);
  if (ps.atCache.has(key)) {
    ps.viewed = ps.atCache.get(key);
    pg.render();
    return;
  }
  pg.render();
  try {
    const at = await fetchAt(pg, ply);
    ps.atCache.set(key, at);
    if (ps.viewPly === ply) {
      ps.viewed = at;
      pg.render();
    }
  } catch (e) {
    ps.viewPly = null;
    ps.viewed = null;
    sync(pg);
    setFeedback(ps, `Cannot show that position: ${e.message}`, 'error');
    pg.render();
  }
}

/**
 * A suggested move for the position of the game shown: worked out in this browser by the
 * engine, or by the server where the browser cannot run the engine. The page offers hints only
 * where the server would (on one screen, in puzzles and against the computer).
 * @param {import('./state.js').Page} pg
 */
async function askHint(pg) {
  const { state } = pg.ps;
  if (!engineAvailable()) return api.hint(pg.id);
  // From the game's start and moves where the start is known here, so that its history
  // counts; a set-up seed is no use (JavaScript's numbers do not hold 64 bits), so otherwise
  // from the position text.
  const request = state.start_position
    ? { game: state.game, options: state.options, position: state.start_position, moves: state.moves.map((/** @type {{move: string}} */ m) => m.move) }
    : { game: state.game, options: state.options, position: state.position };
  try {
    return await engineHint(request, state.version);
  } catch (e) {
    if (e instanceof EngineUnavailable) return api.hint(pg.id);
    throw e;
  }
}

/**
 * Asks the computer for a move (by `ask`: the server's hint or the engine's) and marks it on
 * the board.
 * @param {import('./state.js').Page} pg
 * @param {(pg: import('./state.js').Page) => Promise<any>} [ask]
 */
export async function showHint(pg, ask = askHint) {
  const { ps } = pg;
  const version = ps.state.version;
  ps.hintBusy = true;
  pg.render();
  try {
    const hint = await ask(pg);
    if (ps.state.version !== version) return;
    const what = hint.text ? ` — ${hint.text}` : '';
    setFeedback(ps, `Hint: ${hint.move}${what}`, 'advice');
    const cells = pg.builder.cellsOf(hint.move);
    ps.hintShown = { version, cells: new Set(cells), move: hint.move };
  } catch (e) {
    if (e.status === 404) ps.hintAvailable = false;
    setFeedback(ps, e.status === 404 ? 'Hints are not available on this server.' : e.message, 'error');
  } finally {
    ps.hintBusy = false;
    pg.render();
  }
}

/**
 * Opens the live channel: states, the connection's ups and downs, and who has the game open.
 * @param {import('./state.js').Page} pg
 * @returns {LiveGame}
 */
export function openLive(pg) {
  const { ps } = pg;
  return new LiveGame(pg.id, (st) => receive(pg, st), (status) => {
    apply(ps, { type: 'connection', status });
    pg.render();
  }, {
    tokens: () => [ps.tokens.first, ps.tokens.second],
    onPresence: (p) => {
      apply(ps, { type: 'presence', presence: p });
      saveSeen(ps);
      pg.render();
    },
  });
}

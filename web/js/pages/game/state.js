// What the game page knows: the game as the server last sent it, the position shown, who this
// browser plays, the last message and the small switches of the page. One reducer, `apply`,
// takes in what the server sends; the rest asks questions of the state and changes nothing.

import { cap } from '../../util.js';
import { sameName, accountName } from '../../account.js';

/**
 * @typedef {object} PageState
 * @property {string} id the game
 * @property {any} state the game as the server last sent it; null until it has come
 * @property {any} info the game's catalog entry (its options, colours, notation), or null
 * @property {Map<string, import('../../api.js').FactInfo>} facts what the catalog says of each
 *   fact a board may show (empty until it has come)
 * @property {any} tokens the seat tokens this browser holds: `{first?, second?, invite?}`
 * @property {number|null} viewPly the earlier position shown; null: the current one
 * @property {any} viewed the earlier position shown, once it has come
 * @property {{first?: boolean, second?: boolean}|null} presence which seats have the game open now
 * @property {string} seenKey where the seats seen here are kept by the browser
 * @property {Set<string>} seenHere the seats seen with the game open at some time
 * @property {boolean|null} flipped null: automatic
 * @property {'connecting'|'live'|'offline'} connection the live channel
 * @property {boolean} busy a move is on its way
 * @property {boolean} bannerClosed
 * @property {{text: string, kind: string}} feedback the message under the board
 * @property {string|null} flash the cell flashed after a refused click
 * @property {boolean|null} hintAvailable
 * @property {{version: number, cells: Set<string>, move: string}|null} hintShown
 * @property {boolean} hintBusy
 * @property {boolean} showZones
 * @property {boolean} closed the page has been left
 * @property {number} receivedAt when the state in hand was received (its clocks are as of then)
 * @property {number} flagAsked the version already asked again after a clock ran out
 * @property {Map<string, any>} atCache earlier positions, by ply and the moves before
 * @property {boolean} local the game is kept in this browser and played against the engine
 *   here (local.js): no server, no live channel
 */

/**
 * What the parts of the page share: its state, its elements, the board, the move builder and
 * what the buttons do.
 * @typedef {object} Page
 * @property {string} id
 * @property {HTMLElement} root
 * @property {PageState} ps
 * @property {Record<string, HTMLElement>} el
 * @property {import('../../board.js').BoardView} boardView
 * @property {import('../../interact.js').MoveBuilder} builder
 * @property {import('../../legend.js').Legend} legend
 * @property {any} styles the game's drawing styles
 * @property {Record<string, HTMLElement|null>} clockEls the clocks of the player bars
 * @property {number} tickTimer the next clock update
 * @property {Actions} on
 * @property {() => void} render
 */

/**
 * What the controls of the page do.
 * @typedef {object} Actions
 * @property {(ply: number|null) => Promise<void>} viewAt show an earlier position (null: the game)
 * @property {(kind: string, act?: string, extra?: object) => Promise<void>} action resign, draw, undo, rematch
 * @property {() => void} followRematch
 * @property {() => Promise<void>} showHint
 * @property {() => Promise<void>} submitTyped
 * @property {() => void} flip
 * @property {() => void} toggleZones
 * @property {() => void} closeBanner
 * @property {(format: 'pgn'|'json') => void} [download] makes and downloads the record (a game
 *   kept in this browser; the server's are links)
 */

/**
 * What a message changed: `kind` 'ignored' for an older state than the one in hand.
 * @typedef {object} Applied
 * @property {'state'|'presence'|'connection'|'ignored'} kind
 * @property {boolean} [changed] a new version
 * @property {boolean} [movedOn] the number of moves changed
 * @property {any} [rematchNow] a rematch was agreed by this state
 */

/** The seats seen with the game open, as kept under `key` ([] when none or unreadable). */
function readSeen(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || '[]');
    return Array.isArray(v) ? v.filter((x) => x === 'first' || x === 'second') : [];
  } catch {
    return [];
  }
}

/**
 * The state of a game page before the game has come.
 * @param {string} id
 * @param {any} tokens the seat tokens this browser holds
 * @returns {PageState}
 */
export function newPageState(id, tokens) {
  // The seats seen here at some time, kept by the browser: a seat once joined is never shown
  // as "not joined yet" again, even after a reload.
  const seenKey = `boardlab:seen:${id}`;
  return {
    id, state: null, info: null, facts: new Map(), tokens, viewPly: null, viewed: null, presence: null,
    seenKey, seenHere: new Set(readSeen(seenKey)), flipped: null, connection: 'connecting',
    busy: false, bannerClosed: false, feedback: { text: '', kind: '' }, flash: null,
    hintAvailable: null, hintShown: null, hintBusy: false, showZones: false, closed: false,
    receivedAt: 0, flagAsked: -1, atCache: new Map(), local: false,
  };
}

/**
 * Keeps the seats seen here in the browser's storage.
 * @param {PageState} ps
 */
export function saveSeen(ps) {
  try {
    if (ps.seenHere.size) localStorage.setItem(ps.seenKey, JSON.stringify([...ps.seenHere]));
  } catch {
    // without storage the page still remembers while it is open
  }
}

/**
 * Takes in a message: a game state (from a request, or `{type: 'state', state}` from the live
 * channel), `{type: 'presence', presence}` or `{type: 'connection', status}`. An older state than
 * the one in hand is ignored.
 * @param {PageState} ps
 * @param {any} msg
 * @returns {Applied}
 */
export function apply(ps, msg) {
  if (msg && msg.type === 'presence') {
    ps.presence = msg.presence;
    for (const seat of ['first', 'second']) if (msg.presence[seat]) ps.seenHere.add(seat);
    return { kind: 'presence' };
  }
  if (msg && msg.type === 'connection') {
    ps.connection = msg.status;
    return { kind: 'connection' };
  }
  const next = msg && msg.type === 'state' ? msg.state : msg;
  const state = ps.state;
  if (!next || (state && next.id === state.id && next.version < state.version)) return { kind: 'ignored' };
  const changed = !state || next.version !== state.version;
  // A rematch agreed while this page is open: both players go to it.
  const rematchNow = state && !state.rematch && next.rematch;
  const movedOn = !!state && next.moves.length !== state.moves.length;
  ps.state = next;
  ps.receivedAt = performance.now();
  if (changed) {
    if (ps.viewPly !== null && ps.viewPly > next.moves.length) {
      ps.viewPly = null;
      ps.viewed = null;
    }
    if (movedOn) setFeedback(ps, '');
    if (next.status === 'ongoing') ps.bannerClosed = false;
  }
  return { kind: 'state', changed, movedOn, rematchNow };
}

/**
 * Whether this browser plays `seat`: it holds the seat's token, or the seat is the signed-in
 * account's (the server then takes requests without a token from the account's session).
 * @param {PageState} ps
 * @param {string} seat
 * @returns {boolean}
 */
export function holds(ps, seat) {
  if (ps.tokens[seat]) return true;
  const sv = ps.state && ps.state.seats[seat];
  return !!(sv && sv.account && sameName(sv.account, accountName()));
}

/**
 * The seats this browser plays.
 * @param {PageState} ps
 * @returns {string[]}
 */
export function mySeats(ps) {
  return ['first', 'second'].filter((s2) => holds(ps, s2));
}

/**
 * The seats this browser plays, as `{first, second}` flags (for the player names).
 * @param {PageState} ps
 */
export function held(ps) {
  return { first: holds(ps, 'first'), second: holds(ps, 'second') };
}

/**
 * Whether this browser may move now.
 * @param {PageState} ps
 * @returns {boolean}
 */
export function canMove(ps) {
  const state = ps.state;
  return !!(state && state.status === 'ongoing' && state.to_move && !state.to_move.computer
    && holds(ps, state.to_move.seat) && ps.viewPly === null && !ps.busy);
}

/**
 * Why this browser cannot move now, in words.
 * @param {PageState} ps
 * @returns {string}
 */
export function whyNot(ps) {
  const state = ps.state;
  if (!state) return 'The game is loading.';
  if (state.status !== 'ongoing') return 'The game is over.';
  if (ps.viewPly !== null) return 'This is an earlier position: go back to the game to move.';
  if (ps.busy) return 'Your move is on its way.';
  const tm = state.to_move;
  if (tm && tm.computer) return 'The computer is thinking.';
  if (!mySeats(ps).length) return 'You are watching this game.';
  const who = tm && tm.colour ? cap(tm.colour) : 'your opponent';
  return `It is ${who}'s turn: waiting for your opponent.`;
}

/**
 * The seat that resigns, offers or asks: the one to move if this browser plays it.
 * @param {PageState} ps
 * @returns {string|null}
 */
export function actingSeat(ps) {
  const mine = mySeats(ps);
  if (!mine.length) return null;
  if (ps.state && ps.state.to_move && mine.includes(ps.state.to_move.seat)) return ps.state.to_move.seat;
  return mine[0];
}

/**
 * Whether the board is shown from the second seat's side.
 * @param {PageState} ps
 * @returns {boolean}
 */
export function isFlipped(ps) {
  if (ps.flipped !== null) return ps.flipped;
  const mine = mySeats(ps);
  return mine.length === 1 && mine[0] === 'second';
}

/**
 * @param {PageState} ps
 * @param {string} text
 * @param {string} [kind]
 */
export function setFeedback(ps, text, kind = '') {
  ps.feedback = { text, kind };
}

/**
 * Hands the state in hand to the move builder: `enabled` whether clicks may move (by default,
 * whether this browser may move now).
 * @param {Page} pg
 * @param {boolean} [enabled]
 */
export function sync(pg, enabled = canMove(pg.ps)) {
  pg.builder.setState(pg.ps.state, enabled, { flipped: isFlipped(pg.ps) });
}

// The game page's parts that tell how the game stands: the settings line, the player bars,
// whose turn, the offers, the facts, the move list and its buttons. Each is drawn from the
// page state alone; the buttons call what `on` gives.

import { h, cap } from '../../util.js';
import { playerName, colourSwatch, seatColourName, navIcon, resultSentence } from '../shared.js';
import { clockWords, clockSentence } from '../../clock.js';
import { holds, held, mySeats } from './state.js';

/** @typedef {import('./state.js').PageState} PageState */
/** @typedef {import('./state.js').Actions} Actions */

/**
 * The line under the title: the mode, rated, the clock, the options that differ from the
 * defaults, and the rules.
 * @param {PageState} ps
 * @returns {(HTMLElement|null)[]}
 */
export function subtitleView(ps) {
  const { state, info } = ps;
  const specs = Object.fromEntries(((info && info.options) || []).map((o) => [o.name, o]));
  // The options that differ from the defaults, by their names for people.
  const opts = Object.entries(state.options || {}).filter(([k, v]) => !specs[k] || specs[k].default !== v)
    .map(([k, v]) => `${(specs[k] && specs[k].label) || k}: ${v === 'true' ? 'on' : v === 'false' ? 'off' : v}`).join(' · ');
  const mode = state.solitaire ? 'Solitaire' : state.same_screen ? 'Same screen'
    : (state.seats.first.kind === 'computer' || state.seats.second.kind === 'computer') ? 'Against the computer' : 'Online';
  return [h('span', { class: 'mode-tag' }, mode),
    ps.local ? h('span', { class: 'pill pill-local', id: 'game-local', title: 'No server holds this game: it stays in this browser' }, 'Kept on this device') : null,
    state.rated ? h('span', { class: 'pill pill-rated', id: 'game-rated', title: 'The result counts for both players\' ratings' }, 'Rated') : null,
    state.clock ? h('span', { class: 'clock-tag', id: 'game-clock', title: clockSentence(state.clock.time_control) }, clockWords(state.clock.time_control)) : null,
    opts ? h('span', { class: 'opts' }, opts) : null,
    h('a', { class: 'rules-link', href: `/rules/${state.game}`, target: '_blank', rel: 'noopener' }, 'Rules')];
}

/**
 * A player bar's content. `clock` is the bar's clock, written by the clocks' tick.
 * @param {PageState} ps
 * @param {string} seat
 * @param {any} board the board shown
 * @returns {{children: any[], toMove: boolean, clock: HTMLElement|null}}
 */
export function playerBarView(ps, seat, board) {
  const { state, info, viewPly, viewed } = ps;
  const colours = (info && info.colours) || [];
  const sv = state.seats[seat];
  // In a solitaire one person plays both colours: the bars stand for the colours.
  const colour = state.solitaire ? colours[seat === 'first' ? 0 : 1] || sv.colour : sv.colour;
  // Looking at an earlier position: whose turn it was then.
  const tm = viewPly !== null ? (viewed ? viewed.to_move : null) : state.status === 'ongoing' ? state.to_move : null;
  const toMove = !!tm && (state.solitaire ? tm.colour === colour : tm.seat === seat);
  const facts = [];
  if (colour && board && board.facts) {
    for (const [k, v] of Object.entries(board.facts)) {
      const fact = ps.facts.get(k);
      if (fact && fact.colour === colour) facts.push(h('span', { class: 'pfact' }, `${fact.label} ${v}`));
    }
  }
  const won = state.result && state.result.winner === seat;
  const clockRuns = !!state.clock && viewPly === null && state.status === 'ongoing' && state.clock.running === seat;
  const clock = state.clock ? h('span', { class: 'clock', role: 'timer', id: `clock-${seat}`, 'data-seat': seat }) : null;
  const children = [
    colourSwatch(colour, state.game),
    h('div', { class: 'pname' },
      h('strong', {}, state.solitaire ? `${cap(colour || '')} pieces` : playerLabel(ps, seat)),
      h('span', { class: 'pcolour' }, state.solitaire ? 'you remove for both colours' : seatColourName(state, seat),
        won ? h('span', { class: 'winner-tag' }, 'winner') : null)),
    h('div', { class: 'pfacts' }, facts),
    presenceTag(ps, seat),
    // A running clock says whose turn it is itself (the computer's thinking is still told).
    toMove && !(clockRuns && !tm.computer) ? h('span', { class: ['turn-dot', tm.computer && viewPly === null ? 'thinking' : ''] }, tm.computer && viewPly === null ? 'thinking…' : 'to move') : null,
    clock];
  return { children, toMove, clock };
}

/** A player bar's name: "You", the account's name (to its player page), "Computer · level 3"… */
function playerLabel(ps, seat) {
  const { state } = ps;
  const name = playerName(state, seat, held(ps));
  const acc = state.seats[seat].account;
  if (!acc) return name;
  const link = (text) => h('a', { class: 'pname-acct', href: `/players/${encodeURIComponent(acc)}`, title: `${acc}'s player page` }, text);
  if (name === acc) return link(acc);
  return [name, h('span', { class: 'pname-sep' }, ' · '), link(acc)];
}

/** Whether the opponent of an online game has joined and has the game open now. */
function presenceTag(ps, seat) {
  const { state, presence } = ps;
  const online = !state.same_screen && !state.solitaire && state.seats[seat].kind === 'human';
  if (!online || holds(ps, seat) || !mySeats(ps).length || !presence) return null;
  const here = !!presence[seat];
  // Once joined, a seat stays joined: by its invite link, by an account (a lobby game), by
  // having been here or by a move. Someone on another page of the app is away.
  const sv = state.seats[seat];
  const joined = sv.joined || !!sv.account || here || ps.seenHere.has(seat) || state.moves.some((m) => m.seat === seat);
  const text = here ? 'here' : joined ? 'away' : 'not joined yet';
  const title = here ? 'Your opponent has this game open now' : joined ? 'Your opponent does not have this game open now' : 'Your opponent has not opened the invite link yet';
  return h('span', { class: ['presence', here ? 'presence-here' : 'presence-away'], id: `presence-${seat}`, title }, text);
}

/**
 * Whose turn, or the result, and the last move.
 * @param {PageState} ps
 * @returns {{className: string, text: string, last: HTMLElement|null}}
 */
export function statusView(ps) {
  const { state } = ps;
  let text;
  let cls = 'status';
  if (state.status === 'finished') {
    text = state.result ? resultSentence(state.result.text) : 'The game is over.';
    cls += ' status-over';
  } else if (state.to_move) {
    // Before colours are chosen (a fair set-up) the player is named instead of a colour.
    const colour = state.to_move.colour ? cap(state.to_move.colour) : null;
    const name = playerName(state, state.to_move.seat, held(ps));
    const who = colour || name;
    const mine = holds(ps, state.to_move.seat);
    if (state.solitaire) text = `${who} to ${state.game === 'sight-reduction' ? 'remove' : 'move'}`;
    else if (state.to_move.computer) text = colour ? `${colour} to move — the computer is thinking` : 'The computer is thinking';
    else if (mine && state.same_screen) text = `${who} to move`;
    else if (mine) text = colour ? `${colour} to move — your turn` : 'Your turn';
    else if (mySeats(ps).length) text = colour ? `${colour} to move — waiting for your opponent` : 'Waiting for your opponent';
    else text = `${who} to move`;
    if (mine && !state.to_move.computer) cls += ' status-yours';
  }
  const lastMove = state.moves[state.moves.length - 1];
  let last = null;
  if (lastMove) {
    const col = state.seats[lastMove.seat].colour;
    last = h('span', { class: 'last-move' }, `Last move: ${lastMove.move}${col && !state.solitaire ? ` (${cap(col)})` : ''}`);
  }
  return { className: cls, text: text || '', last };
}

/**
 * Draw offers and undo requests, open or declined.
 * @param {PageState} ps
 * @param {Actions} on
 * @returns {HTMLElement[]}
 */
export function offersView(ps, on) {
  const { state } = ps;
  const mine = mySeats(ps);
  const parts = [];
  const offer = (what, pendingSeat, kind) => {
    if (!pendingSeat) return;
    if (mine.includes(pendingSeat) && !(state.same_screen)) {
      parts.push(h('div', { class: 'offer' }, `You ${what === 'draw' ? 'offered a draw' : 'asked to take back your last move'}.`,
        h('button', { class: 'btn btn-small', type: 'button', onclick: () => on.action(kind, 'decline') }, 'Withdraw')));
    } else if (mine.length) {
      parts.push(h('div', { class: 'offer offer-in' }, what === 'draw' ? 'Your opponent offers a draw.' : 'Your opponent asks to take back their last move.',
        h('button', { class: 'btn btn-small btn-primary', type: 'button', onclick: () => on.action(kind, 'accept') }, 'Accept'),
        h('button', { class: 'btn btn-small', type: 'button', onclick: () => on.action(kind, 'decline') }, 'Decline')));
    } else {
      const c = state.seats[pendingSeat].colour;
      const who = c ? cap(c) : 'A player';
      parts.push(h('div', { class: 'offer' }, what === 'draw' ? `${who} offers a draw.` : `${who} asks to take back a move.`));
    }
  };
  if (state.status === 'ongoing') {
    offer('draw', state.draw_offer, 'draw');
    offer('undo', state.undo_request, 'undo');
  }
  // An answer to an offer: the one who made it is told.
  const dec = state.declined;
  if (dec && !state.same_screen) {
    const asked = dec.seat === 'first' ? 'second' : 'first';
    const what = dec.offer === 'draw' ? 'draw offer' : 'request to take back a move';
    const text = mine.includes(asked) && !mine.includes(dec.seat) ? `Your opponent declined your ${what}.`
      : `${dec.colour ? cap(dec.colour) : 'A player'} declined the ${what}.`;
    parts.push(h('div', { class: 'offer offer-declined', id: 'offer-declined', role: 'status' }, text));
  }
  return parts;
}

/**
 * The facts of the position that belong to neither colour (a solitaire game's goal among them).
 * @param {PageState} ps
 * @param {any} board the board shown
 * @returns {HTMLElement[]}
 */
export function factsView(ps, board) {
  const items = [];
  const facts = (board && board.facts) || {};
  for (const [k, v] of Object.entries(facts)) {
    // A fact of one colour stands beside that colour's player instead.
    const fact = ps.facts.get(k);
    if (fact && fact.colour) continue;
    items.push(h('div', { class: 'fact' }, h('dt', {}, fact ? fact.label : k), h('dd', {}, v)));
  }
  return items;
}

/**
 * The moves played, each a button to the position after it.
 * @param {PageState} ps
 * @param {Actions} on
 * @returns {HTMLElement[]}
 */
export function moveListView(ps, on) {
  const { state, viewPly } = ps;
  const n = state.moves.length;
  const current = viewPly === null ? n : viewPly;
  // One number per move (a move is one player's turn), as in records and the game list.
  const items = state.moves.map((m) => {
    const colour = state.solitaire ? null : state.seats[m.seat].colour;
    return h('li', { class: 'mv-item' },
      h('span', { class: 'mv-num' }, `${m.ply}.`),
      h('button', {
        type: 'button', class: ['mv', m.ply === current ? 'mv-current' : ''], 'data-ply': m.ply,
        'aria-label': `Move ${m.ply}${colour ? ` (${cap(colour)})` : ''}: ${m.move}`, 'aria-current': m.ply === current ? 'true' : null,
        onclick: () => on.viewAt(m.ply === n ? null : m.ply),
      }, colour ? h('span', { class: `mv-dot mv-dot-${colour}`, 'aria-hidden': 'true' }) : null, m.move));
  });
  if (!n) items.push(h('li', { class: 'mv-none' }, 'No moves yet.'));
  return items;
}

/**
 * The buttons to the start, the previous and next move, and the current position.
 * @param {PageState} ps
 * @param {Actions} on
 * @returns {HTMLElement[]}
 */
export function moveNavView(ps, on) {
  const n = ps.state.moves.length;
  const current = ps.viewPly === null ? n : ps.viewPly;
  const navBtn = (icon, title, ply, disabled, id) => h('button', { type: 'button', class: 'btn btn-icon', id, title, 'aria-label': title, disabled, onclick: () => on.viewAt(ply) }, navIcon(icon));
  return [
    navBtn('first', 'Start position (Home)', 0, current === 0, 'nav-first'),
    navBtn('prev', 'Previous move (←)', current - 1, current === 0, 'nav-prev'),
    navBtn('next', 'Next move (→)', current + 1 >= n ? null : current + 1, current >= n, 'nav-next'),
    navBtn('last', 'Current position (End)', null, current >= n, 'nav-last')];
}

/**
 * Which earlier position is shown, and the way back.
 * @param {PageState} ps
 * @param {Actions} on
 * @returns {HTMLElement[]}
 */
export function viewingView(ps, on) {
  const { state, viewPly } = ps;
  return [h('span', {}, viewPly === 0 ? 'Viewing the starting position' : `Viewing the position after move ${viewPly} (${state.moves[/** @type {number} */ (viewPly) - 1].move})`),
    h('button', { class: 'btn btn-small', type: 'button', onclick: () => on.viewAt(null) }, 'Back to the game')];
}

// The game page's parts to act with: the move buttons, the controls, the links to share and
// to invite, the result with the rematch, and the question before resigning.

import { h, cap, toast, copyText } from '../../util.js';
import { api } from '../../api.js';
import { seatColourName, resultSentence } from '../shared.js';
import { mySeats, canMove, actingSeat } from './state.js';

/** @typedef {import('./state.js').PageState} PageState */
/** @typedef {import('./state.js').Actions} Actions */

/**
 * A move waiting to be confirmed, and the moves played by a button rather than on the board.
 * @param {import('../../interact.js').MoveBuilder} builder
 * @returns {HTMLElement[]}
 */
export function moveActionsView(builder) {
  const parts = [];
  const pending = builder.pending();
  if (pending) {
    parts.push(h('div', { class: 'pending' }, h('span', {}, pending.text),
      h('button', { type: 'button', class: 'btn btn-primary', disabled: !pending.move, onclick: () => pending.move && builder.play(pending.move) }, pending.confirmLabel || 'Play'),
      h('button', { type: 'button', class: 'btn', onclick: () => builder.reset() }, 'Cancel')));
  }
  if (builder.enabled && builder.buttons.length) {
    parts.push(h('div', { class: 'move-buttons' }, builder.buttons.map((b) =>
      h('button', { type: 'button', class: 'btn btn-move', 'data-move': b.move, title: b.move, onclick: () => builder.play(b.move) }, b.label))));
  }
  return parts;
}

/**
 * The buttons that act on the game: undo, draw, resign and hint (none when this browser only
 * watches, or the game is over).
 * @param {PageState} ps
 * @param {Actions} on
 * @returns {HTMLElement[]}
 */
export function gameButtonsView(ps, on) {
  const { state, info } = ps;
  const mine = mySeats(ps);
  const ongoing = state.status === 'ongoing';
  const vsComputer = state.seats.first.kind === 'computer' || state.seats.second.kind === 'computer';
  const immediateUndo = state.same_screen || state.solitaire || vsComputer;
  const btn = (label, attrs) => h('button', { type: 'button', class: 'btn', ...attrs }, label);
  const list = [];
  if (mine.length && ongoing) {
    const mineMoved = state.moves.some((m) => mine.includes(m.seat));
    list.push(btn(immediateUndo ? 'Undo' : 'Ask to undo', {
      id: 'btn-undo', disabled: !mineMoved || ps.busy, title: immediateUndo ? 'Take back the last move' : 'Ask your opponent to let you take back your last move',
      onclick: () => on.action('undo', 'request'),
    }));
    // Only where the rules know draws (Sight Reduction always has a winner).
    if (!state.solitaire && !vsComputer && info && info.draws_possible) {
      list.push(btn(state.same_screen ? 'Agree a draw' : 'Offer a draw', {
        id: 'btn-draw', disabled: state.draw_offer && mine.includes(state.draw_offer) && !state.same_screen,
        onclick: () => {
          const act = state.draw_offer && !mine.includes(state.draw_offer) ? 'accept' : 'offer';
          if (state.same_screen) confirmBox('End the game as a draw?', 'Agree a draw', () => on.action('draw', act), false);
          else on.action('draw', act);
        },
      }));
    }
    if (!state.solitaire) {
      list.push(btn('Resign', {
        id: 'btn-resign', class: 'btn btn-danger',
        onclick: () => confirmBox(state.same_screen ? `Resign for ${seatColourName(state, actingSeat(ps)) || 'the side to move'}?` : 'Resign this game?', 'Resign', () => on.action('resign')),
      }));
    }
  }
  // Hints from the computer: on one screen, in puzzles and against the computer (not in
  // games between two people online).
  if (ps.hintAvailable && mine.length && ongoing && canMove(ps) && (immediateUndo)) {
    list.push(btn(ps.hintBusy ? 'Thinking…' : 'Hint', { id: 'btn-hint', disabled: ps.hintBusy, title: 'Ask the computer for a move', onclick: on.showHint }));
  }
  return list;
}

/**
 * The legend, flip, the records and the links to other pages, after the game's buttons unless
 * `withGame` is false (they are shown under the board then).
 * @param {PageState} ps
 * @param {import('../../legend.js').Legend} legend
 * @param {Actions} on
 * @param {boolean} [withGame]
 * @returns {HTMLElement[]}
 */
export function controlsView(ps, legend, on, withGame = true) {
  const { state } = ps;
  const ongoing = state.status === 'ongoing';
  const btn = (label, attrs) => h('button', { type: 'button', class: 'btn', ...attrs }, label);
  const list = withGame ? gameButtonsView(ps, on) : [];
  list.push(legend.button(state.game));
  list.push(btn('Flip board', { id: 'btn-flip', title: 'Turn the board around (F)', onclick: () => on.flip() }));
  if (state.game === 'assideum') {
    list.push(btn(ps.showZones ? 'Hide flight zones' : 'Show flight zones', { id: 'btn-zones', 'aria-pressed': String(ps.showZones), onclick: () => on.toggleZones() }));
  }
  list.push(recordLinks(ps, on));
  list.push(h('div', { class: 'more-links' },
    state.moves.length && !ongoing ? h('a', { href: `/games/${state.id}/review`, id: 'link-review' }, 'Review') : null,
    h('a', { href: analysisLink(ps), id: 'link-analyse', title: 'Try moves from the position shown, with the computer’s evaluation' }, 'Analyse'),
    ps.local ? null : h('a', { href: `/games/${state.id}/replay` }, 'Replay'),
    h('a', { href: newGameLink(state) }, 'New game like this')));
  return list;
}

/**
 * The record downloads: the server's, or made in this browser for a game kept here.
 * @param {PageState} ps
 * @param {Actions} on
 */
function recordLinks(ps, on) {
  const { state } = ps;
  const base = `boardlab-${state.game}-${state.id}`;
  const link = (/** @type {'pgn'|'json'} */ format, /** @type {string} */ label) => (ps.local && on.download
    ? h('button', { type: 'button', class: 'btn btn-small', id: `dl-${format}`, onclick: () => on.download && on.download(format) }, label)
    : h('a', { class: 'btn btn-small', href: api.recordUrl(state.id, format), download: `${base}.${format}`, id: `dl-${format}` }, label));
  return h('div', { class: 'dl' }, h('span', {}, 'Record:'), link('pgn', 'PGN'), link('json', 'JSON'));
}

/** The analysis board on the position shown (an earlier one while it is viewed). */
function analysisLink(ps) {
  const { state } = ps;
  const shown = ps.viewPly !== null && ps.viewed ? ps.viewed.position : state.position;
  const q = new URLSearchParams({ game: state.game, position: shown });
  const opts = Object.entries(state.options || {}).map(([k, v]) => `${k}=${v}`).join(',');
  if (opts) q.set('options', opts);
  return `/analysis?${q}`;
}

/** The new-game form, filled in like this game. */
function newGameLink(state) {
  const q = new URLSearchParams({ game: state.game });
  for (const [k, v] of Object.entries(state.options || {})) q.set(`o.${k}`, v);
  const comp = ['first', 'second'].find((s2) => state.seats[s2].kind === 'computer');
  if (state.solitaire || state.same_screen) q.set('mode', 'same');
  else if (comp) {
    q.set('mode', 'computer');
    const computer = state.seats[comp].computer;
    if (computer && computer.level != null) q.set('level', String(computer.level));
    q.set('seat', comp === 'first' ? 'second' : 'first');
  } else q.set('mode', 'online');
  if (state.clock && !state.same_screen) q.set('clock', state.clock.control);
  return `/?${q}`;
}

/**
 * The link for spectators, and word that the invited opponent has joined.
 * @param {PageState} ps
 * @returns {HTMLElement[]}
 */
export function shareView(ps) {
  const { state } = ps;
  // A game kept in this browser has no link to share: no server holds it.
  if (ps.local) {
    return [h('div', { class: 'share-row', id: 'kept-here' },
      'This game is kept on this device only, in this browser: no one else can see it, and it is here when you come back.')];
  }
  const invite = ps.tokens.invite;
  const items = [];
  if (invite && state.seats[invite.seat] && state.seats[invite.seat].joined) {
    items.push(h('div', { class: 'share-row joined', id: 'opponent-joined' }, 'Your opponent has joined with the invite link.'));
  }
  const watch = `${location.origin}/games/${state.id}`;
  items.push(h('div', { class: 'share-row' },
    h('label', { for: 'watch-link' }, 'Link for spectators'),
    h('div', { class: 'copy-row' },
      h('input', { id: 'watch-link', readonly: true, value: watch, onfocus: (ev) => ev.target.select() }),
      h('button', { type: 'button', class: 'btn', onclick: async () => toast(await copyText(watch) ? 'Link copied' : 'Copy the link by hand', 'ok') }, 'Copy'))));
  return items;
}

/**
 * The invite link while the friend has not opened it yet, else null.
 * @param {PageState} ps
 * @returns {{link: string, colour: string|null}|null}
 */
export function pendingInvite(ps) {
  const { state } = ps;
  const invite = ps.tokens.invite;
  const waiting = invite && state.status === 'ongoing' && state.seats[invite.seat] && !state.seats[invite.seat].joined;
  if (!waiting) return null;
  const link = `${location.origin}/games/${state.id}#join=${invite.seat}.${invite.token}`;
  return { link, colour: state.seats[invite.seat].colour };
}

/**
 * The invite box above the board.
 * @param {{link: string, colour: string|null}} invite
 * @returns {HTMLElement}
 */
export function inviteView({ link, colour }) {
  return h('div', { class: 'invite-box', id: 'invite-box', role: 'region', 'aria-label': 'Invite your opponent' },
    h('label', { for: 'invite-link', class: 'invite-head' }, 'Send this link to your opponent',
      h('span', { class: 'invite-sub' }, colour ? ` — they play ${cap(colour)}` : ' — it gives them the other seat')),
    h('div', { class: 'copy-row' },
      h('input', { id: 'invite-link', readonly: true, value: link, onfocus: (ev) => ev.target.select() }),
      h('button', { type: 'button', class: 'btn btn-primary', id: 'copy-invite', onclick: async () => toast(await copyText(link) ? 'Invite link copied' : 'Copy the link by hand', 'ok') }, 'Copy link')));
}

/**
 * The result beside the board once the game is over (null while it goes on, or closed).
 * @param {PageState} ps
 * @param {Actions} on
 * @returns {HTMLElement|null}
 */
export function bannerView(ps, on) {
  const { state } = ps;
  if (state.status !== 'finished' || ps.viewPly !== null || ps.bannerClosed || !state.result) return null;
  const r = state.result;
  const mine = mySeats(ps);
  let headline = 'Game over';
  if (state.solitaire) headline = r.tag === 'solved' ? 'Solved!' : 'Puzzle over';
  else if (r.termination === 'aborted') headline = 'Aborted';
  else if (r.draw) headline = 'Draw';
  else if (r.winner && mine.length === 1) headline = mine[0] === r.winner ? 'You win!' : 'You lose';
  else if (r.winner) headline = `${cap(r.colour || `${r.winner} seat`)} wins`;
  // Beside the board, not over it: the final position stays in view.
  return h('div', { class: ['result-banner', r.draw ? 'draw' : ''], role: 'dialog', 'aria-label': 'Result' },
    h('button', { class: 'banner-x', type: 'button', 'aria-label': 'Close', onclick: () => on.closeBanner() }, '×'),
    h('div', { class: 'banner-words' },
      h('div', { class: 'banner-head' }, headline),
      h('div', { class: 'banner-text' }, resultSentence(r.text))),
    rematchRow(ps, mine, on),
    h('div', { class: 'banner-btns' },
      mine.length && !state.solitaire ? null : h('a', { class: 'btn btn-primary', href: newGameLink(state) }, 'Play again'),
      mine.length && !state.solitaire ? h('a', { class: 'btn', href: newGameLink(state) }, 'New game') : null,
      state.moves.length ? h('a', { class: 'btn', href: `/games/${state.id}/review` }, 'Review') : null,
      h('a', { class: 'btn', href: `/games/${state.id}/replay` }, 'Replay')));
}

/** The rematch: offer one (colours swapped), answer one, or go to the one agreed. */
function rematchRow(ps, mine, on) {
  const { state } = ps;
  if (!mine.length || state.solitaire) return null;
  const offer = state.rematch_offer;
  const row = (...parts) => h('div', { class: 'rematch-row', id: 'rematch' }, ...parts);
  if (state.rematch) return row(h('button', { type: 'button', class: 'btn btn-primary', id: 'btn-rematch-go', onclick: () => on.followRematch() }, 'Go to the rematch'));
  const rated = state.rematch_rated ? 'a rated rematch' : 'a rematch';
  if (offer && !mine.includes(offer)) {
    return row(h('span', {}, `Your opponent offers ${rated}, colours swapped.`),
      h('button', { type: 'button', class: 'btn btn-primary', id: 'btn-rematch-accept', onclick: () => on.action('rematch', 'accept') }, 'Accept'),
      h('button', { type: 'button', class: 'btn', onclick: () => on.action('rematch', 'decline') }, 'Decline'));
  }
  if (offer) {
    return row(h('span', {}, `${state.rematch_rated ? 'Rated rematch' : 'Rematch'} offered: waiting for your opponent.`),
      h('button', { type: 'button', class: 'btn', onclick: () => on.action('rematch', 'decline') }, 'Withdraw'));
  }
  const plain = h('button', { type: 'button', class: 'btn btn-primary', id: 'btn-rematch', title: 'The same game again with the colours swapped', onclick: () => on.action('rematch', 'offer') }, 'Rematch');
  // Between two signed-in players a rematch may count for the ratings: their choice, shown.
  const accounts = state.seats.first.account && state.seats.second.account;
  if (!accounts) return row(plain);
  return row(plain, h('button', { type: 'button', class: 'btn', id: 'btn-rematch-rated', title: 'The same game again with the colours swapped, counting for both ratings', onclick: () => on.action('rematch', 'offer', { rated: true }) }, 'Rated rematch'));
}

/** Asks before doing something that cannot be taken back. */
function confirmBox(question, yes, then, danger = true) {
  const dlg = h('div', { class: 'modal-back' },
    h('div', { class: 'modal', role: 'alertdialog', 'aria-label': question },
      h('p', {}, question),
      h('div', { class: 'modal-btns' },
        h('button', { type: 'button', class: danger ? 'btn btn-danger' : 'btn btn-primary', id: 'confirm-yes', onclick: () => { dlg.remove(); then(); } }, yes),
        h('button', { type: 'button', class: 'btn', onclick: () => dlg.remove() }, 'Cancel'))));
  dlg.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') dlg.remove(); });
  document.body.append(dlg);
  /** @type {HTMLElement} */ (dlg.querySelector('#confirm-yes')).focus();
}

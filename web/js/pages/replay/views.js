// The replay page's parts drawn from its state: the buttons under the board, the page's frame,
// the move list and the line that says which move is shown. The buttons call what `on` gives.

import { h, cap, count } from '../../util.js';
import { api } from '../../api.js';
import { seatsText, navIcon, resultSentence } from '../shared.js';

/** @typedef {import('./state.js').ReplayState} ReplayState */

/**
 * What the replay's controls do.
 * @typedef {object} ReplayActions
 * @property {(p: number) => void} show goes to the position after `p` moves
 * @property {() => number} ply the move shown now
 * @property {() => void} flip
 */

/**
 * The buttons under the board, with the play button and the speed between them.
 * @param {number} n the number of moves
 * @param {ReplayActions} on
 * @param {HTMLElement} playBtn
 * @param {HTMLElement} speed
 * @returns {HTMLElement}
 */
export function replayControls(n, on, playBtn, speed) {
  return h('div', { class: 'replay-controls' },
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Start', title: 'Start (Home)', onclick: () => on.show(0) }, navIcon('first')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Previous move', title: 'Previous move (←)', onclick: () => on.show(on.ply() - 1) }, navIcon('prev')),
    playBtn,
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Next move', title: 'Next move (→)', onclick: () => on.show(on.ply() + 1) }, navIcon('next')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'End', title: 'End (End)', onclick: () => on.show(n) }, navIcon('last')),
    speed,
    h('button', { type: 'button', class: 'btn', onclick: () => on.flip() }, 'Flip'));
}

/**
 * The page: the board's stack beside the head card (title, seats, result, links) and the moves.
 * @param {any} state the game
 * @param {string} id the game's id
 * @param {HTMLElement} stack
 * @param {HTMLElement} list
 * @returns {HTMLElement}
 */
export function replayLayout(state, id, stack, list) {
  const n = state.moves.length;
  return h('div', { class: 'game-layout' },
    h('section', { class: 'board-col' }, stack),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card head-card' },
        h('h1', { class: 'game-title' }, `${state.title} — replay`),
        h('div', { class: 'game-sub' }, state.solitaire ? 'Solitaire' : state.same_screen ? 'Same screen' : seatsText({ computer: state.seats.first.computer }, { computer: state.seats.second.computer })),
        h('div', { class: 'status' }, state.result ? resultSentence(state.result.text) : 'The game is still being played.'),
        h('div', { class: 'more-links' }, h('a', { href: `/games/${id}` }, 'Open the game'),
          n ? h('a', { href: `/games/${id}/review` }, 'Review') : null,
          h('a', { href: api.recordUrl(id, 'pgn'), download: `boardlab-${state.game}-${id}.pgn` }, 'PGN'),
          h('a', { href: api.recordUrl(id, 'json'), download: `boardlab-${state.game}-${id}.json` }, 'JSON'))),
      h('div', { class: 'card moves-card' }, h('h2', {}, 'Moves'), list)));
}

/**
 * The move list's rows, the start first; the move shown is current.
 * @param {ReplayState} rp
 * @param {(p: number) => void} show
 * @returns {HTMLElement[]}
 */
export function moveRows(rp, show) {
  const { state, ply } = rp;
  return [h('li', { class: 'mv-row' }, h('span', { class: 'mv-num' }, '0.'), h('button', { type: 'button', class: ['mv', ply === 0 ? 'mv-current' : ''], 'data-ply': 0, onclick: () => show(0) }, 'start')),
    ...state.moves.map((m) => h('li', { class: 'mv-row' }, h('span', { class: 'mv-num' }, `${m.ply}.`),
      h('button', { type: 'button', class: ['mv', m.ply === ply ? 'mv-current' : ''], 'data-ply': m.ply, onclick: () => show(m.ply) }, m.move)))];
}

/**
 * Who made move `p`, by colour ('' in a puzzle or where colours are not known).
 * @param {any} state
 * @param {number} p
 */
function moverText(state, p) {
  const colour = state.solitaire ? null : state.seats[state.moves[p - 1].seat].colour;
  return colour ? ` (${cap(colour)})` : '';
}

/**
 * The line under the board: the move shown, or why only the final position is drawn.
 * @param {ReplayState} rp
 * @returns {string}
 */
export function infoText(rp) {
  const { state, n, ply, available } = rp;
  return !available ? 'This server cannot show earlier positions yet; only the final position is drawn.'
    : ply === 0 ? `Start position · ${count(n, 'move')} in all` : `Move ${ply} of ${n}: ${state.moves[ply - 1].move}${moverText(state, ply)}`;
}

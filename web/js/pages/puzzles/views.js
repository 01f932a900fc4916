// The puzzle page's parts, each drawn from what it is given: the heading over the board and
// the buttons.

import { h, cap } from '../../util.js';
import { GAME } from './progress.js';

/**
 * The heading: the way back, the grade and number (solved now or before), the title and the
 * goal, with the colour played in a "win from here" puzzle.
 * @param {any} entry the puzzle (GET /api/puzzles/ID)
 * @param {{solved: boolean, solvedBefore: boolean, win: boolean, player: string|null}} at
 * @returns {HTMLElement[]}
 */
export function headView(entry, { solved, solvedBefore, win, player }) {
  return [
    h('div', { class: 'practice-crumbs' }, h('a', { href: '/puzzles' }, 'Puzzles'), ' · ', h('a', { href: `/learn/${GAME}` }, 'Tutorial')),
    h('h1', { class: 'practice-title' }, h('span', { class: 'step-count' }, `${cap(entry.difficulty)} · puzzle ${entry.number}${solved ? ' · solved' : solvedBefore ? ' · solved before' : ''}`), entry.title),
    h('p', { class: 'practice-text' }, win && player ? `You play ${cap(player)}. ${entry.goal}` : entry.goal)];
}

/**
 * What the buttons do.
 * @typedef {object} PuzzleActions
 * @property {() => void} hint
 * @property {() => void} back take back one move (in "win from here", the computer's answer too)
 * @property {() => void} restart
 */

/**
 * The buttons: hint, take back, start again, and the next puzzle (`nextHref`).
 * @param {string} state 'play' | 'busy' | 'solved'
 * @param {number} moves how many moves are played
 * @param {string} nextHref
 * @param {PuzzleActions} on
 * @returns {HTMLElement[]}
 */
export function buttonsView(state, moves, nextHref, on) {
  const btn = (label, attrs) => h('button', { type: 'button', class: 'btn', ...attrs }, label);
  const playing = state === 'play';
  const solved = state === 'solved';
  return [
    btn('Hint', { id: 'btn-hint', disabled: !playing, onclick: on.hint }),
    btn('Take back', { id: 'btn-back', disabled: state === 'busy' || !moves, onclick: on.back }),
    btn('Start again', { id: 'btn-restart', disabled: state === 'busy' || !moves, onclick: on.restart }),
    h('a', { class: ['btn', solved ? 'btn-primary' : ''], id: 'btn-next', href: nextHref }, 'Next puzzle')];
}

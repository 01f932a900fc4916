// The analysis board's parts, each drawn from what it is given: the game picker, the page
// when the position cannot be set up, the controls, the layout, the computer's evaluation and
// the moves tried.

import { h } from '../../util.js';
import { navIcon, shareColours, resultSentence } from '../shared.js';
import { seatColours } from './tree.js';

/** @typedef {import('./tree.js').Node} Node */
/** @typedef {import('./tree.js').Evaluation} Evaluation */

/**
 * The page without a game: what the board is for and a game to pick.
 * @param {any} cat the catalog
 * @param {string|null} game the game asked for, when there is none of that name
 * @returns {HTMLElement}
 */
export function pickerView(cat, game) {
  return h('section', { class: 'page narrow' }, h('h1', {}, 'Analysis board'),
    h('p', { class: 'lead' }, 'Set up a position and try moves on it: the computer evaluates every position you reach. Nothing you play here changes a game.'),
    game ? h('p', { class: 'error-text' }, `There is no game called “${game}”.`) : null,
    h('div', { class: 'game-picks' }, cat.games.map((g) => h('a', { class: 'btn', href: `/analysis?game=${g.name}` }, g.title))),
    h('p', {}, 'To analyse a game you played, open it and choose “Analyse” on any move; or ', h('a', { href: '/review' }, 'review a game record'), '.'));
}

/**
 * The page when the position asked for cannot be set up.
 * @param {string} message
 * @param {string} game
 * @param {any} info the game's catalog entry
 * @returns {HTMLElement}
 */
export function positionErrorView(message, game, info) {
  return h('section', { class: 'page narrow' }, h('h1', {}, 'Analysis board'), h('p', { class: 'error-text' }, message),
    h('p', {}, h('a', { href: `/analysis?game=${game}` }, `Start from the ${info.title} set-up instead`)));
}

/**
 * What the controls under the board do.
 * @typedef {object} NavActions
 * @property {() => void} start
 * @property {() => void} back
 * @property {() => void} forward
 * @property {() => void} end
 * @property {() => void} flip
 * @property {() => void} share
 */

/**
 * The controls under the board: through the moves, flip, copy the link.
 * @param {NavActions} on
 * @returns {HTMLElement}
 */
export function navView(on) {
  return h('div', { class: 'replay-controls' },
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Start', title: 'Start (Home)', onclick: on.start }, navIcon('first')),
    h('button', { type: 'button', class: 'btn btn-icon', id: 'an-back', 'aria-label': 'Back one move', title: 'Back (←)', onclick: on.back }, navIcon('prev')),
    h('button', { type: 'button', class: 'btn btn-icon', id: 'an-forward', 'aria-label': 'Forward one move', title: 'Forward (→)', onclick: on.forward }, navIcon('next')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'End of this line', title: 'End of the line (End)', onclick: on.end }, navIcon('last')),
    h('button', { type: 'button', class: 'btn', onclick: on.flip }, 'Flip'),
    h('button', { type: 'button', class: 'btn', id: 'an-share', onclick: on.share }, 'Copy link'));
}

/**
 * The page's layout: the board column (`stack`, already filled) and the side column with the
 * title, the evaluation and the moves tried.
 * @param {any} info the game's catalog entry
 * @param {HTMLElement} stack
 * @param {HTMLElement} engine
 * @param {HTMLElement} lines
 * @returns {HTMLElement}
 */
export function layoutView(info, stack, engine, lines) {
  return h('div', { class: 'game-layout' },
    h('section', { class: 'board-col' }, stack),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card head-card' }, h('h1', { class: 'game-title' }, `${info.title} — analysis board`),
        h('p', { class: 'game-sub' }, 'Moves tried here change no game.'), engine),
      h('div', { class: 'card moves-card' }, h('h2', {}, 'Moves tried'), lines)));
}

/**
 * The computer's word on position `view`: the game's result, thinking, an error, or the
 * evaluation with its bar, best move (`onBest` plays it) and best line.
 * @param {any} view
 * @param {any} info the game's catalog entry
 * @param {Evaluation|null} evaluation
 * @param {number} thoughtMs how long the computer had thought at that evaluation
 * @param {(move: string) => void} onBest
 * @returns {HTMLElement[]}
 */
export function engineView(view, info, evaluation, thoughtMs, onBest) {
  if (view.result) return [h('p', { class: 'engine-text' }, `Game over: ${resultSentence(view.result.text, false)}.`)];
  if (!evaluation) return [h('p', { class: 'engine-text muted' }, 'The computer is thinking…')];
  if (evaluation.error) return [h('p', { class: 'engine-text error-text' }, evaluation.error)];
  const e = evaluation;
  const pct = Math.round(e.first_score * 100);
  return [
    h('div', { class: 'eval-bar', role: 'img', 'aria-label': e.text, style: shareColours(...seatColours(view, info)) }, h('span', { style: `width:${pct}%` })),
    h('p', { class: 'engine-text', id: 'engine-text' }, h('strong', {}, e.text)),
    h('p', { class: 'engine-line' }, 'Best: ', h('button', { type: 'button', class: 'btn btn-small', id: 'engine-best', onclick: () => onBest(e.move) }, e.move),
      e.pv.length > 1 ? h('span', { class: 'muted' }, ` then ${e.pv.slice(1, 8).join(' ')}`) : null),
    h('p', { class: 'muted engine-meta' }, `${e.last ? 'Done' : 'Still thinking'} · ${(thoughtMs / 1000).toFixed(1)} s · ${e.exact ? 'proven' : `${e.nodes.toLocaleString()} positions`}`)];
}

/**
 * A move of the tree as a button; `current` is the node shown.
 * @param {Node} n
 * @param {Node} current
 * @param {(n: Node) => void} goTo
 * @returns {HTMLElement}
 */
function moveButton(n, current, goTo) {
  return h('button', {
    type: 'button', class: ['mv', n === current ? 'mv-current' : ''], 'aria-current': n === current ? 'true' : null,
    'data-depth': n.depth, onclick: () => goTo(n),
  }, h('span', { class: 'mv-num' }, `${n.depth}.`), n.move);
}

/**
 * The line starting at `n` (n itself, then its first children), with side lines inside.
 * @param {Node} n
 * @param {Node} current
 * @param {(n: Node) => void} goTo
 * @returns {HTMLElement[]}
 */
function line(n, current, goTo) {
  const out = [moveButton(n, current, goTo)];
  let at = n;
  while (at.children.length) {
    const [main, ...alts] = at.children;
    out.push(moveButton(main, current, goTo));
    for (const a of alts) out.push(h('span', { class: 'variation' }, line(a, current, goTo)));
    at = main;
  }
  return out;
}

/**
 * The moves tried, from the root `tree`: the first line with the side lines inside, or how to
 * start when there are none.
 * @param {Node} tree
 * @param {Node} current
 * @param {(n: Node) => void} goTo
 * @returns {HTMLElement}
 */
export function linesView(tree, current, goTo) {
  if (!tree.children.length) {
    return h('p', { class: 'muted' }, 'Play a move on the board to start; go back and play another to try a side line.');
  }
  const [main, ...alts] = tree.children;
  return h('div', { class: 'an-line' }, line(main, current, goTo), alts.map((a) => h('span', { class: 'variation' }, line(a, current, goTo))));
}

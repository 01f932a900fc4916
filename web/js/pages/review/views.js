// The review's parts drawn from its state: the buttons under the board, the page's frame, the
// summary per side, the evaluation graph, the move list and the comment on the move shown.
// The buttons, the graph and the moves call what they are given.

import { h, s, cap } from '../../util.js';
import { navIcon, shareColours, computerName, computerOf } from '../shared.js';

/** @typedef {import('./state.js').ReviewState} ReviewState */

const GRADE_WORDS = { best: 'best move', good: 'good', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder' };
const SYMBOL = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/**
 * What the buttons under the board do.
 * @typedef {object} ReviewActions
 * @property {(p: number) => void} show goes to the position after `p` moves
 * @property {() => number} ply the move shown now
 * @property {() => void} flip
 */

/** A ply's comment without the grade the heading before it already says ("Blunder."). */
function commentAfter(p) {
  const said = GRADE_WORDS[p.grade];
  const text = String(p.comment || '');
  return said && text.toLowerCase().startsWith(`${said}.`) ? text.slice(said.length + 1).trimStart() : text;
}

/**
 * One sentence on what the marks mean, for a game full of them too: a computer at a low level
 * plays weak moves on purpose, and each is marked.
 */
function marksNote() {
  return h('p', { class: 'muted review-marks', id: 'review-marks' },
    '?! marks an inaccuracy, ? a mistake and ?? a blunder, a move that gives away much of what the position held; a computer at a low level makes many of them on purpose.');
}

/**
 * The buttons under the board: to the start, back, on, to the end, flip, and the link to
 * analyse the position shown (its address set as each position is drawn).
 * @param {number} n the number of moves
 * @param {ReviewActions} on
 * @returns {HTMLElement}
 */
export function reviewNav(n, on) {
  return h('div', { class: 'replay-controls' },
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Start', title: 'Start (Home)', onclick: () => on.show(0) }, navIcon('first')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Previous move', title: 'Previous move (←)', onclick: () => on.show(on.ply() - 1) }, navIcon('prev')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Next move', title: 'Next move (→)', onclick: () => on.show(on.ply() + 1) }, navIcon('next')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'End', title: 'End (End)', onclick: () => on.show(n) }, navIcon('last')),
    h('button', { type: 'button', class: 'btn', onclick: () => on.flip() }, 'Flip'),
    h('a', { class: 'btn', id: 'analyse-here', href: '#' }, 'Analyse from here'));
}

/**
 * The page: the board's stack beside the head card (title, result, summary, links), the graph
 * and the moves.
 * @param {ReviewState} rs
 * @param {any} opts the title, the note on a stale review and the links
 * @param {{stack: HTMLElement, resultEl: HTMLElement, graph: HTMLElement, list: HTMLElement}} parts
 * @returns {HTMLElement}
 */
export function reviewLayout(rs, opts, parts) {
  return h('div', { class: 'game-layout' },
    h('section', { class: 'board-col' }, parts.stack),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card head-card' },
        h('h1', { class: 'game-title' }, opts.title),
        parts.resultEl,
        opts.stale ? h('p', { class: 'muted' }, 'Moves were played after this review; open it again from the game to review them too.') : null,
        summaryView(rs),
        marksNote(),
        h('div', { class: 'more-links' }, opts.links)),
      h('div', { class: 'card' }, h('h2', {}, 'Evaluation'), parts.graph),
      h('div', { class: 'card moves-card' }, h('h2', {}, 'Moves'), parts.list)));
}

/**
 * A side's player as the record names it, in words: "Computer · level 2" for
 * `computer:level:2`, a name as it is; nothing for a person with no name.
 * @param {string | null | undefined} player
 */
function playerWords(player) {
  if (!player || player === 'human') return '';
  const computer = computerOf(player);
  return computer ? computerName(computer) : player;
}

/**
 * Each side's accuracy and its counts of marked moves.
 * @param {ReviewState} rs
 * @returns {HTMLElement}
 */
export function summaryView(rs) {
  const { review, names } = rs;
  return h('table', { class: 'review-summary', id: 'review-summary' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Accuracy'), h('th', { title: 'inaccuracies' }, '?!'), h('th', { title: 'mistakes' }, '?'), h('th', { title: 'blunders' }, '??'))),
    h('tbody', {}, review.sides.map((sd) => h('tr', {},
      h('th', { scope: 'row' }, review.solitaire ? 'You' : names[sd.seat], playerWords(sd.player) ? h('span', { class: 'muted' }, ` (${playerWords(sd.player)})`) : null),
      h('td', {}, sd.accuracy == null ? '—' : `${Math.round(sd.accuracy)}%`),
      h('td', {}, String(sd.inaccuracies)), h('td', {}, String(sd.mistakes)), h('td', {}, String(sd.blunders))))));
}

/**
 * The evaluation graph, the move shown marked; a click goes to the move under it.
 * @param {ReviewState} rs
 * @param {(p: number) => void} show
 * @returns {SVGElement}
 */
export function graphView(rs, show) {
  const { review, n, scores, sides, words, ply } = rs;
  const W = 600;
  const H = 170;
  // Bands at the top and the bottom hold the labels: the line stays between them, so a game
  // lost from the first move runs along the lower band's edge, not over "… better".
  const BAND = 32;
  const x = (i) => (n ? (i / n) * W : 0);
  const y = (v) => BAND + (1 - v) * (H - 2 * BAND);
  const pts = scores.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-svg', role: 'img', style: shareColours(...sides), 'aria-label': `Evaluation after each move: up is good for ${words[0]}, down for ${words[1]}. Click to go to a move.` },
    s('rect', { x: 0, y: 0, width: W, height: H, class: 'eval-bg' }),
    s('polygon', { points: `0,${H} ${pts.join(' ')} ${x(n)},${H}`, class: 'eval-area' }),
    s('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'eval-mid' }),
    s('polyline', { points: pts.join(' '), class: 'eval-line' }),
    review.plies.filter((p) => SYMBOL[p.grade]).map((p) => s('circle', { cx: x(p.number), cy: y(scores[p.number]), r: 5, class: `eval-mark grade-${p.grade}` }, s('title', {}, `${p.number}. ${p.move} ${SYMBOL[p.grade]}`))),
    s('line', { x1: x(ply), x2: x(ply), y1: 0, y2: H, class: 'eval-now' }),
    s('text', { x: 8, y: 24, class: 'eval-label' }, `${words[0]} better`),
    s('text', { x: 8, y: H - 9, class: 'eval-label' }, `${words[1]} better`));
  svg.addEventListener('click', (ev) => {
    const r = svg.getBoundingClientRect();
    show(Math.round(((ev.clientX - r.left) / r.width) * n));
  });
  return svg;
}

/**
 * The move list's items, each with its grade; the move shown is current.
 * @param {ReviewState} rs
 * @param {(p: number) => void} show
 * @returns {HTMLElement[]}
 */
export function moveItems(rs, show) {
  const { review, ply } = rs;
  return review.plies.map((p) => h('li', { class: 'mv-item' },
    h('span', { class: 'mv-num' }, `${p.number}.`),
    h('button', {
      type: 'button', class: ['mv', p.number === ply ? 'mv-current' : '', `grade-${p.grade}`], 'data-ply': p.number,
      'aria-label': `Move ${p.number}${p.colour ? ` (${cap(p.colour)})` : ''}: ${p.move}, ${GRADE_WORDS[p.grade]}`,
      'aria-current': p.number === ply ? 'true' : null, onclick: () => show(p.number),
    }, p.colour && !review.solitaire ? h('span', { class: `mv-dot mv-dot-${p.colour}`, 'aria-hidden': 'true' }) : null, p.move,
    SYMBOL[p.grade] ? h('span', { class: 'grade-mark' }, SYMBOL[p.grade]) : null)));
}

/**
 * What is said under the board: the move shown with its grade and comment, and the best move
 * from the position shown.
 * @param {ReviewState} rs
 * @returns {(HTMLElement|string)[]}
 */
export function commentParts(rs) {
  const { review, n, ply } = rs;
  const parts = [];
  if (ply === 0) parts.push(h('strong', {}, 'Start position.'));
  else {
    const p = review.plies[ply - 1];
    parts.push(h('strong', { class: `grade-${p.grade}` }, `${p.number}. ${p.move}${SYMBOL[p.grade] || ''} — ${GRADE_WORDS[p.grade]}.`), ' ', commentAfter(p), ' ', h('span', { class: 'muted' }, `(${p.value_text})`));
  }
  if (ply < n) {
    const next = review.plies[ply];
    parts.push(h('div', { class: 'review-best' }, 'Best here: ', h('strong', {}, next.best),
      next.pv.length > 1 ? h('span', { class: 'muted' }, ` (then ${next.pv.slice(1, 6).join(' ')})`) : null,
      ' — marked on the board.'));
  }
  return parts;
}

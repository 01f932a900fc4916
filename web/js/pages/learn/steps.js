// What a tutorial page knows and does: the step shown and whether it is being played, done or
// loading; a move is judged against the step's lesson, and how each step was done is kept in
// this browser.

import { h, mount } from '../../util.js';
import { positionView } from '../../engine/index.js';
import { fitBoard } from '../../practice.js';
import { learnProgress } from './progress.js';
import { crumbsView, dotsView, buttonsView, endView } from './views.js';

/**
 * A tutorial page's state, its elements and the practice board.
 * @typedef {object} LearnPage
 * @property {HTMLElement} root
 * @property {string} game
 * @property {any} tutorial the tutorial (GET /api/tutorials/GAME)
 * @property {any[]} steps its steps
 * @property {{step: number, done: Record<string, string>}} progress how each step was done
 * @property {number} index the step shown (the steps' count at the end)
 * @property {'play'|'solved'|'shown'|'busy'} state
 * @property {boolean} hinted the hint of this step was asked for: done with help, not alone
 * @property {boolean} closed the page has been left
 * @property {LearnElements} el
 * @property {import('../../practice.js').Practice} practice
 */

/**
 * @typedef {object} LearnElements
 * @property {HTMLElement} crumbs
 * @property {HTMLElement} dots
 * @property {HTMLElement} title
 * @property {HTMLElement} text
 * @property {HTMLElement} buttons
 * @property {HTMLElement} boardCol
 * @property {HTMLElement} head
 */

/**
 * The step shown.
 * @param {LearnPage} pg
 */
export function step(pg) {
  return pg.steps[pg.index];
}

/**
 * Whether every legal move of `view` succeeds in `step`: finding one is then the task, and
 * marking where moves start would give the answer away.
 */
function findingIsTheTask(step, view) {
  return (view.legal_moves || []).every((m) => step.goal.includes(m));
}

/**
 * Fits the board to the window, leaving room for what goes under it.
 * @param {LearnPage} pg
 */
export function fit(pg) {
  if (pg.closed) return;
  const narrow = !window.matchMedia('(min-width: 900px)').matches;
  fitBoard(pg.practice, [pg.practice.el.feedback, pg.practice.el.actions, narrow ? pg.el.buttons : null]);
}

/**
 * Keeps the step reached and, with `result`, how it was done (done alone stays so).
 * @param {LearnPage} pg
 * @param {string|null} result
 */
function save(pg, result) {
  const p = learnProgress.get(pg.game);
  p.step = pg.index;
  if (result && p.done[pg.index] !== 'solved') p.done[pg.index] = result;
  learnProgress.set(pg.game, p);
  pg.progress.done = p.done;
}

/**
 * Judges `move` against the step: one of its goals finishes it, another is refused with the
 * lesson's words.
 * @param {LearnPage} pg
 * @param {string} move
 */
export async function judge(pg, move) {
  const s = step(pg);
  if (pg.state !== 'play') return;
  if (!s.goal.includes(move)) {
    const m = s.mistakes.find((x) => x.move === move);
    pg.practice.reject(m ? m.text : s.wrong);
    return;
  }
  await finish(pg, move, 'solved');
}

/**
 * Plays `move`, which finishes the step, done as `result`; then the focus is on Next.
 * @param {LearnPage} pg
 * @param {string} move
 * @param {'solved'|'shown'} result
 */
async function finish(pg, move, result) {
  const s = step(pg);
  const { practice } = pg;
  pg.state = 'busy';
  practice.enable(false);
  try {
    const after = await positionView({ game: pg.game, options: s.options, position: s.position, moves: [move] });
    if (pg.closed) return;
    pg.state = result;
    // Kept as done alone, with a hint, or shown.
    save(pg, result === 'solved' && pg.hinted ? 'hinted' : result);
    practice.show(after, false);
    practice.say(result === 'shown' ? `Here is one way: ${s.done}` : s.done, 'ok');
  } catch (e) {
    pg.state = 'play';
    practice.enable(true);
    practice.say(e.message, 'error');
  }
  renderChrome(pg);
  const next = /** @type {HTMLElement|null} */ (pg.el.buttons.querySelector('#btn-next'));
  if (next) next.focus({ preventScroll: true });
}

/**
 * Opens step `i`, or the end of the tutorial past the last.
 * @param {LearnPage} pg
 * @param {number} i
 */
export async function load(pg, i) {
  pg.index = i;
  pg.hinted = false;
  save(pg, null);
  pg.state = 'busy';
  renderChrome(pg);
  if (pg.index >= pg.steps.length) {
    renderEnd(pg);
    return;
  }
  const s = step(pg);
  try {
    const view = await positionView({ game: pg.game, options: s.options, position: s.position });
    if (pg.closed || pg.index !== i) return;
    pg.state = 'play';
    pg.practice.show(view, true, { startMarks: !findingIsTheTask(s, view) });
    pg.practice.say('');
  } catch (e) {
    pg.practice.say(`Cannot load this step: ${e.message}`, 'error');
  }
  renderChrome(pg);
}

/**
 * Draws the heading and the buttons of the step shown, and marks the page's state on its root.
 * @param {LearnPage} pg
 */
function renderChrome(pg) {
  const { root, el, steps, index, tutorial } = pg;
  root.dataset.step = String(index);
  root.dataset.state = pg.state;
  if (index >= steps.length) return;
  const s = step(pg);
  document.title = `${tutorial.title} tutorial · boardlab`;
  mount(el.crumbs, ...crumbsView(pg.game, tutorial.title));
  mount(el.dots, dotsView(steps, index, pg.progress.done, (i) => load(pg, i)));
  el.title.textContent = '';
  el.title.append(h('span', { class: 'step-count' }, `Step ${index + 1} of ${steps.length}`), s.title);
  el.text.textContent = s.text;
  mount(el.buttons, ...buttonsView(pg.state, index + 1 >= steps.length, {
    hint: () => { pg.hinted = true; pg.practice.say(s.hint, 'advice'); },
    show: () => finish(pg, s.show, 'shown'),
    again: () => load(pg, pg.index),
    next: () => load(pg, pg.index + 1),
  }));
  requestAnimationFrame(() => fit(pg));
}

/**
 * The end of the tutorial, in place of the page; Start again puts the page back at step one.
 * @param {LearnPage} pg
 */
function renderEnd(pg) {
  const { root, el } = pg;
  document.title = `${pg.tutorial.title} tutorial · boardlab`;
  mount(root, endView(pg.game, pg.tutorial, pg.progress.done, () => {
    mount(root, h('div', { class: 'practice' }, el.head, el.boardCol, el.buttons));
    load(pg, 0);
  }));
}

// What a puzzle page knows and does: the moves played, whether a move is being judged or the
// puzzle is solved, the colour played; each move goes to the judge (the engine in the page, the
// server where the engine cannot run), and the line is kept in this browser.

import { mount } from '../../util.js';
import { positionView, puzzleJudgement, puzzleHint } from '../../engine/index.js';
import { fitBoard } from '../../practice.js';
import { GAME, puzzleProgress, puzzleId } from './progress.js';
import { headView, buttonsView } from './views.js';

/**
 * A puzzle page's state, its elements and the practice board.
 * @typedef {object} PuzzlePage
 * @property {HTMLElement} root
 * @property {string} id the puzzle
 * @property {any} entry the puzzle (GET /api/puzzles/ID)
 * @property {boolean} win a "win from here" puzzle, where the computer answers
 * @property {string[]} moves the line played
 * @property {'play'|'busy'|'solved'} state
 * @property {string|null} player the colour the player plays in a "win from here" puzzle
 * @property {boolean} closed the page has been left
 * @property {boolean} solvedBefore solved on an earlier visit
 * @property {{head: HTMLElement, boardCol: HTMLElement, buttons: HTMLElement}} el
 * @property {import('../../practice.js').Practice} practice
 */

/**
 * Fits the board to the window, leaving room for what goes under it.
 * @param {PuzzlePage} pg
 */
export function fit(pg) {
  if (pg.closed) return;
  const narrow = !window.matchMedia('(min-width: 900px)').matches;
  fitBoard(pg.practice, [pg.practice.el.feedback, pg.practice.el.actions, narrow ? pg.el.buttons : null]);
}

/**
 * Keeps the line (or that the puzzle is solved) in this browser.
 * @param {PuzzlePage} pg
 */
export function saveLine(pg) {
  puzzleProgress.update((p) => {
    if (pg.moves.length && pg.state !== 'solved') p.lines[pg.id] = pg.moves.slice();
    else delete p.lines[pg.id];
    if (pg.state === 'solved') p.solved[pg.id] = true;
  });
}

/**
 * Shows the position after `line`; the first time, learns the colour played from the start.
 * @param {PuzzlePage} pg
 * @param {string[]} line
 * @param {boolean} enabled
 */
export async function show(pg, line, enabled) {
  const { entry } = pg;
  const view = await positionView({ game: GAME, options: entry.options, position: entry.position, moves: line });
  if (pg.closed) return null;
  if (!pg.player && !line.length) pg.player = view.to_move && view.to_move.colour;
  pg.practice.show(view, enabled);
  return view;
}

/**
 * Sends `move` to the judge: taken back with its words, or kept, with the computer's answer in
 * "win from here".
 * @param {PuzzlePage} pg
 * @param {string} move
 */
export async function play(pg, move) {
  const { practice } = pg;
  if (pg.state !== 'play') return;
  pg.state = 'busy';
  practice.enable(false);
  practice.say('Checking…', 'pending');
  renderChrome(pg);
  try {
    const line = pg.moves.concat([move]);
    const j = await puzzleJudgement(pg.id, line);
    if (pg.closed) return;
    if (j.verdict === 'mistake') {
      pg.state = 'play';
      practice.enable(true);
      practice.reject(j.text);
      renderChrome(pg);
      return;
    }
    pg.moves = line;
    if (j.solved) pg.state = 'solved';
    await show(pg, pg.moves, false);
    if (j.reply) {
      practice.say(`${j.text} The computer is thinking…`, 'pending');
      await new Promise((r) => setTimeout(r, 350));
      pg.moves = pg.moves.concat([j.reply]);
      await show(pg, pg.moves, true);
      const them = pg.player === 'white' ? 'Black' : 'White';
      practice.say(`${them} answers ${j.reply}. Your turn.`, '');
    } else if (j.solved) {
      practice.say(j.text, 'ok');
    } else {
      practice.enable(true);
      practice.say(j.text, '');
    }
    if (pg.state !== 'solved') pg.state = 'play';
    saveLine(pg);
  } catch (e) {
    pg.state = 'play';
    practice.enable(true);
    practice.say(e.message, 'error');
  }
  renderChrome(pg);
}

/**
 * Takes back one move (in "win from here", the computer's answer with it), or all of them.
 * @param {PuzzlePage} pg
 * @param {boolean} all
 */
async function back(pg, all) {
  const { moves } = pg;
  if (pg.state === 'busy' || !moves.length) return;
  if (all) pg.moves = [];
  else if (pg.win) pg.moves = moves.slice(0, moves.length % 2 ? -1 : -2);
  else pg.moves = moves.slice(0, -1);
  pg.state = 'busy';
  renderChrome(pg);
  await show(pg, pg.moves, true);
  pg.state = 'play';
  pg.practice.say('');
  saveLine(pg);
  renderChrome(pg);
}

/** @param {PuzzlePage} pg */
async function hint(pg) {
  if (pg.state !== 'play') return;
  try {
    const h2 = await puzzleHint(pg.id, pg.moves);
    pg.practice.say(h2.text, 'advice');
    if (h2.move) pg.practice.mark(h2.move);
  } catch (e) {
    pg.practice.say(e.message, 'error');
  }
}

/**
 * The next puzzle of the same kind and grade as `entry` not solved yet.
 * @param {{word: string, difficulty: string, number: number}} entry
 * @returns {string}
 */
function nextId({ word, difficulty, number }) {
  const solved = puzzleProgress.get().solved;
  for (let n = number + 1; n < number + 1000; n += 1) {
    const next = puzzleId(word, difficulty, n);
    if (!solved[next]) return next;
  }
  return puzzleId(word, difficulty, number + 1);
}

/**
 * Draws the heading and the buttons, and marks the page's state on its root.
 * @param {PuzzlePage} pg
 */
export function renderChrome(pg) {
  const { root, state } = pg;
  root.dataset.moves = String(pg.moves.length);
  root.dataset.state = state;
  mount(pg.el.head, ...headView(pg.entry, { solved: state === 'solved', solvedBefore: pg.solvedBefore, win: pg.win, player: pg.player }));
  mount(pg.el.buttons, ...buttonsView(state, pg.moves.length, `/puzzles/${nextId(pg.entry)}`, {
    hint: () => hint(pg),
    back: () => back(pg, false),
    restart: () => back(pg, true),
  }));
  requestAnimationFrame(() => fit(pg));
}

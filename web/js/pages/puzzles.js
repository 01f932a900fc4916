// Sight Reduction puzzles: `/puzzles` lists them by kind and grade, `/puzzles/ID` plays one.
// The engine in the page makes each puzzle and judges every move with its solvers (the server,
// GET /api/puzzles/ID and POST /api/puzzles/ID/moves, where the engine cannot run): a move that
// throws the solution away is taken back with the judge's words; in "win from here" the
// computer answers with its best defence. Solved puzzles and unfinished lines stay in this browser.
// The puzzle page's parts are in ./puzzles/: what is kept, the page state and its moves, the
// views; here they meet.

import { h, mount, cap } from '../util.js';
import { api } from '../api.js';
import { puzzleEntry } from '../engine/index.js';
import { Practice } from '../practice.js';
import { resultSentence } from './shared.js';
import { GAME, puzzleProgress, puzzleId, highestKept } from './puzzles/progress.js';
import { fit, saveLine, show, play, renderChrome } from './puzzles/play.js';

/** Puzzle numbers shown per grade at least. */
const SHOWN = 8;

export { puzzleProgress };

/** @typedef {import('./puzzles/play.js').PuzzlePage} PuzzlePage */

/**
 * The list of puzzles, by kind and grade, with those solved or started here marked.
 * @param {HTMLElement} root
 * @returns {Promise<null>}
 */
export async function puzzlesPage(root) {
  root.className = 'puzzles-root';
  document.title = 'Puzzles · boardlab';
  const list = await api.puzzles();
  const p = puzzleProgress.get();
  mount(root, h('section', { class: 'page narrow' },
    h('h1', {}, 'Sight Reduction puzzles'),
    h('p', { class: 'lead' }, 'Every move is checked by the exact solver. New to the game? ', h('a', { href: `/learn/${GAME}` }, 'Take the tutorial'), ' first.'),
    list.kinds.map((k) => h('section', { class: 'card puzzle-kind', 'data-kind': k.kind },
      h('h2', {}, k.title),
      h('p', {}, k.goal),
      list.difficulties.map((grade) => {
        const n = Math.max(SHOWN, highestKept(p, k.word, grade) + 2);
        const items = [];
        for (let i = 1; i <= n; i += 1) {
          const id = puzzleId(k.word, grade, i);
          const solved = !!p.solved[id];
          const started = !solved && !!(p.lines[id] && p.lines[id].length);
          items.push(h('li', {}, h('a', {
            class: ['puzzle-link', solved ? 'solved' : '', started ? 'started' : ''], href: `/puzzles/${id}`, 'data-puzzle': id,
            'aria-label': `${cap(grade)} puzzle ${i}${solved ? ', solved' : started ? ', started' : ''}`,
          }, solved ? `✓ ${i}` : String(i))));
        }
        return h('div', { class: 'puzzle-grade' }, h('h3', {}, cap(grade)), h('ol', { class: 'puzzle-links' }, items));
      })))));
  return null;
}

/**
 * The practice board of a puzzle page, wired to the page: what the line over the board says
 * whose turn it is, and why the board takes no click.
 * @param {PuzzlePage} pg
 */
function makePractice(pg) {
  return new Practice({
    game: GAME,
    play: (move) => play(pg, move),
    turn: (view) => {
      const { state, win, player } = pg;
      if (state === 'solved') return win ? `${cap(player)} wins` : 'Solved';
      if (view.result) return resultSentence(view.result.text);
      const colour = view.to_move && view.to_move.colour;
      if (!colour) return '';
      if (!win) return `${cap(colour)} to remove — you remove for both colours`;
      return colour === player ? `${cap(colour)} to move — your turn` : `${cap(colour)} to move — the computer is thinking`;
    },
    why: () => (pg.state === 'solved' ? 'Solved! Try the next puzzle.' : 'Just a moment…'),
    rendered: () => requestAnimationFrame(() => fit(pg)),
  });
}

/**
 * Plays puzzle `id` in `root`, from the line left unfinished here. Returns what to do on
 * leaving the page, or null when there is no such puzzle.
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {Promise<(() => void)|null>}
 */
export async function puzzlePage(root, id) {
  root.className = 'practice-root';
  mount(root, h('section', { class: 'page narrow' }, h('p', { class: 'muted' }, 'Making the puzzle…')));
  let entry;
  try {
    entry = await puzzleEntry(id);
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No such puzzle'), h('p', { class: 'error-text' }, e.message),
      h('p', {}, h('a', { href: '/puzzles' }, 'All puzzles'))));
    return null;
  }
  const pg = /** @type {PuzzlePage} */ ({
    root, id, entry, win: entry.kind === 'win',
    moves: (puzzleProgress.get().lines[id] || []).slice(), state: 'busy', player: null, closed: false,
    solvedBefore: !!puzzleProgress.get().solved[id],
    el: {
      head: h('header', { class: 'practice-head' }),
      boardCol: h('section', { class: 'practice-board-col', 'aria-label': 'Board' }),
      buttons: h('div', { class: 'practice-buttons' }),
    },
  });
  pg.practice = makePractice(pg);
  mount(pg.el.boardCol, pg.practice.parts());
  mount(root, h('div', { class: 'practice' }, pg.el.head, pg.el.boardCol, pg.el.buttons));
  document.title = `${entry.title} · puzzle · boardlab`;
  const onResize = () => requestAnimationFrame(() => fit(pg));
  window.addEventListener('resize', onResize);

  try {
    if (pg.moves.length) await show(pg, [], false); // learn the player's colour from the start
    await show(pg, pg.moves, true);
    pg.state = 'play';
  } catch {
    // A saved line that no longer plays: start afresh.
    pg.moves = [];
    await show(pg, pg.moves, true);
    pg.state = 'play';
    saveLine(pg);
  }
  renderChrome(pg);
  return () => {
    pg.closed = true;
    pg.practice.close();
    window.removeEventListener('resize', onResize);
  };
}

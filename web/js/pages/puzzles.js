// Sight Reduction puzzles: `/puzzles` lists them by kind and grade, `/puzzles/ID` plays one.
// The server makes each puzzle (GET /api/puzzles/ID) and judges every move with its solvers
// (POST /api/puzzles/ID/moves): a move that throws the solution away is taken back with the
// judge's words; in "win from here" the computer answers with its best defence. Positions are
// drawn through POST /api/positions. Solved puzzles and unfinished lines stay in this browser.

import { h, mount, cap } from '../util.js';
import { api } from '../api.js';
import { Practice, fitBoard } from '../practice.js';
import { resultSentence } from './shared.js';

const KEY = 'boardlab:puzzles';
const GAME = 'sight-reduction';
/** Puzzle numbers shown per grade at least. */
const SHOWN = 8;

/** Solved puzzles and unfinished lines: {solved: {id: true}, lines: {id: [moves]}}. */
export const puzzleProgress = {
  get() {
    try {
      const p = JSON.parse(/** @type {string} */ (localStorage.getItem(KEY)));
      return { solved: (p && p.solved) || {}, lines: (p && p.lines) || {} };
    } catch {
      return { solved: {}, lines: {} };
    }
  },
  update(fn) {
    const p = puzzleProgress.get();
    fn(p);
    try {
      localStorage.setItem(KEY, JSON.stringify(p));
    } catch {
      // Without storage, progress lasts until the page closes.
    }
    return p;
  },
};

/** @typedef {{word: string, grade: string, number: number}} PuzzleId */

/**
 * The parts of a puzzle's id (`clear-easy-1`), or null for another string.
 * @param {string} id
 * @returns {PuzzleId | null}
 */
function parseId(id) {
  const m = /^([a-z]+)-([a-z]+)-([1-9][0-9]*)$/.exec(id);
  return m ? { word: m[1], grade: m[2], number: Number(m[3]) } : null;
}

export async function puzzlesPage(root) {
  root.className = 'puzzles-root';
  document.title = 'Puzzles · boardlab';
  const list = await api.puzzles();
  const p = puzzleProgress.get();
  const highest = (word, grade) => Object.keys(p.solved).concat(Object.keys(p.lines))
    .map(parseId).filter((x) => x && x.word === word && x.grade === grade)
    .reduce((m, x) => Math.max(m, /** @type {PuzzleId} */ (x).number), 0);
  mount(root, h('section', { class: 'page narrow' },
    h('h1', {}, 'Sight Reduction puzzles'),
    h('p', { class: 'lead' }, 'Every move is checked by the exact solver. New to the game? ', h('a', { href: `/learn/${GAME}` }, 'Take the tutorial'), ' first.'),
    list.kinds.map((k) => h('section', { class: 'card puzzle-kind', 'data-kind': k.kind },
      h('h2', {}, k.title),
      h('p', {}, k.goal),
      list.difficulties.map((grade) => {
        const n = Math.max(SHOWN, highest(k.word, grade) + 2);
        const items = [];
        for (let i = 1; i <= n; i += 1) {
          const id = `${k.word}-${grade}-${i}`;
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

export async function puzzlePage(root, id) {
  root.className = 'practice-root';
  // The puzzles' ids all have this form (the server answers no other).
  const parsed = /** @type {PuzzleId} */ (parseId(id));
  mount(root, h('section', { class: 'page narrow' }, h('p', { class: 'muted' }, 'Making the puzzle…')));
  let entry;
  try {
    entry = await api.puzzle(id);
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No such puzzle'), h('p', { class: 'error-text' }, e.message),
      h('p', {}, h('a', { href: '/puzzles' }, 'All puzzles'))));
    return null;
  }
  const win = entry.kind === 'win';
  let moves = (puzzleProgress.get().lines[id] || []).slice();
  let state = 'busy'; // 'play' | 'busy' | 'solved'
  let player = null; // the colour the player plays in a "win from here" puzzle
  let closed = false;
  const solvedBefore = !!puzzleProgress.get().solved[id];

  const el = {
    head: h('header', { class: 'practice-head' }),
    boardCol: h('section', { class: 'practice-board-col', 'aria-label': 'Board' }),
    buttons: h('div', { class: 'practice-buttons' }),
  };
  const practice = new Practice({
    game: GAME,
    play: (move) => play(move),
    turn: (view) => {
      if (state === 'solved') return win ? `${cap(player)} wins` : 'Solved';
      if (view.result) return resultSentence(view.result.text);
      const colour = view.to_move && view.to_move.colour;
      if (!colour) return '';
      if (!win) return `${cap(colour)} to remove — you remove for both colours`;
      return colour === player ? `${cap(colour)} to move — your turn` : `${cap(colour)} to move — the computer is thinking`;
    },
    why: () => (state === 'solved' ? 'Solved! Try the next puzzle.' : 'Just a moment…'),
    rendered: () => requestAnimationFrame(fit),
  });
  mount(el.boardCol, practice.parts());
  mount(root, h('div', { class: 'practice' }, el.head, el.boardCol, el.buttons));
  document.title = `${entry.title} · puzzle · boardlab`;

  function fit() {
    if (closed) return;
    const narrow = !window.matchMedia('(min-width: 900px)').matches;
    fitBoard(practice, [practice.el.feedback, practice.el.actions, narrow ? el.buttons : null]);
  }
  const onResize = () => requestAnimationFrame(fit);
  window.addEventListener('resize', onResize);

  function saveLine() {
    puzzleProgress.update((p) => {
      if (moves.length && state !== 'solved') p.lines[id] = moves.slice();
      else delete p.lines[id];
      if (state === 'solved') p.solved[id] = true;
    });
  }

  function position(line) {
    return api.position({ game: GAME, options: entry.options, position: entry.position, moves: line });
  }

  async function show(line, enabled) {
    const view = await position(line);
    if (closed) return null;
    if (!player && !line.length) player = view.to_move && view.to_move.colour;
    practice.show(view, enabled);
    return view;
  }

  async function play(move) {
    if (state !== 'play') return;
    state = 'busy';
    practice.enable(false);
    practice.say('Checking…', 'pending');
    renderChrome();
    try {
      const line = moves.concat([move]);
      const j = await api.puzzleMove(id, line);
      if (closed) return;
      if (j.verdict === 'mistake') {
        state = 'play';
        practice.enable(true);
        practice.reject(j.text);
        renderChrome();
        return;
      }
      moves = line;
      if (j.solved) state = 'solved';
      await show(moves, false);
      if (j.reply) {
        practice.say(`${j.text} The computer is thinking…`, 'pending');
        await new Promise((r) => setTimeout(r, 350));
        moves = moves.concat([j.reply]);
        await show(moves, true);
        const them = player === 'white' ? 'Black' : 'White';
        practice.say(`${them} answers ${j.reply}. Your turn.`, '');
      } else if (j.solved) {
        practice.say(j.text, 'ok');
      } else {
        practice.enable(true);
        practice.say(j.text, '');
      }
      if (state !== 'solved') state = 'play';
      saveLine();
    } catch (e) {
      state = 'play';
      practice.enable(true);
      practice.say(e.message, 'error');
    }
    renderChrome();
  }

  async function back(all) {
    if (state === 'busy' || !moves.length) return;
    if (all) moves = [];
    else if (win) moves = moves.slice(0, moves.length % 2 ? -1 : -2);
    else moves = moves.slice(0, -1);
    state = 'busy';
    renderChrome();
    await show(moves, true);
    state = 'play';
    practice.say('');
    saveLine();
    renderChrome();
  }

  async function hint() {
    if (state !== 'play') return;
    try {
      const h2 = await api.puzzleHint(id, moves);
      practice.say(h2.text, 'advice');
      if (h2.move) practice.mark(h2.move);
    } catch (e) {
      practice.say(e.message, 'error');
    }
  }

  function nextId() {
    const solved = puzzleProgress.get().solved;
    for (let n = parsed.number + 1; n < parsed.number + 1000; n += 1) {
      const next = `${parsed.word}-${parsed.grade}-${n}`;
      if (!solved[next]) return next;
    }
    return `${parsed.word}-${parsed.grade}-${parsed.number + 1}`;
  }

  function renderChrome() {
    root.dataset.moves = String(moves.length);
    root.dataset.state = state;
    const btn = (label, attrs) => h('button', { type: 'button', class: 'btn', ...attrs }, label);
    const playing = state === 'play';
    const solved = state === 'solved';
    mount(el.head,
      h('div', { class: 'practice-crumbs' }, h('a', { href: '/puzzles' }, 'Puzzles'), ' · ', h('a', { href: `/learn/${GAME}` }, 'Tutorial')),
      h('h1', { class: 'practice-title' }, h('span', { class: 'step-count' }, `${cap(entry.difficulty)} · puzzle ${entry.number}${solved ? ' · solved' : solvedBefore ? ' · solved before' : ''}`), entry.title),
      h('p', { class: 'practice-text' }, win && player ? `You play ${cap(player)}. ${entry.goal}` : entry.goal));
    mount(el.buttons,
      btn('Hint', { id: 'btn-hint', disabled: !playing, onclick: hint }),
      btn('Take back', { id: 'btn-back', disabled: state === 'busy' || !moves.length, onclick: () => back(false) }),
      btn('Start again', { id: 'btn-restart', disabled: state === 'busy' || !moves.length, onclick: () => back(true) }),
      h('a', { class: ['btn', solved ? 'btn-primary' : ''], id: 'btn-next', href: `/puzzles/${nextId()}` }, 'Next puzzle'));
    requestAnimationFrame(fit);
  }

  try {
    if (moves.length) await show([], false); // learn the player's colour from the start
    await show(moves, true);
    state = 'play';
  } catch {
    // A saved line that no longer plays: start afresh.
    moves = [];
    await show(moves, true);
    state = 'play';
    saveLine();
  }
  renderChrome();
  return () => {
    closed = true;
    practice.close();
    window.removeEventListener('resize', onResize);
  };
}

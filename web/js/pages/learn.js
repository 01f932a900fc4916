// The tutorials: `/learn` lists the games, `/learn/GAME` teaches one, a step at a time. Each
// step is a lesson written and checked by the game's crate (GET /api/tutorials/GAME): a real
// position, drawn and played through POST /api/positions, and the moves that succeed. A move
// outside them is refused with the lesson's words; a click the game refuses, with the lesson's
// words where it has some, else the game's. Where every legal move succeeds, finding one is the
// lesson: the board then does not mark where moves start. Progress stays in this browser.
// The tutorial page's parts are in ./learn/: what is kept, the page state and its steps, the
// views; here they meet.

import { h, mount, cap } from '../util.js';
import { api, catalog } from '../api.js';
import { Practice } from '../practice.js';
import { emblem } from '../games/emblems.js';
import { resultSentence } from './shared.js';
import { learnProgress } from './learn/progress.js';
import { step, fit, judge, load } from './learn/steps.js';

export { learnProgress };

/**
 * The list of tutorials, with how far each went here.
 * @param {HTMLElement} root
 * @returns {Promise<null>}
 */
export async function learnIndexPage(root) {
  root.className = 'learn-root';
  const cat = await catalog();
  document.title = 'Learn · boardlab';
  const rows = await Promise.all(cat.games.map(async (g) => {
    let steps = null;
    try {
      steps = (await api.tutorial(g.name)).steps.length;
    } catch {
      steps = null;
    }
    return { g, steps };
  }));
  mount(root, h('section', { class: 'page narrow' },
    h('h1', {}, 'Learn to play'),
    h('p', { class: 'lead' }, 'Each tutorial is a few short steps on real positions: read what to do, then make the move on the board. A hint and a "show me" button are there when you need them.'),
    h('ul', { class: 'learn-list' }, rows.filter((r) => r.steps).map(({ g, steps }) => {
      const p = learnProgress.get(g.name);
      const done = Object.keys(p.done).length;
      return h('li', {},
        h('a', { class: 'learn-card', href: `/learn/${g.name}`, 'data-game': g.name },
          emblem(g.name),
          h('span', { class: 'lc-words' },
            h('strong', {}, g.title),
            h('span', { class: 'muted' }, `${steps} steps${done ? ` · ${done} done` : ''}`)),
          h('span', { class: 'btn btn-primary' }, done >= steps ? 'Again' : done ? 'Continue' : 'Start')));
    })),
    h('p', {}, 'For Sight Reduction there are also ', h('a', { href: '/puzzles' }, 'puzzles'), '.')));
  return null;
}

/** @typedef {import('./learn/steps.js').LearnPage} LearnPage */

/**
 * The practice board of a tutorial page, wired to the page: the lesson's words for a refused
 * click, what the line over the board says whose turn it is, and why the board takes no click.
 * @param {LearnPage} pg
 */
function makePractice(pg) {
  return new Practice({
    game: pg.game,
    play: (move) => judge(pg, move),
    refuse: (cell) => {
      // The lesson's words for a click it names, while the step is being played.
      const m = pg.state === 'play' && step(pg).mistakes.find((x) => x.cell === cell);
      return m ? m.text : null;
    },
    turn: (view) => {
      const { state } = pg;
      if (view.result) return resultSentence(view.result.text);
      if (state === 'solved' || state === 'shown') return 'Step done'; // nobody moves next
      const colour = view.to_move && view.to_move.colour;
      if (!colour) return '';
      if (state !== 'play') return `${cap(colour)} to move`;
      return view.solitaire ? `${cap(colour)} to remove — you play both colours` : `${cap(colour)} to move — your turn`;
    },
    why: () => (pg.state === 'busy' ? 'Just a moment…' : 'This step is done: press Next, or Try again.'),
    rendered: () => requestAnimationFrame(() => fit(pg)),
  });
}

/**
 * Teaches `game` in `root`, from the step reached here before. Returns what to do on leaving
 * the page, or null when the game has no tutorial.
 * @param {HTMLElement} root
 * @param {string} game
 * @returns {Promise<(() => void)|null>}
 */
export async function learnPage(root, game) {
  root.className = 'practice-root';
  const cat = await catalog();
  const info = cat.games.find((g) => g.name === game);
  /** @type {any} */
  let tutorial = null;
  /** @type {string | null} */
  let problem = null;
  if (!info) problem = 'There is no such game.';
  else {
    try {
      tutorial = await api.tutorial(game);
    } catch (e) {
      problem = e.status === 404 ? `${info.title} has no tutorial yet.` : e.message;
    }
  }
  if (!tutorial) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No tutorial'), h('p', { class: 'error-text' }, problem),
      h('p', {}, h('a', { href: '/learn' }, 'All tutorials'))));
    return null;
  }
  const steps = tutorial.steps;
  const progress = learnProgress.get(game);
  const pg = /** @type {LearnPage} */ ({
    root, game, tutorial, steps, progress,
    index: Math.min(Math.max(0, progress.step), steps.length), state: 'play', hinted: false, closed: false,
    el: {
      crumbs: h('div', { class: 'practice-crumbs' }),
      dots: h('ol', { class: 'step-dots', 'aria-label': 'Steps' }),
      title: h('h1', { class: 'practice-title' }),
      text: h('p', { class: 'practice-text' }),
      buttons: h('div', { class: 'practice-buttons' }),
      boardCol: h('section', { class: 'practice-board-col', 'aria-label': 'Board' }),
      head: h('header', { class: 'practice-head' }),
    },
  });
  const { el } = pg;
  pg.practice = makePractice(pg);
  mount(el.head, el.crumbs, el.dots, el.title, el.text);
  mount(el.boardCol, pg.practice.parts());
  mount(root, h('div', { class: 'practice' }, el.head, el.boardCol, el.buttons));
  const onResize = () => requestAnimationFrame(() => fit(pg));
  window.addEventListener('resize', onResize);

  await load(pg, pg.index);
  return () => {
    pg.closed = true;
    pg.practice.close();
    window.removeEventListener('resize', onResize);
  };
}

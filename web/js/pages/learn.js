// The tutorials: `/learn` lists the games, `/learn/GAME` teaches one, a step at a time. Each
// step is a lesson written and checked by the game's crate (GET /api/tutorials/GAME): a real
// position, drawn and played through POST /api/positions, and the moves that succeed. A move
// outside them is refused with the lesson's words; a click the game refuses, with the lesson's
// words where it has some, else the game's. Where every legal move succeeds, finding one is the
// lesson: the board then does not mark where moves start. Progress stays in this browser.

import { h, mount, cap, pointerWords } from '../util.js';
import { api, catalog } from '../api.js';
import { Practice, fitBoard } from '../practice.js';
import { emblem } from '../games/emblems.js';
import { resultSentence } from './shared.js';

const KEY = 'boardlab:learn:';

/** Progress in one game's tutorial: {step, done: {index: 'solved' | 'hinted' | 'shown'}}. */
export const learnProgress = {
  get(game) {
    try {
      const p = JSON.parse(/** @type {string} */ (localStorage.getItem(KEY + game)));
      return p && typeof p === 'object' ? { step: Number(p.step) || 0, done: p.done || {} } : { step: 0, done: {} };
    } catch {
      return { step: 0, done: {} };
    }
  },
  set(game, p) {
    try {
      localStorage.setItem(KEY + game, JSON.stringify(p));
    } catch {
      // Without storage, progress lasts until the page closes.
    }
  },
};

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

/**
 * How the tutorial went, in one sentence: steps done alone, with a hint, or shown ("You worked
 * through all 6 steps: 4 on your own, 1 with a hint, 1 shown.").
 */
function endWords(marks, total) {
  const n = (mark) => marks.filter((d) => d === mark).length;
  const alone = n('solved');
  if (alone === total) return `You worked through all ${total} steps, every one on your own.`;
  const parts = [`${alone} on your own`];
  if (n('hinted')) parts.push(`${n('hinted')} with a hint`);
  if (n('shown')) parts.push(`${n('shown')} shown`);
  return `You worked through all ${total} steps: ${parts.join(', ')}.`;
}

/**
 * Whether every legal move of `view` succeeds in `step`: finding one is then the task, and
 * marking where moves start would give the answer away.
 */
function findingIsTheTask(step, view) {
  return (view.legal_moves || []).every((m) => step.goal.includes(m));
}

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
  let index = Math.min(Math.max(0, progress.step), steps.length);
  let state = 'play'; // 'play' | 'solved' | 'shown' | 'busy'
  let hinted = false; // the hint of this step was asked for: done with help, not alone
  let closed = false;

  const el = {
    crumbs: h('div', { class: 'practice-crumbs' }),
    dots: h('ol', { class: 'step-dots', 'aria-label': 'Steps' }),
    title: h('h1', { class: 'practice-title' }),
    text: h('p', { class: 'practice-text' }),
    buttons: h('div', { class: 'practice-buttons' }),
    boardCol: h('section', { class: 'practice-board-col', 'aria-label': 'Board' }),
    head: h('header', { class: 'practice-head' }),
  };
  const practice = new Practice({
    game,
    play: (move) => judge(move),
    refuse: (cell) => {
      // The lesson's words for a click it names, while the step is being played.
      const m = state === 'play' && step().mistakes.find((x) => x.cell === cell);
      return m ? m.text : null;
    },
    turn: (view) => {
      if (view.result) return resultSentence(view.result.text);
      if (state === 'solved' || state === 'shown') return 'Step done'; // nobody moves next
      const colour = view.to_move && view.to_move.colour;
      if (!colour) return '';
      if (state !== 'play') return `${cap(colour)} to move`;
      return view.solitaire ? `${cap(colour)} to remove — you play both colours` : `${cap(colour)} to move — your turn`;
    },
    why: () => (state === 'busy' ? 'Just a moment…' : 'This step is done: press Next, or Try again.'),
    rendered: () => requestAnimationFrame(fit),
  });
  mount(el.head, el.crumbs, el.dots, el.title, el.text);
  mount(el.boardCol, practice.parts());
  mount(root, h('div', { class: 'practice' }, el.head, el.boardCol, el.buttons));

  function step() {
    return steps[index];
  }

  function fit() {
    if (closed) return;
    const narrow = !window.matchMedia('(min-width: 900px)').matches;
    fitBoard(practice, [practice.el.feedback, practice.el.actions, narrow ? el.buttons : null]);
  }
  const onResize = () => requestAnimationFrame(fit);
  window.addEventListener('resize', onResize);

  function save(result) {
    const p = learnProgress.get(game);
    p.step = index;
    if (result && p.done[index] !== 'solved') p.done[index] = result;
    learnProgress.set(game, p);
    progress.done = p.done;
  }

  async function judge(move) {
    const s = step();
    if (state !== 'play') return;
    if (!s.goal.includes(move)) {
      const m = s.mistakes.find((x) => x.move === move);
      practice.reject(m ? m.text : s.wrong);
      return;
    }
    await finish(move, 'solved');
  }

  async function finish(move, result) {
    const s = step();
    state = 'busy';
    practice.enable(false);
    try {
      const after = await api.position({ game, options: s.options, position: s.position, moves: [move] });
      if (closed) return;
      state = result;
      // Kept as done alone, with a hint, or shown.
      save(result === 'solved' && hinted ? 'hinted' : result);
      practice.show(after, false);
      practice.say(result === 'shown' ? `Here is one way: ${s.done}` : s.done, 'ok');
    } catch (e) {
      state = 'play';
      practice.enable(true);
      practice.say(e.message, 'error');
    }
    renderChrome();
    const next = el.buttons.querySelector('#btn-next');
    if (next) next.focus({ preventScroll: true });
  }

  async function load(i) {
    index = i;
    hinted = false;
    save(null);
    state = 'busy';
    renderChrome();
    if (index >= steps.length) {
      renderEnd();
      return;
    }
    const s = step();
    try {
      const view = await api.position({ game, options: s.options, position: s.position });
      if (closed || index !== i) return;
      state = 'play';
      practice.show(view, true, { startMarks: !findingIsTheTask(s, view) });
      practice.say('');
    } catch (e) {
      practice.say(`Cannot load this step: ${e.message}`, 'error');
    }
    renderChrome();
  }

  function renderChrome() {
    root.dataset.step = String(index);
    root.dataset.state = state;
    if (index >= steps.length) return;
    const s = step();
    document.title = `${tutorial.title} tutorial · boardlab`;
    mount(el.crumbs, h('a', { href: '/learn' }, 'Tutorials'), ' · ', h('a', { href: `/rules/${game}` }, `${tutorial.title} rules`));
    mount(el.dots, steps.map((x, i) => {
      const mark = progress.done[i];
      return h('li', {}, h('button', {
        type: 'button', class: ['step-dot', i === index ? 'on' : '', mark ? `dot-${mark}` : ''],
        'aria-label': `Step ${i + 1}: ${x.title}${mark === 'solved' ? ' (done)' : mark === 'hinted' ? ' (done with a hint)' : ''}`, 'aria-current': i === index ? 'step' : null,
        title: x.title, onclick: () => load(i),
      }, mark === 'solved' || mark === 'hinted' ? '✓' : String(i + 1)));
    }));
    el.title.textContent = '';
    el.title.append(h('span', { class: 'step-count' }, `Step ${index + 1} of ${steps.length}`), s.title);
    el.text.textContent = pointerWords(s.text);
    const btn = (label, attrs) => h('button', { type: 'button', class: 'btn', ...attrs }, label);
    const playing = state === 'play';
    mount(el.buttons,
      btn('Hint', { id: 'btn-hint', disabled: !playing, onclick: () => { hinted = true; practice.say(s.hint, 'advice'); } }),
      btn('Show me', { id: 'btn-show', disabled: !playing, onclick: () => finish(s.show, 'shown') }),
      btn('Try again', { id: 'btn-again', disabled: state === 'busy' || playing, onclick: () => load(index) }),
      btn(index + 1 < steps.length ? 'Next' : 'Finish', {
        id: 'btn-next', class: ['btn', state === 'solved' || state === 'shown' ? 'btn-primary' : ''],
        disabled: state === 'busy', onclick: () => load(index + 1),
      }));
    requestAnimationFrame(fit);
  }

  function renderEnd() {
    document.title = `${tutorial.title} tutorial · boardlab`;
    mount(root, h('section', { class: 'page narrow learn-end' },
      h('h1', {}, `${tutorial.title}: tutorial complete`),
      h('p', { class: 'lead', id: 'learn-summary' }, endWords(Object.values(progress.done), steps.length)),
      h('div', { class: 'start-row' },
        h('a', { class: 'btn btn-primary', href: `/?game=${game}` }, `Play ${tutorial.title}`),
        game === 'sight-reduction' ? h('a', { class: 'btn', href: '/puzzles' }, 'Puzzles') : null,
        h('a', { class: 'btn', href: `/rules/${game}` }, 'Full rules'),
        h('button', { type: 'button', class: 'btn', onclick: () => { mount(root, h('div', { class: 'practice' }, el.head, el.boardCol, el.buttons)); load(0); } }, 'Start again')),
      h('p', {}, h('a', { href: '/learn' }, 'Other tutorials'))));
  }

  await load(index);
  return () => {
    closed = true;
    practice.close();
    window.removeEventListener('resize', onResize);
  };
}

// Game review: every move of a game graded by the computer, shown as an evaluation graph
// (click a point to go to that move), marks in the move list, the best move drawn on the board
// and a summary per side. `/games/{id}/review` reviews a stored game (the server keeps the
// review); `/review` reviews a record pasted or dropped on the page.

import { h, s, mount, cap, toast, scrollWithin } from '../util.js';
import { api, ApiError } from '../api.js';
import { BoardView } from '../board.js';
import { navIcon, fitStack, shareColours, resultSentence } from './shared.js';

const GRADE_WORDS = { best: 'best move', good: 'good', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder' };
const SYMBOL = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The first seat's expected score after each move (index 0: the start). */
export function firstScores(review) {
  const first = (v) => (v.seat === 'first' ? v.score : 1 - v.score);
  const out = [];
  if (review.plies.length) out.push(first(review.plies[0].before));
  for (const p of review.plies) out.push(first(p.after));
  return out;
}

/**
 * The graph's two sides and, at each point (index 0: the start), the share of the first of them.
 * The sides are colours where the review knows them, each share drawn in its own colour even
 * where the players swap colours during the game; else (and in a solitaire) the seats: `sides`
 * is then [null, null].
 */
export function sideScores(review) {
  const firsts = firstScores(review);
  // In a solitaire one person plays both colours: the share is theirs.
  if (review.solitaire) return { sides: [null, null], scores: firsts };
  const n = review.plies.length;
  const pair = [...new Set([...review.plies, ...review.sides].map((x) => x.colour).filter(Boolean))];
  const other = (c) => (pair.length === 2 ? pair.find((x) => x !== c) : null);
  const end = (review.sides.find((sd) => sd.seat === 'first') || {}).colour || null;
  // The first seat's colour at point i: from the move made there, else (at the end) the summary's.
  const firstAt = (i) => {
    const p = review.plies[i];
    if (i >= n) return end;
    if (!p.colour) return null;
    return p.seat === 'first' ? p.colour : other(p.colour);
  };
  const colours = firsts.map((_, i) => firstAt(i));
  const top = colours.find(Boolean) || null;
  if (!top || !other(top)) return { sides: [null, null], scores: firsts };
  return { sides: [top, other(top)], scores: firsts.map((v, i) => (colours[i] && colours[i] !== top ? 1 - v : v)) };
}

/** The graph's sides (sideScores) in words: their colours, else the seats' names. */
function sideWords(review, sides) {
  const names = sideNames(review);
  return sides.map((c, i) => (c ? cap(c) : names[i ? 'second' : 'first']));
}

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

/** The colour (or name) each seat plays in the review, for words. */
function sideNames(review) {
  const names = {};
  for (const p of review.plies) if (p.colour && !names[p.seat]) names[p.seat] = cap(p.colour);
  for (const sd of review.sides) if (sd.colour && !names[sd.seat]) names[sd.seat] = cap(sd.colour);
  names.first = names.first || 'The first player';
  names.second = names.second || 'The second player';
  return names;
}

/** The review of game `id`: starts it when there is none, shows progress, then the review. */
export async function gameReviewPage(root, id, query) {
  root.className = 'review-root';
  let state;
  try {
    state = await api.game(id);
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No such game'), h('p', { class: 'error-text' }, e.message)));
    return null;
  }
  document.title = `${state.title} review · boardlab`;
  const progress = h('progress', { max: 1, value: 0, 'aria-label': 'Review progress' });
  const note = h('p', { class: 'muted' }, 'The computer looks at every position of the game…');
  mount(root, h('section', { class: 'page narrow review-wait' }, h('h1', {}, `${state.title} — review`), note, progress,
    h('p', {}, h('a', { href: `/games/${id}` }, 'Back to the game'))));
  let stopped = false;
  let answer;
  try {
    answer = await api.startReview(id);
    while (!stopped && answer.status === 'running') {
      progress.max = answer.total || 1;
      progress.value = answer.done || 0;
      note.textContent = `The computer looks at every position of the game: ${answer.done} of ${answer.total} done.`;
      await new Promise((r) => { setTimeout(r, 400); });
      answer = await api.review(id);
    }
  } catch (e) {
    if (!stopped) mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No review'), h('p', { class: 'error-text' }, e.message), h('p', {}, h('a', { href: `/games/${id}` }, 'Back to the game'))));
    return () => { stopped = true; };
  }
  if (stopped) return null;
  const cleanup = showReview(root, answer.review, {
    title: `${state.title} — review`,
    ply: Number(query.get('ply')) || 0,
    stale: !answer.current,
    resultText: state.result ? resultSentence(state.result.text) : 'The game is still being played.',
    links: [h('a', { href: `/games/${id}` }, 'Back to the game'), h('a', { href: `/games/${id}/replay` }, 'Replay')],
  });
  return () => { stopped = true; cleanup(); };
}

/** Review a record: paste it or drop its file on the page. */
export async function uploadReviewPage(root) {
  root.className = 'review-root';
  document.title = 'Review a game · boardlab';
  const area = h('textarea', { id: 'record-text', rows: 10, spellcheck: 'false', placeholder: 'Paste a game record here (the PGN-like text or the JSON a game page downloads), or drop its file on this page.', 'aria-label': 'Game record' });
  const message = h('p', { class: 'feedback', role: 'status', 'aria-live': 'polite' });
  const go = h('button', { type: 'submit', class: 'btn btn-primary', id: 'review-go' }, 'Review');
  const form = h('form', { class: 'review-form', onsubmit: (ev) => { ev.preventDefault(); submit(); } },
    area, h('div', { class: 'controls' }, go, h('label', { class: 'btn file-btn' }, 'Open a file…',
      h('input', { type: 'file', accept: '.pgn,.json,.txt', hidden: true, onchange: (ev) => readFile(ev.target.files[0]) }))), message);
  const page = h('section', { class: 'page narrow' }, h('h1', {}, 'Review a game'),
    h('p', { class: 'lead' }, 'The computer grades every move of a game: where it was won and lost, the best move at each turn, and an accuracy figure for each side.'), form);
  mount(root, page);
  let cleanup = () => {};
  const onDrop = (ev) => {
    ev.preventDefault();
    const f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (f) readFile(f);
  };
  const onDrag = (ev) => ev.preventDefault();
  page.addEventListener('drop', onDrop);
  page.addEventListener('dragover', onDrag);

  async function readFile(f) {
    if (!f) return;
    if (f.size > 60 * 1024) {
      message.textContent = 'That file is too large to be a game record.';
      return;
    }
    area.value = await f.text();
    submit();
  }

  async function submit() {
    const text = area.value.trim();
    if (!text) {
      message.textContent = 'Paste a record first.';
      message.className = 'feedback feedback-error';
      return;
    }
    go.disabled = true;
    message.className = 'feedback';
    message.textContent = 'Reviewing… a long game takes up to a minute.';
    try {
      const review = await api.reviewRecord(text);
      cleanup = showReview(root, review, { title: 'Game review', ply: 0, links: [h('a', { href: '/review' }, 'Review another game')] });
    } catch (e) {
      message.textContent = e instanceof ApiError ? e.message : String(e);
      message.className = 'feedback feedback-error';
      go.disabled = false;
    }
  }
  return () => cleanup();
}

/** Draws `review` into `root`; returns the page's cleanup. */
function showReview(root, review, opts) {
  const n = review.plies.length;
  const names = sideNames(review);
  const { sides, scores } = sideScores(review);
  const words = sideWords(review, sides);
  const positions = new Map();
  let ply = Math.max(0, Math.min(n, opts.ply || 0));
  let flipped = false;

  const boardWrap = h('div', { class: 'board-wrap' });
  const bv = new BoardView(boardWrap, { onCell: () => {} });
  const comment = h('div', { class: 'review-comment', id: 'review-comment', role: 'status', 'aria-live': 'polite' });
  const graph = h('div', { class: 'eval-graph', id: 'eval-graph' });
  const list = h('ol', { class: 'move-list review-moves', id: 'review-moves' });
  const nav = h('div', { class: 'replay-controls' },
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Start', title: 'Start (Home)', onclick: () => show(0) }, navIcon('first')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Previous move', title: 'Previous move (←)', onclick: () => show(ply - 1) }, navIcon('prev')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Next move', title: 'Next move (→)', onclick: () => show(ply + 1) }, navIcon('next')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'End', title: 'End (End)', onclick: () => show(n) }, navIcon('last')),
    h('button', { type: 'button', class: 'btn', onclick: () => { flipped = !flipped; draw(); } }, 'Flip'),
    h('a', { class: 'btn', id: 'analyse-here', href: '#' }, 'Analyse from here'));
  const resultEl = h('div', { class: 'game-sub', id: 'review-result' });
  let stack;
  mount(root, h('div', { class: 'game-layout' },
    h('section', { class: 'board-col' }, stack = h('div', { class: 'board-stack' }, boardWrap, comment, nav)),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card head-card' },
        h('h1', { class: 'game-title' }, opts.title),
        resultEl,
        opts.stale ? h('p', { class: 'muted' }, 'Moves were played after this review; open it again from the game to review them too.') : null,
        summary(),
        marksNote(),
        h('div', { class: 'more-links' }, opts.links)),
      h('div', { class: 'card' }, h('h2', {}, 'Evaluation'), graph),
      h('div', { class: 'card moves-card' }, h('h2', {}, 'Moves'), list))));

  function summary() {
    return h('table', { class: 'review-summary', id: 'review-summary' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Accuracy'), h('th', { title: 'inaccuracies' }, '?!'), h('th', { title: 'mistakes' }, '?'), h('th', { title: 'blunders' }, '??'))),
      h('tbody', {}, review.sides.map((sd) => h('tr', {},
        h('th', { scope: 'row' }, review.solitaire ? 'You' : names[sd.seat], sd.player && sd.player !== 'human' ? h('span', { class: 'muted' }, ` (${sd.player})`) : null),
        h('td', {}, sd.accuracy == null ? '—' : `${Math.round(sd.accuracy)}%`),
        h('td', {}, String(sd.inaccuracies)), h('td', {}, String(sd.mistakes)), h('td', {}, String(sd.blunders))))));
  }

  function drawGraph() {
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
    mount(graph, svg);
  }

  function drawList() {
    mount(list, review.plies.map((p) => h('li', { class: 'mv-item' },
      h('span', { class: 'mv-num' }, `${p.number}.`),
      h('button', {
        type: 'button', class: ['mv', p.number === ply ? 'mv-current' : '', `grade-${p.grade}`], 'data-ply': p.number,
        'aria-label': `Move ${p.number}${p.colour ? ` (${cap(p.colour)})` : ''}: ${p.move}, ${GRADE_WORDS[p.grade]}`,
        'aria-current': p.number === ply ? 'true' : null, onclick: () => show(p.number),
      }, p.colour && !review.solitaire ? h('span', { class: `mv-dot mv-dot-${p.colour}`, 'aria-hidden': 'true' }) : null, p.move,
      SYMBOL[p.grade] ? h('span', { class: 'grade-mark' }, SYMBOL[p.grade]) : null))));
    scrollWithin(list, list.querySelector('.mv-current'));
  }

  function drawComment() {
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
    mount(comment, parts);
  }

  async function position(p) {
    if (!positions.has(p)) {
      positions.set(p, api.position({ game: review.game, options: review.option_values, position: review.start, moves: review.plies.slice(0, p).map((x) => x.move) }));
    }
    return positions.get(p);
  }

  async function draw() {
    const want = ply;
    drawList();
    drawGraph();
    drawComment();
    let at;
    try {
      at = await position(want);
    } catch (e) {
      toast(e.message, 'error');
      return;
    }
    if (want !== ply) return;
    bv.render(at.board, {
      game: review.game, flipped, last: new Set(at.last_cells || []),
      hint: ply < n ? new Set(review.best_cells[ply]) : null,
    });
    stack.style.setProperty('--aspect', bv.aspect().toFixed(4));
    requestAnimationFrame(fit);
    root.dataset.ply = String(ply);
    const q = new URLSearchParams({ game: review.game, position: at.position });
    const optText = Object.entries(review.option_values || {}).map(([k, v]) => `${k}=${v}`).join(',');
    if (optText) q.set('options', optText);
    /** @type {HTMLAnchorElement} */ (document.getElementById('analyse-here')).href = `/analysis?${q}`;
  }

  function show(p) {
    ply = Math.max(0, Math.min(n, p));
    draw();
  }

  const fit = () => fitStack(stack, boardWrap, bv.svg);
  const onResize = () => requestAnimationFrame(fit);
  const onKey = (ev) => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') show(ply - 1);
    else if (ev.key === 'ArrowRight') show(ply + 1);
    else if (ev.key === 'Home') show(0);
    else if (ev.key === 'End') show(n);
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  window.addEventListener('resize', onResize);
  if (opts.resultText) resultEl.textContent = opts.resultText;
  else {
    position(n).then((v) => { resultEl.textContent = v.result ? resultSentence(v.result.text) : 'Not finished (or ended by resignation or agreement).'; }).catch(() => {});
  }
  draw();
  return () => {
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('resize', onResize);
  };
}

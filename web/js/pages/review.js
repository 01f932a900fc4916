// Game review: every move of a game graded by the computer, shown as an evaluation graph
// (click a point to go to that move), marks in the move list, the best move drawn on the board
// and a summary per side. `/games/{id}/review` reviews a stored game (the server keeps the
// review) or a game kept in this browser (the engine in the page reviews it, review/local.js);
// `/review` reviews a record pasted or dropped on the page (the engine first, else the server).

import { h, mount, cap, toast, scrollWithin } from '../util.js';
import { api, ApiError } from '../api.js';
import { recordReview } from '../engine/index.js';
import { isLocal } from '../local/games.js';
import { BoardView } from '../board.js';
import { fitStack, resultSentence } from './shared.js';
import { positionAt, analyseHref } from './review/state.js';
import { reviewNav, reviewLayout, graphView, moveItems, commentParts } from './review/views.js';
import { localReview } from './review/local.js';

/** @typedef {import('./review/state.js').ReviewState} ReviewState */

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
  if (isLocal(id)) return localReviewPage(root, id, query);
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

/** The review of game `id` kept in this browser, worked out in the page. */
async function localReviewPage(root, id, query) {
  const got = await localReview(root, id);
  if (!got) return null;
  const { game: g, review } = got;
  return showReview(root, review, {
    title: `${g.title} — review`,
    ply: Number(query.get('ply')) || 0,
    resultText: g.status === 'finished' && g.result ? resultSentence(g.result) : 'The game is still being played.',
    links: [h('a', { href: `/games/${id}` }, 'Back to the game'), h('span', { class: 'muted', id: 'review-device' }, 'Kept on this device')],
  });
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
      const review = await recordReview(text, ({ done, total }) => {
        message.textContent = `Reviewing… ${done} of ${total} positions done.`;
      });
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
  const { sides, scores } = sideScores(review);
  /** @type {ReviewState} */
  const rs = {
    review, n, names: sideNames(review), sides, scores, words: sideWords(review, sides),
    positions: new Map(), ply: Math.max(0, Math.min(n, opts.ply || 0)), flipped: false,
  };

  const boardWrap = h('div', { class: 'board-wrap' });
  const bv = new BoardView(boardWrap, { onCell: () => {} });
  const comment = h('div', { class: 'review-comment', id: 'review-comment', role: 'status', 'aria-live': 'polite' });
  const graph = h('div', { class: 'eval-graph', id: 'eval-graph' });
  const list = h('ol', { class: 'move-list review-moves', id: 'review-moves' });
  const nav = reviewNav(n, { show: (p) => show(p), ply: () => rs.ply, flip: () => { rs.flipped = !rs.flipped; draw(); } });
  const resultEl = h('div', { class: 'game-sub', id: 'review-result' });
  const stack = h('div', { class: 'board-stack' }, boardWrap, comment, nav);
  mount(root, reviewLayout(rs, opts, { stack, resultEl, graph, list }));

  async function draw() {
    const want = rs.ply;
    mount(list, moveItems(rs, show));
    scrollWithin(list, list.querySelector('.mv-current'));
    mount(graph, graphView(rs, show));
    mount(comment, commentParts(rs));
    let at;
    try {
      at = await positionAt(rs, want);
    } catch (e) {
      toast(e.message, 'error');
      return;
    }
    if (want !== rs.ply) return;
    bv.render(at.board, {
      game: review.game, flipped: rs.flipped, last: new Set(at.last_cells || []),
      hint: rs.ply < n ? new Set(review.best_cells[rs.ply]) : null,
    });
    stack.style.setProperty('--aspect', bv.aspect().toFixed(4));
    requestAnimationFrame(fit);
    root.dataset.ply = String(rs.ply);
    /** @type {HTMLAnchorElement} */ (document.getElementById('analyse-here')).href = analyseHref(review, at);
  }

  function show(p) {
    rs.ply = Math.max(0, Math.min(n, p));
    draw();
  }

  const fit = () => fitStack(stack, boardWrap, bv.svg);
  const onResize = () => requestAnimationFrame(fit);
  const onKey = (ev) => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') show(rs.ply - 1);
    else if (ev.key === 'ArrowRight') show(rs.ply + 1);
    else if (ev.key === 'Home') show(0);
    else if (ev.key === 'End') show(n);
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  window.addEventListener('resize', onResize);
  if (opts.resultText) resultEl.textContent = opts.resultText;
  else {
    positionAt(rs, n).then((v) => { resultEl.textContent = v.result ? resultSentence(v.result.text) : 'Not finished (or ended by resignation or agreement).'; }).catch(() => {});
  }
  draw();
  return () => {
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('resize', onResize);
  };
}

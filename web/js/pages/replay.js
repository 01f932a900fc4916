// The replay page: step through a game's positions, or let them play by themselves.

import { h, mount } from '../util.js';
import { api } from '../api.js';
import { BoardView } from '../board.js';
import { newReplayState } from './replay/state.js';
import { replayControls, replayLayout, moveRows, infoText } from './replay/views.js';

/** @typedef {import('./replay/state.js').ReplayState} ReplayState */

/**
 * The replay of game `id`, at the move `query` asks for; returns the page's cleanup.
 * @param {HTMLElement} root
 * @param {string} id
 * @param {URLSearchParams} query
 * @returns {Promise<(() => void) | null>}
 */
export async function replayPage(root, id, query) {
  root.className = 'replay-root';
  let state;
  try {
    state = await api.game(id);
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No such game'), h('p', { class: 'error-text' }, e.message)));
    return null;
  }
  const rp = newReplayState(state, query);
  const n = rp.n;

  const boardWrap = h('div', { class: 'board-wrap' });
  const bv = new BoardView(boardWrap, { onCell: () => {} });
  const info = h('div', { class: 'replay-info', role: 'status', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', min: 0, max: n, value: rp.ply, 'aria-label': 'Move', oninput: (ev) => show(Number(ev.target.value)) });
  const list = h('ol', { class: 'move-list replay-moves' });
  const playBtn = h('button', { type: 'button', class: 'btn btn-primary', id: 'replay-play', onclick: () => toggle() }, 'Play');
  const speed = h('select', { 'aria-label': 'Speed', onchange: () => { if (rp.timer) { toggle(); toggle(); } } }, [['1500', 'slow'], ['800', 'normal'], ['300', 'fast']].map(([v, t]) => h('option', { value: v, selected: v === '800' }, t)));
  const controls = replayControls(n, { show: (p) => show(p), ply: () => rp.ply, flip: () => { rp.flipped = !rp.flipped; draw(); } }, playBtn, speed);
  const stack = h('div', { class: 'board-stack' }, boardWrap, info, controls, slider);
  mount(root, replayLayout(state, id, stack, list));

  function draw() {
    const at = rp.cache.get(rp.ply);
    const board = at ? at.board : null;
    // While a position loads the board shown stays, so that pieces slide from it to the next.
    bv.render(board || bv.board || state.board, {
      game: state.game, flipped: rp.flipped, last: new Set((at && at.last_cells) || []),
    });
    boardWrap.classList.toggle('earlier', !board);
    stack.style.setProperty('--aspect', bv.aspect().toFixed(4));
    slider.value = String(rp.ply);
    info.textContent = infoText(rp);
    root.dataset.ply = String(rp.ply);
    mount(list, moveRows(rp, show));
    const cur = list.querySelector('.mv-current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  async function show(p) {
    p = Math.max(0, Math.min(n, p));
    rp.ply = p;
    if (!rp.cache.has(p) && rp.available) {
      draw();
      try {
        rp.cache.set(p, await api.at(id, p));
      } catch {
        rp.available = false;
      }
    }
    if (rp.ply === p) draw();
  }

  function toggle() {
    if (rp.timer) {
      clearInterval(rp.timer);
      rp.timer = 0;
      playBtn.textContent = 'Play';
      return;
    }
    if (rp.ply >= n) show(0);
    playBtn.textContent = 'Pause';
    rp.timer = setInterval(() => {
      if (rp.ply >= n) toggle();
      else show(rp.ply + 1);
    }, Number(speed.value));
  }

  const onKey = (ev) => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') show(rp.ply - 1);
    else if (ev.key === 'ArrowRight') show(rp.ply + 1);
    else if (ev.key === 'Home') show(0);
    else if (ev.key === 'End') show(n);
    else if (ev.key === ' ') toggle();
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  document.title = `${state.title} replay · boardlab`;
  await show(rp.ply);
  return () => {
    clearInterval(rp.timer);
    document.removeEventListener('keydown', onKey);
  };
}

// The replay page: step through a game's positions, or let them play by themselves.

import { h, mount, cap, count } from '../util.js';
import { api } from '../api.js';
import { BoardView } from '../board.js';
import { seatsText, goalOf, navIcon, resultSentence } from './shared.js';

export async function replayPage(root, id, query) {
  root.className = 'replay-root';
  let state;
  try {
    state = await api.game(id);
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No such game'), h('p', { class: 'error-text' }, e.message)));
    return null;
  }
  const n = state.moves.length;
  let ply = Math.min(n, Math.max(0, Number(query.get('ply') ?? n) || 0));
  if (query.get('ply') === null) ply = 0;
  let flipped = false;
  let timer = 0;
  let available = true;
  const cache = new Map([[n, state]]);

  const boardWrap = h('div', { class: 'board-wrap' });
  /** @type {HTMLElement} */
  let stack = /** @type {any} */ (null); // set as the page is mounted, below
  const bv = new BoardView(boardWrap, { onCell: () => {} });
  const info = h('div', { class: 'replay-info', role: 'status', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', min: 0, max: n, value: ply, 'aria-label': 'Move', oninput: (ev) => show(Number(ev.target.value)) });
  const list = h('ol', { class: 'move-list replay-moves' });
  const playBtn = h('button', { type: 'button', class: 'btn btn-primary', id: 'replay-play', onclick: () => toggle() }, 'Play');
  const speed = h('select', { 'aria-label': 'Speed', onchange: () => { if (timer) { toggle(); toggle(); } } }, [['1500', 'slow'], ['800', 'normal'], ['300', 'fast']].map(([v, t]) => h('option', { value: v, selected: v === '800' }, t)));

  mount(root, h('div', { class: 'game-layout' },
    h('section', { class: 'board-col' }, stack = h('div', { class: 'board-stack' }, boardWrap, info,
      h('div', { class: 'replay-controls' },
        h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Start', title: 'Start (Home)', onclick: () => show(0) }, navIcon('first')),
        h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Previous move', title: 'Previous move (←)', onclick: () => show(ply - 1) }, navIcon('prev')),
        playBtn,
        h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Next move', title: 'Next move (→)', onclick: () => show(ply + 1) }, navIcon('next')),
        h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'End', title: 'End (End)', onclick: () => show(n) }, navIcon('last')),
        speed,
        h('button', { type: 'button', class: 'btn', onclick: () => { flipped = !flipped; draw(); } }, 'Flip')),
      slider)),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card head-card' },
        h('h1', { class: 'game-title' }, `${state.title} — replay`),
        h('div', { class: 'game-sub' }, state.solitaire ? 'Solitaire' : state.same_screen ? 'Same screen' : seatsText({ computer: state.seats.first.computer }, { computer: state.seats.second.computer })),
        h('div', { class: 'status' }, state.result ? resultSentence(state.result.text) : 'The game is still being played.'),
        h('div', { class: 'more-links' }, h('a', { href: `/games/${id}` }, 'Open the game'),
          n ? h('a', { href: `/games/${id}/review` }, 'Review') : null,
          h('a', { href: api.recordUrl(id, 'pgn'), download: `boardlab-${state.game}-${id}.pgn` }, 'PGN'),
          h('a', { href: api.recordUrl(id, 'json'), download: `boardlab-${state.game}-${id}.json` }, 'JSON'))),
      h('div', { class: 'card moves-card' }, h('h2', {}, 'Moves'), list))));

  function drawList() {
    mount(list, h('li', { class: 'mv-row' }, h('span', { class: 'mv-num' }, '0.'), h('button', { type: 'button', class: ['mv', ply === 0 ? 'mv-current' : ''], 'data-ply': 0, onclick: () => show(0) }, 'start')),
      state.moves.map((m) => h('li', { class: 'mv-row' }, h('span', { class: 'mv-num' }, `${m.ply}.`),
        h('button', { type: 'button', class: ['mv', m.ply === ply ? 'mv-current' : ''], 'data-ply': m.ply, onclick: () => show(m.ply) }, m.move))));
    const cur = list.querySelector('.mv-current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  /** Who made move `p`, by colour ('' in a puzzle or where colours are not known). */
  function moverText(p) {
    const colour = state.solitaire ? null : state.seats[state.moves[p - 1].seat].colour;
    return colour ? ` (${cap(colour)})` : '';
  }

  function draw() {
    const at = cache.get(ply);
    const board = at ? at.board : null;
    // While a position loads the board shown stays, so that pieces slide from it to the next.
    bv.render(board || bv.board || state.board, {
      game: state.game, flipped, last: new Set((at && at.last_cells) || []), goal: goalOf(state),
    });
    boardWrap.classList.toggle('earlier', !board);
    stack.style.setProperty('--aspect', bv.aspect().toFixed(4));
    slider.value = String(ply);
    info.textContent = !available ? 'This server cannot show earlier positions yet; only the final position is drawn.'
      : ply === 0 ? `Start position · ${count(n, 'move')} in all` : `Move ${ply} of ${n}: ${state.moves[ply - 1].move}${moverText(ply)}`;
    root.dataset.ply = String(ply);
    drawList();
  }

  async function show(p) {
    p = Math.max(0, Math.min(n, p));
    ply = p;
    if (!cache.has(p) && available) {
      draw();
      try {
        cache.set(p, await api.at(id, p));
      } catch {
        available = false;
      }
    }
    if (ply === p) draw();
  }

  function toggle() {
    if (timer) {
      clearInterval(timer);
      timer = 0;
      playBtn.textContent = 'Play';
      return;
    }
    if (ply >= n) show(0);
    playBtn.textContent = 'Pause';
    timer = setInterval(() => {
      if (ply >= n) toggle();
      else show(ply + 1);
    }, Number(speed.value));
  }

  const onKey = (ev) => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') show(ply - 1);
    else if (ev.key === 'ArrowRight') show(ply + 1);
    else if (ev.key === 'Home') show(0);
    else if (ev.key === 'End') show(n);
    else if (ev.key === ' ') toggle();
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  document.title = `${state.title} replay · boardlab`;
  await show(ply);
  return () => {
    clearInterval(timer);
    document.removeEventListener('keydown', onKey);
  };
}

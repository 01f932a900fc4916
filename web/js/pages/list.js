// Recent games: every game on the server, newest first, with filters; games this browser
// holds a seat in (or the signed-in account plays) are marked.

import { h, mount, ago } from '../util.js';
import { api, catalog, seats } from '../api.js';
import { seatsText, listedSeats, resultText } from './shared.js';
import { go } from '../nav.js';
import { accountName, sameName } from '../account.js';

export async function listPage(root, query) {
  root.className = 'list-root';
  const cat = await catalog();
  const titles = Object.fromEntries(cat.games.map((g) => [g.name, g.title]));
  const filter = { game: query.get('game') || '', status: query.get('status') || '' };
  const table = h('div', { class: 'table-wrap' });
  const sel = (name, options, value) => h('select', {
    'aria-label': name,
    onchange: (ev) => {
      filter[name] = ev.target.value;
      const q = new URLSearchParams(Object.entries(filter).filter(([, v]) => v));
      go(`/games${q.toString() ? `?${q}` : ''}`, true);
    },
  }, options.map(([v, t]) => h('option', { value: v, selected: v === value }, t)));

  mount(root, h('section', { class: 'page' },
    h('div', { class: 'page-head' }, h('h1', {}, 'Games'),
      h('div', { class: 'filters' },
        sel('game', [['', 'All games'], ...cat.games.map((g) => [g.name, g.title])], filter.game),
        sel('status', [['', 'Any status'], ['ongoing', 'Being played'], ['finished', 'Finished']], filter.status))),
    table));

  const held = new Set(seats.mine());
  const me = accountName();
  // Whether the signed-in account plays `seat` of a listed game.
  const ours = (g, seat) => !!me && sameName(g.seats[`${seat}_account`], me);
  const isMine = (g) => held.has(g.id) || ours(g, 'first') || ours(g, 'second');
  // Whether this browser holds the seat to move (by its token or the account).
  const myTurn = (g) => g.status === 'ongoing' && g.to_move && ((held.has(g.id) && !!seats.get(g.id)[g.to_move]) || ours(g, g.to_move));
  const statusCell = (g) => {
    if (g.status !== 'ongoing') return resultText(g.result, g.termination, g.score);
    if (myTurn(g)) return h('span', { class: 'pill pill-turn' }, 'Your turn');
    if (isMine(g)) return h('span', { class: 'pill pill-live' }, 'Their turn');
    return h('span', { class: 'pill pill-live' }, 'Being played');
  };
  try {
    const { games: listed } = await api.list({ limit: 100, ...filter });
    // The games where it is this browser's turn come first (the order is otherwise kept).
    const games = [...listed.filter(myTurn), ...listed.filter((g) => !myTurn(g))];
    if (!games.length) {
      mount(table, h('p', { class: 'empty' }, 'No games yet. ', h('a', { href: '/' }, 'Start one.')));
      return null;
    }
    mount(table, h('table', { class: 'games-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Players'), h('th', {}, 'Status'), h('th', { class: 'num' }, 'Moves'), h('th', {}, 'Updated'), h('th', {}, ''))),
      h('tbody', {}, games.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `/games/${g.id}` }, titles[g.game] || g.game), isMine(g) ? h('span', { class: 'pill pill-you' }, 'you') : null),
        h('td', {}, seatsText(...listedSeats(g.seats))),
        h('td', {}, statusCell(g)),
        h('td', { class: 'num' }, String(g.moves)),
        h('td', { class: 'muted' }, ago(g.updated)),
        h('td', {}, h('a', { href: `/games/${g.id}/replay` }, 'replay')))))));
  } catch (e) {
    mount(table, h('p', { class: 'error-text' }, e.message));
  }
  document.title = 'Games · boardlab';
  return null;
}

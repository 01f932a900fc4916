// The leaderboards: every game's best rated players (/ratings), and one game's in full
// (/ratings/GAME): rank, player, rating ("1620?" while provisional) and rated games played.

import { h, mount } from '../util.js';
import { api, catalog } from '../api.js';
import { accountName, sameName } from '../account.js';
import { ratingText, ratingLong } from './shared.js';

/**
 * A leaderboard's table: `res` is an answer of GET /api/ratings/GAME; `limit` keeps its first
 * rows only.
 * @param {any} res
 * @param {{id?: string, limit?: number}} [opts]
 */
function board(res, { id, limit } = {}) {
  const me = accountName();
  const players = limit ? res.players.slice(0, limit) : res.players;
  if (!players.length) return h('p', { class: 'muted ratings-empty' }, 'No rated games yet.');
  return h('table', { class: 'ratings-table', id },
    h('thead', {}, h('tr', {},
      h('th', { class: 'num', scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'),
      h('th', { class: 'num', scope: 'col' }, 'Rating'), h('th', { class: 'num', scope: 'col' }, 'Games'))),
    h('tbody', {}, players.map((p, i) => h('tr', { class: sameName(p.name, me) ? 'you' : '', 'data-player': p.name },
      h('td', { class: 'num' }, String(i + 1)),
      h('td', {}, h('a', { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
      h('td', { class: 'num', title: ratingLong(p) }, ratingText(p)),
      h('td', { class: 'num' }, String(p.games))))));
}

const NOTE = 'A rating with “?” is provisional: it has few games behind it yet (a deviation above 110) and is listed after the settled ones.';

export async function ratingsPage(root, game) {
  root.className = 'ratings-root';
  const cat = await catalog();
  const info = game && cat.games.find((g) => g.name === game);
  const nav = h('nav', { class: 'rules-nav', 'aria-label': 'Games' },
    h('a', { href: '/ratings', class: game ? '' : 'active', 'aria-current': game ? null : 'page' }, 'All games'),
    cat.games.map((g) => h('a', { href: `/ratings/${g.name}`, class: g.name === game ? 'active' : '', 'aria-current': g.name === game ? 'page' : null }, g.title)));
  const head = (title) => h('div', { class: 'page-head' }, h('h1', {}, title),
    h('p', { class: 'head-note' }, h('a', { href: '/lobby' }, 'Play a rated game')));
  if (game && !info) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No such game'), nav));
    document.title = 'Ratings · boardlab';
    return null;
  }
  if (info) {
    const body = h('div', { class: 'card ratings-card' }, h('p', { class: 'muted' }, 'Loading…'));
    mount(root, h('section', { class: 'page narrow ratings' }, head(`${info.title} ratings`), nav, body, h('p', { class: 'muted small' }, NOTE)));
    document.title = `${info.title} ratings · boardlab`;
    try {
      const res = await api.ratings(game, { limit: 200 });
      mount(body, board(res, { id: 'leaderboard' }));
    } catch (e) {
      mount(body, h('p', { class: 'error-text' }, e.message));
    }
    return null;
  }
  const cards = cat.games.map((g) => h('section', { class: 'card ratings-card', 'data-game': g.name, 'aria-labelledby': `ratings-${g.name}` },
    h('div', { class: 'card-head' }, h('h2', { id: `ratings-${g.name}` }, g.title), h('a', { href: `/ratings/${g.name}` }, 'Full list')),
    h('p', { class: 'muted' }, 'Loading…')));
  mount(root, h('section', { class: 'page ratings' }, head('Ratings'), nav, h('div', { class: 'ratings-grid' }, cards), h('p', { class: 'muted small' }, NOTE)));
  document.title = 'Ratings · boardlab';
  await Promise.all(cat.games.map(async (g, i) => {
    const card = cards[i];
    try {
      const res = await api.ratings(g.name, { limit: 10 });
      card.lastChild.replaceWith(board(res, { id: `leaderboard-${g.name}` }));
    } catch (e) {
      card.lastChild.replaceWith(h('p', { class: 'error-text' }, e.message));
    }
  }));
  return null;
}

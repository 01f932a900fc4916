// A player's page: their record, their rating in each game they played rated games of (with
// its history drawn), how they fared against each opponent with an account, and their games,
// with filters by game and by result.

import { h, s, mount } from '../util.js';
import { api, catalog } from '../api.js';
import { accountName, sameName } from '../account.js';
import { filterBar, filterOf, groupedRows, loadColours } from './gamerows.js';
import { ratingLong } from './shared.js';

const START = 1500; // every rating starts here (docs/api.md, Ratings)

/**
 * A small chart of a rating's history: the rating after each rated game, from the start, as a
 * line over labelled lines of the lowest and highest ratings.
 */
function historyChart(history, title) {
  const points = [START, ...history.map((x) => x.rating)];
  const W = 300;
  const H = 112;
  const left = 44;
  const right = W - 10;
  const top = 10;
  const bottom = H - 24;
  let lo = Math.floor(Math.min(...points) / 50) * 50;
  let hi = Math.ceil(Math.max(...points) / 50) * 50;
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = Math.floor((mid - 50) / 50) * 50;
    hi = lo + 100;
  }
  const x = (i) => left + (points.length === 1 ? 0 : (i * (right - left)) / (points.length - 1));
  const y = (r) => bottom - ((r - lo) * (bottom - top)) / (hi - lo);
  const n = history.length;
  const last = points[points.length - 1];
  return s('svg', { class: 'rating-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}: from ${START} to ${Math.round(last)} over ${n} rated game${n === 1 ? '' : 's'}` },
    s('line', { class: 'chart-grid', x1: left, x2: right, y1: y(hi), y2: y(hi) }),
    s('line', { class: 'chart-grid', x1: left, x2: right, y1: y(lo), y2: y(lo) }),
    s('text', { class: 'chart-label', x: left - 6, y: y(hi), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, String(hi)),
    s('text', { class: 'chart-label', x: left - 6, y: y(lo), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, String(lo)),
    s('text', { class: 'chart-label', x: left, y: H - 6, 'text-anchor': 'start' }, 'start'),
    s('text', { class: 'chart-label', x: right, y: H - 6, 'text-anchor': 'end' }, `${n} game${n === 1 ? '' : 's'}`),
    s('polyline', { class: 'chart-line', points: points.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(' ') }),
    points.map((r, i) => s('circle', { class: ['chart-dot', i === points.length - 1 ? 'chart-now' : ''], cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: i === points.length - 1 ? 4 : 2.5 })));
}

/** The ratings card: one line per game ("Obsidio 1662 ± 290, provisional") and its chart. */
function ratingsCard(ratings, infos) {
  const items = (ratings || []).map((e) => {
    const r = e.rating && typeof e.rating === 'object' ? e.rating : e;
    const game = r.game || e.game;
    const title = (infos[game] && infos[game].title) || r.title || game;
    return { r, game, title, history: e.history || [] };
  }).filter((x) => typeof x.r.rating === 'number');
  if (!items.length) return null;
  return h('section', { class: 'card ratings-mini', id: 'player-ratings', 'aria-labelledby': 'ratings-title' },
    h('h2', { id: 'ratings-title' }, 'Ratings'),
    h('ul', { class: 'rating-list' }, items.map((x) => h('li', { class: 'rating-item', 'data-game': x.game },
      h('div', { class: 'rating-line' },
        h('a', { href: `/ratings/${x.game}`, title: `${x.title} leaderboard` }, x.title), ' ',
        h('strong', { class: 'rating-n' }, String(Math.round(x.r.rating))),
        h('span', { class: 'rating-more' }, ratingLong(x.r).replace(/^\d+/, '')),
        typeof x.r.games === 'number' ? h('span', { class: 'muted small' }, ` · ${x.r.games} game${x.r.games === 1 ? '' : 's'}`) : null),
      x.history.length ? historyChart(x.history, `${x.title} rating`) : null))));
}

function stat(label, n, cls) {
  return h('div', { class: ['stat', cls] }, h('span', { class: 'stat-n' }, String(n)), h('span', { class: 'stat-label' }, label));
}

export async function playerPage(root, name, query) {
  root.className = 'player-root';
  const cat = await catalog();
  const infos = Object.fromEntries(cat.games.map((g) => [g.name, g]));
  const filter = filterOf(query, cat.games);
  let p;
  try {
    p = await api.player(name, { ...filter, limit: 200 });
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' },
      h('h1', {}, e.status === 404 ? 'No such player' : 'Cannot load the player'),
      h('p', { class: e.status === 404 ? '' : 'error-text' }, e.status === 404 ? `Nobody has an account called “${name}”.` : e.message),
      h('p', {}, h('a', { href: '/games' }, 'Recent games'))));
    document.title = 'Player · boardlab';
    return null;
  }
  const you = sameName(accountName(), p.name);
  const r = p.record || { won: 0, lost: 0, drawn: 0 };
  const played = r.won + r.lost + r.drawn;
  const path = `/players/${encodeURIComponent(p.name)}`;
  const list = h('div', { class: 'row-list', id: 'player-games' });
  const h2h = p.head_to_head || [];
  mount(root, h('section', { class: 'page player-page' },
    h('div', { class: 'player-head' },
      h('h1', { id: 'player-name' }, p.name, you ? h('span', { class: 'pill pill-you' }, 'you') : null),
      h('div', { class: 'record', id: 'player-record', 'aria-label': `Record: ${r.won} won, ${r.lost} lost, ${r.drawn} drawn` },
        stat('won', r.won, 'stat-won'), stat('lost', r.lost, 'stat-lost'), stat('drawn', r.drawn, 'stat-drawn')),
      h('p', { class: 'muted small record-note' }, played ? `Over ${played} finished game${played === 1 ? '' : 's'}.` : 'No finished games yet.')),
    h('div', { class: 'player-grid' },
      h('div', { class: 'player-games' },
        h('div', { class: 'card-head' }, h('h2', {}, you ? 'Your games' : 'Games')),
        filterBar(path, filter, cat.games),
        list),
      h('aside', { class: 'player-side' }, ratingsCard(p.ratings, infos), h('section', { class: 'card h2h-card', 'aria-labelledby': 'h2h-title' },
        h('h2', { id: 'h2h-title' }, 'Head to head'),
        h2h.length
          ? h('table', { class: 'h2h', id: 'head-to-head' },
            h('thead', {}, h('tr', {}, h('th', {}, 'Opponent'), h('th', { class: 'num' }, 'Won'), h('th', { class: 'num' }, 'Lost'), h('th', { class: 'num' }, 'Drawn'))),
            h('tbody', {}, h2h.map((o) => h('tr', {},
              h('td', {}, h('a', { href: `/players/${encodeURIComponent(o.opponent)}` }, o.opponent)),
              h('td', { class: 'num' }, String(o.won)), h('td', { class: 'num' }, String(o.lost)), h('td', { class: 'num' }, String(o.drawn))))))
          : h('p', { class: 'muted' }, 'No finished games against players with an account yet.'))))));
  document.title = `${p.name} · boardlab`;
  const games = p.games || [];
  if (!games.length) {
    mount(list, h('p', { class: 'empty' }, filter.game || filter.result ? 'No games match these filters.' : 'No games yet.'));
  } else {
    groupedRows(list, games, infos, you);
    loadColours(games).then((more) => {
      if (more && list.isConnected) groupedRows(list, games, infos, you);
    });
  }
  return null;
}

// A player's page: their record, how they fared against each opponent with an account, and
// their games, with filters by game and by result.

import { h, mount } from '../util.js';
import { api, catalog } from '../api.js';
import { accountName, sameName } from '../account.js';
import { filterBar, filterOf, groupedRows, loadColours } from './gamerows.js';

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
      h('aside', { class: 'card h2h-card', 'aria-labelledby': 'h2h-title' },
        h('h2', { id: 'h2h-title' }, 'Head to head'),
        h2h.length
          ? h('table', { class: 'h2h', id: 'head-to-head' },
            h('thead', {}, h('tr', {}, h('th', {}, 'Opponent'), h('th', { class: 'num' }, 'Won'), h('th', { class: 'num' }, 'Lost'), h('th', { class: 'num' }, 'Drawn'))),
            h('tbody', {}, h2h.map((o) => h('tr', {},
              h('td', {}, h('a', { href: `/players/${encodeURIComponent(o.opponent)}` }, o.opponent)),
              h('td', { class: 'num' }, String(o.won)), h('td', { class: 'num' }, String(o.lost)), h('td', { class: 'num' }, String(o.drawn))))))
          : h('p', { class: 'muted' }, 'No finished games against players with an account yet.')))));
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

// The designer findings: for each game, what self-play reports (or, for Sight Reduction, the
// exact solver) say about fairness, length, options and depth, with their charts. The pages are
// docs/analysis/*.md, rendered by the server.

import { h, mount } from '../util.js';
import { api, catalog } from '../api.js';

export async function findingsPage(root, page) {
  root.className = 'rules-root';
  const cat = await catalog();
  // A full report, `DIR/report`: the game's (or a comparison's) report with its numbers.
  const report = page && page.endsWith('/report') ? page.slice(0, -'/report'.length) : null;
  const info = page && cat.games.find((g) => g.name === (report || page));
  const nav = h('nav', { class: 'rules-nav', 'aria-label': 'Findings' },
    cat.games.map((g) => h('a', { href: `/findings/${g.name}`, class: g.name === page ? 'active' : '', 'aria-current': g.name === page ? 'page' : null }, g.title)),
    report ? h('a', { href: `/findings/${report}/report`, class: 'active', 'aria-current': 'page' }, 'Full report') : null,
    h('a', { href: '/findings/README', class: page === 'README' ? 'active' : 'api-link' }, 'How reports are made'));
  if (!page) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'How the games play'), nav,
      h('p', {}, 'For designers and curious players: who wins from the start, how long games last, what each option changes and whether thinking longer pays, measured over many games between computer players (Sight Reduction exactly, by its solver).'),
      h('ul', { class: 'rules-index' }, cat.games.map((g) => h('li', {}, h('a', { href: `/findings/${g.name}` }, h('strong', {}, g.title)), ' — ', h('a', { href: `/rules/${g.name}` }, 'rules'))))));
    document.title = 'How the games play · boardlab';
    return null;
  }
  const body = h('article', { class: 'rules findings' }, h('p', { class: 'muted' }, 'Loading…'));
  mount(root, h('section', { class: 'page narrow' }, nav, body,
    report ? h('p', { class: 'rules-play' }, h('a', { class: 'btn', href: `/findings/${report}/report.json`, id: 'report-numbers' }, 'Every number (JSON)')) : null,
    info ? h('p', { class: 'rules-play' }, h('a', { class: 'btn btn-primary', href: `/?game=${info.name}` }, `Play ${info.title}`),
      ' ', h('a', { class: 'btn', href: `/rules/${info.name}` }, 'Rules')) : null));
  document.title = `${info ? info.title : 'Reports'} ${report ? 'report' : 'findings'} · boardlab`;
  try {
    body.innerHTML = await api.findings(page);
  } catch (e) {
    mount(body, h('h1', {}, 'No findings yet'),
      h('p', {}, e.status === 404 ? 'There is no findings page at this address.' : `The page could not be loaded (${e.message}).`));
    return null;
  }
  // Charts are wide: let a phone scroll each one sideways rather than the page.
  for (const img of body.querySelectorAll('img')) {
    img.loading = 'lazy';
    const wrap = h('div', { class: 'chart-wrap' });
    img.replaceWith(wrap);
    wrap.append(img);
  }
  for (const table of body.querySelectorAll('table')) {
    const wrap = h('div', { class: 'table-wrap' });
    table.replaceWith(wrap);
    wrap.append(table);
  }
  return null;
}

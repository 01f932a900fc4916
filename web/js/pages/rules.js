// The rules pages: each game's rules page from the server, which renders its Markdown, with its
// figures drawn live by the board renderer; without it, the catalog's summary, options and move
// examples.

import { h, mount } from '../util.js';
import { api, catalog } from '../api.js';
import { drawFigures } from '../figure.js';

export async function rulesPage(root, game) {
  root.className = 'rules-root';
  const cat = await catalog();
  const info = game && cat.games.find((g) => g.name === game);
  const nav = h('nav', { class: 'rules-nav', 'aria-label': 'Games' },
    cat.games.map((g) => h('a', { href: `/rules/${g.name}`, class: g.name === game ? 'active' : '', 'aria-current': g.name === game ? 'page' : null }, g.title)),
    h('a', { href: '/api/docs', target: '_blank', rel: 'noopener', class: 'api-link' }, 'API reference'));
  if (!game) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'Rules'), nav,
      h('ul', { class: 'rules-index' }, cat.games.map((g) => h('li', {}, h('a', { href: `/rules/${g.name}` }, h('strong', {}, g.title)), ' — ', g.summary, ' ', h('a', { href: `/learn/${g.name}` }, 'Tutorial')))),
      h('p', {}, 'New to a game? ', h('a', { href: '/learn' }, 'Learn it step by step'), ' on real positions. Designing or judging a rule? See ', h('a', { href: '/findings' }, 'how the games play'), '.')));
    document.title = 'Rules · boardlab';
    return null;
  }
  if (!info) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'No such game'), nav));
    return null;
  }
  const body = h('article', { class: 'rules' }, h('p', { class: 'muted' }, 'Loading…'));
  mount(root, h('section', { class: 'page narrow' }, nav, body,
    h('p', { class: 'rules-play' }, h('a', { class: 'btn btn-primary', href: `/?game=${info.name}` }, `Play ${info.title}`),
      ' ', h('a', { class: 'btn', href: `/learn/${info.name}`, id: 'rules-learn' }, 'Learn step by step'),
      ' ', h('a', { class: 'btn', href: `/findings/${info.name}`, id: 'rules-findings' }, 'How it plays'),
      info.name === 'sight-reduction' ? [' ', h('a', { class: 'btn', href: '/puzzles' }, 'Puzzles')] : null)));
  document.title = `${info.title} rules · boardlab`;
  try {
    // The server's own rules page, rendered from Markdown by the server.
    body.innerHTML = await api.rules(game);
  } catch {
    body.dataset.figures = 'none';
    mount(body,
      h('h1', {}, info.title),
      h('p', { class: 'lead' }, info.summary),
      h('h2', {}, 'Moves'),
      h('p', {}, 'Examples of move notation: ', h('code', {}, info.move_examples)),
      info.options.length ? h('h2', {}, 'Options') : null,
      info.options.length ? h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, h('th', {}, 'option'), h('th', {}, 'values'), h('th', {}, 'default'), h('th', {}, 'effect'))),
        h('tbody', {}, info.options.map((o) => h('tr', {}, h('td', {}, h('code', {}, o.name)), h('td', {}, accepted(o.values)), h('td', {}, h('code', {}, o.default)), h('td', {}, o.description)))))) : null,
      h('p', { class: 'muted' }, `The full rules are in docs/rules/${info.name}.md of the boardlab source.`));
    return null;
  }
  await drawFigures(body);
  body.dataset.figures = 'drawn';
  return null;
}

function accepted(v) {
  switch (v.kind) {
    case 'choice': return v.choices.join(', ');
    case 'bool': return 'true, false';
    case 'int': return `${v.min} to ${v.max}`;
    case 'intor': return `${v.word}, or ${v.min} to ${v.max}`;
    default: return v.accepted || '';
  }
}

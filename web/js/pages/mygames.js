// My games: the signed-in player's games, those waiting for their move first, kept live.

import { h, mount } from '../util.js';
import { api, catalog } from '../api.js';
import { currentAccount, onAccount, onMyGames, myGamesListing, notifyControl } from '../account.js';
import { filterBar, filterOf, groupedRows, loadColours } from './gamerows.js';

export async function myGamesPage(root, query) {
  root.className = 'mygames-root';
  const cat = await catalog();
  const infos = Object.fromEntries(cat.games.map((g) => [g.name, g]));
  const filter = filterOf(query, cat.games);
  const filtered = !!(filter.game || filter.result);
  const list = h('div', { class: 'row-list', id: 'my-games', 'aria-live': 'polite' });
  let stopGames = () => {};

  function signedOut() {
    mount(root, h('section', { class: 'page narrow' },
      h('h1', {}, 'My games'),
      h('p', {}, 'Sign in to see your games, wherever you played them, with those waiting for your move first.'),
      h('p', {}, h('a', { class: 'btn btn-primary', href: '/account?next=/my-games', id: 'mygames-signin' }, 'Sign in'))));
    document.title = 'My games · boardlab';
  }

  let shown = null;
  function show(res) {
    shown = res;
    if (!res.games.length) {
      mount(list, h('p', { class: 'empty' }, filtered ? 'No games match these filters.' : 'No games yet. ',
        filtered ? null : h('a', { href: '/' }, 'Start one'), filtered ? null : ': it is added to your account while you are signed in.'));
      return;
    }
    groupedRows(list, res.games, infos, true);
    // The colours of the games being played come from their states (a swap changes them).
    loadColours(res.games).then((more) => {
      if (more && shown === res) groupedRows(list, res.games, infos, true);
    });
  }

  async function load() {
    // Unfiltered, the listing the top bar keeps (live) will do.
    const kept = !filtered && myGamesListing();
    if (kept) {
      show(kept);
      return;
    }
    try {
      show(await api.myGames({ ...filter, limit: 200 }));
    } catch (e) {
      if (e.status === 401) signedOut();
      else mount(list, h('p', { class: 'error-text' }, e.message));
    }
  }

  function draw() {
    stopGames();
    stopGames = () => {};
    const acc = currentAccount();
    if (!acc) {
      signedOut();
      return;
    }
    mount(root, h('section', { class: 'page mygames' },
      h('div', { class: 'page-head' },
        h('h1', {}, 'My games'),
        h('p', { class: 'head-note' }, 'Signed in as ', h('a', { href: `/players/${encodeURIComponent(acc.name)}`, id: 'mygames-player' }, acc.name), ' · ',
          h('a', { href: '/account' }, 'Account'))),
      h('div', { class: 'mygames-tools' }, filterBar('/my-games', filter, cat.games)),
      list,
      h('div', { class: 'mygames-notify' }, notifyControl())));
    document.title = 'My games · boardlab';
    mount(list, h('p', { class: 'muted' }, 'Loading…'));
    load();
    // A move in one of the games (the live channel): the list follows.
    stopGames = onMyGames((res) => {
      if (filtered) {
        api.myGames({ ...filter, limit: 200 }).then(show).catch(() => {});
      } else {
        show(res);
      }
    });
  }

  draw();
  const stopAccount = onAccount(() => draw());
  return () => {
    stopAccount();
    stopGames();
  };
}

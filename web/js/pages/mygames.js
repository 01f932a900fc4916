// My games: the signed-in player's games, those waiting for their move first, kept live, and
// the games kept in this browser (played against the computer in the page), signed in or not.

import { h, mount } from '../util.js';
import { api, catalog } from '../api.js';
import { currentAccount, onAccount, onMyGames, myGamesListing, notifyControl } from '../account.js';
import { filterBar, filterOf, groupedRows, loadColours, localRows, rowPasses } from './gamerows.js';
import { localGames } from '../local/games.js';

/** Newest change first. */
const byUpdated = (a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0);

export async function myGamesPage(root, query) {
  root.className = 'mygames-root';
  const cat = await catalog();
  const infos = Object.fromEntries(cat.games.map((g) => [g.name, g]));
  const filter = filterOf(query, cat.games);
  const filtered = !!(filter.game || filter.result);
  const list = h('div', { class: 'row-list', id: 'my-games', 'aria-live': 'polite' });
  let stopGames = () => {};
  mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'My games'), h('p', { class: 'muted' }, 'Loading…')));
  // The games kept here, as rows (the engine works out whose turn and the results).
  const local = (await localRows(localGames())).filter((r) => rowPasses(r, filter));
  const deviceNote = () => (local.length
    ? h('p', { class: 'head-note', id: 'mygames-device' }, 'Games against the computer played in this browser are kept on this device only.')
    : null);

  function signedOut() {
    document.title = 'My games · boardlab';
    if (local.length || filtered) {
      mount(root, h('section', { class: 'page mygames' },
        h('div', { class: 'page-head' },
          h('h1', {}, 'My games'),
          h('p', { class: 'head-note' }, h('a', { href: '/account?next=/my-games', id: 'mygames-signin' }, 'Sign in'),
            ' to see your games on the server too, wherever you played them.')),
        deviceNote(),
        h('div', { class: 'mygames-tools' }, filterBar('/my-games', filter, cat.games)),
        list));
      show({ games: [] });
      return;
    }
    mount(root, h('section', { class: 'page narrow' },
      h('h1', {}, 'My games'),
      h('p', {}, 'Sign in to see your games, wherever you played them, with those waiting for your move first.'),
      h('p', {}, h('a', { class: 'btn btn-primary', href: '/account?next=/my-games', id: 'mygames-signin' }, 'Sign in'))));
  }

  let shown = null;
  /** Shows the server's games `res` with those kept here. */
  function show(res) {
    shown = res;
    const games = [...res.games, ...local].sort(byUpdated);
    if (!games.length) {
      mount(list, h('p', { class: 'empty' }, filtered ? 'No games match these filters.' : 'No games yet. ',
        filtered ? null : h('a', { href: '/' }, 'Start one'), filtered ? null : ': it is added to your account while you are signed in.'));
      return;
    }
    groupedRows(list, games, infos, true);
    // The colours of the games being played come from their states (a swap changes them).
    loadColours(res.games).then((more) => {
      if (more && shown === res) groupedRows(list, games, infos, true);
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
      deviceNote(),
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

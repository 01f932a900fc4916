// The start page: choose a game, its options (generated from the catalog's schema), and how to
// play: on this screen, against the computer, or online with an invite link. Its parts are in
// ./home/: the page state, the views, the server and the options' controls; here they meet.

import { h, mount } from '../util.js';
import { catalog } from '../api.js';
import { newHomeState } from './home/state.js';
import { heroView, cardsView, formView } from './home/views.js';
import { create, loadRecent } from './home/server.js';

export { optionControl } from './home/options.js';

/**
 * Opens the start page in `root`, set up from the address's `query`. Returns null: there is
 * nothing to do on leaving it.
 * @param {HTMLElement} root
 * @param {URLSearchParams} query
 * @returns {Promise<null>}
 */
export async function homePage(root, query) {
  root.className = 'home-root';
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'Cannot reach the server'), h('p', { class: 'error-text' }, e.message)));
    return null;
  }
  const hs = newHomeState(cat, query);
  const cards = h('div', { class: 'game-cards', role: 'radiogroup', 'aria-label': 'Game' });
  const form = h('div', { class: 'setup' });
  const recent = h('div', { class: 'recent-mini' });

  /** @type {import('./home/views.js').HomeActions} */
  const on = {
    redrawCards: () => mount(cards, ...cardsView(hs, on)),
    redrawForm: () => mount(form, ...formView(hs, on)),
    create: (err, btn) => create(hs, err, btn),
  };

  mount(root,
    heroView(hs),
    h('section', { class: 'page home' }, cards, h('div', { class: 'home-grid' }, h('div', { class: 'card setup-card' }, form), recent)));
  on.redrawCards();
  on.redrawForm();
  loadRecent(hs, recent);
  document.title = 'boardlab';
  return null;
}

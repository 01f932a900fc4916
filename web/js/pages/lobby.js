// The lobby ("Play online"): the open challenges, kept live, each with who posted it (and
// their rating in that game), the game, its options, colours, rated or casual and the clock,
// to accept or withdraw; and the form to post one: to anyone, to a named player, or a game
// against the computer at once. Its parts are in ./lobby/: the page state, the server and the
// views; here they meet.

import { h, mount, toast } from '../util.js';
import { catalog } from '../api.js';
import { go } from '../nav.js';
import { currentAccount, onAccount, onChallengeStarted } from '../account.js';
import { newLobbyState } from './lobby/state.js';
import { lobbyView, listView, signInView, formView } from './lobby/views.js';
import { load, accept, cancel, postChallenge, openLive } from './lobby/server.js';

/** @typedef {import('./lobby/state.js').Lobby} Lobby */

/**
 * What the lobby's controls do.
 * @param {Lobby} lp
 * @returns {import('./lobby/views.js').LobbyActions}
 */
function actions(lp) {
  return {
    accept: (ch, btn) => accept(lp, ch, btn),
    cancel: (ch, btn) => cancel(lp, ch, btn),
    post: (err, btn, label) => postChallenge(lp, err, btn, label),
    redraw: () => lp.drawForm(),
    focusName: () => /** @type {HTMLElement} */ (lp.side.querySelector('#lobby-opponent-name')).focus(),
  };
}

/**
 * Draws the list of challenges and its error.
 * @param {Lobby} lp
 * @param {import('./lobby/views.js').LobbyActions} on
 */
function drawList(lp, on) {
  lp.listNote.textContent = lp.ls.listError;
  mount(lp.list, listView(lp.ls, on));
}

/**
 * Draws the side: the form signed in, the way to sign in otherwise (and the link to the
 * form only with the form).
 * @param {Lobby} lp
 * @param {import('./lobby/views.js').LobbyActions} on
 */
function drawForm(lp, on) {
  const acc = currentAccount();
  for (const e of lp.root.querySelectorAll('.lobby-jump')) /** @type {HTMLElement} */ (e).hidden = !acc;
  mount(lp.side, acc ? formView(lp.ls, on) : signInView());
}

/**
 * Opens the lobby in `root`. Returns what to do on leaving the page, or null when the catalog
 * could not be loaded.
 * @param {HTMLElement} root
 * @returns {Promise<(() => void) | null>}
 */
export async function lobbyPage(root) {
  root.className = 'lobby-root';
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'Cannot reach the server'), h('p', { class: 'error-text' }, e.message)));
    return null;
  }
  const ls = newLobbyState(cat);
  const list = h('div', { id: 'lobby-list', class: 'lobby-list', 'aria-live': 'polite' });
  const listNote = h('div', { class: 'form-error', role: 'alert', id: 'lobby-list-error' });
  const side = h('div', { class: 'lobby-side', id: 'lobby-side' });
  const lp = /** @type {Lobby} */ ({ root, ls, list, listNote, side });
  const on = actions(lp);
  lp.drawList = () => drawList(lp, on);
  lp.drawForm = () => drawForm(lp, on);

  mount(root, lobbyView(side, listNote, list));
  document.title = 'Play online · boardlab';

  const source = openLive(lp);
  lp.drawList();
  lp.drawForm();
  load(lp);
  // A challenge of the player's accepted while this page is shown: to the game at once.
  const stopStarted = onChallengeStarted((game) => {
    if (ls.closed) return false;
    toast('Your challenge was accepted: the game starts.', 'ok');
    go(`/games/${game}`);
    return true;
  });
  const stopAccount = onAccount(() => {
    lp.drawForm();
    load(lp);
  });
  return () => {
    ls.closed = true;
    if (source) source.close();
    stopStarted();
    stopAccount();
  };
}

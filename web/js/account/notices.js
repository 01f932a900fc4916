// Notices on the page, with a link: a challenge of the player's was accepted, or a player
// challenged this one by name (and, if allowed, a browser notification of the latter).

import { h } from '../util.js';
import { go } from '../nav.js';
import { notifyOn } from './notify.js';

/** @typedef {import('../types.js').LiveNews} LiveNews */

/** "Your challenge was accepted — play now": a notice with a link, until closed or followed. */
export function showStartedNotice(id, what) {
  if (location.pathname === `/games/${id}`) return;
  showNotice({ 'data-game-id': id }, `${what}: the game has started.`, `/games/${id}`, 'Play now');
}

/** A notice with a link, until closed or followed. */
function showNotice(attrs, text, href, label) {
  let box = document.getElementById('notices');
  if (!box) {
    box = /** @type {HTMLElement} */ (h('div', { id: 'notices', role: 'status', 'aria-live': 'polite' }));
    document.body.append(box);
  }
  const notice = h('div', { class: 'notice', ...attrs },
    h('span', { class: 'notice-text' }, text),
    h('a', { href, class: 'btn btn-primary notice-go', onclick: () => notice.remove() }, label),
    h('button', { type: 'button', class: 'btn notice-x', 'aria-label': 'Close', title: 'Close', onclick: () => notice.remove() }, '×'));
  box.append(notice);
}

const challengesSeen = new Set();

/**
 * A player challenged this one by name: a notice (and, if allowed, a notification) leading to the lobby.
 * @param {LiveNews} news
 * @param {boolean} here
 */
export function challenged(news, here) {
  if (challengesSeen.has(news.challenge)) return;
  challengesSeen.add(news.challenge);
  const what = `${news.from} challenges you to ${news.title || 'a game'}`;
  if (location.pathname !== '/lobby') {
    showNotice({ 'data-challenge-id': news.challenge }, `${what}.`, '/lobby', 'See the challenge');
  }
  if (here && notifyOn() && document.visibilityState !== 'visible') {
    try {
      const n = new Notification(`${what}.`, { body: 'Accept it in the lobby.', tag: `boardlab-challenge-${news.challenge}`, icon: '/favicon.svg' });
      n.onclick = () => {
        window.focus();
        go('/lobby');
        n.close();
      };
    } catch {
      // some browsers show notifications only from a service worker
    }
  }
}

/** Notices of games the page now shows go. */
export function dropNotices() {
  for (const n of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#notices .notice'))) {
    if (location.pathname === `/games/${n.dataset.gameId}`) n.remove();
  }
}

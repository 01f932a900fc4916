// The router: which page each address shows. The server answers every path without a file
// extension with index.html, so these paths work when opened directly or reloaded. Pages
// navigate with `go` (nav.js) and never import this module. A game kept in this browser
// (`local-…`, local/games.js) has a game page and a review, as a server's game does.

import { mount, h } from './util.js';
import { go, NAVIGATED } from './nav.js';
import { homePage } from './pages/home.js';
import { gamePage } from './pages/game.js';
import { replayPage } from './pages/replay.js';
import { listPage } from './pages/list.js';
import { rulesPage } from './pages/rules.js';
import { findingsPage } from './pages/findings.js';
import { gameReviewPage, uploadReviewPage } from './pages/review.js';
import { analysisPage } from './pages/analysis.js';
import { learnIndexPage, learnPage } from './pages/learn.js';
import { puzzlesPage, puzzlePage } from './pages/puzzles.js';
import { installDefs } from './board.js';
import { installSettings } from './settings.js';
import { installAccount, accountKnown, pageChanged } from './account.js';
import { accountPage } from './pages/account.js';
import { myGamesPage } from './pages/mygames.js';
import { playerPage } from './pages/player.js';
import { lobbyPage } from './pages/lobby.js';
import { ratingsPage } from './pages/ratings.js';

/**
 * A page: draws itself into `el` (the address's query in `q`); may answer a function that
 * cleans up when another page replaces it.
 * @typedef {(el: HTMLElement, q: URLSearchParams) => any} Page
 */

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {(() => void) | null} */
let cleanup = null;

/** @type {[RegExp, (m: RegExpExecArray) => Page][]} */
const routes = [
  [/^\/$/, () => homePage],
  [/^\/games\/?$/, () => listPage],
  [/^\/games\/([a-z0-9]+)\/replay\/?$/, (m) => (el, q) => replayPage(el, m[1], q)],
  [/^\/games\/([a-z0-9]+|local-[0-9a-f]{16})\/review\/?$/, (m) => (el, q) => gameReviewPage(el, m[1], q)],
  [/^\/review\/?$/, () => uploadReviewPage],
  [/^\/analysis\/?$/, () => analysisPage],
  [/^\/games\/([a-z0-9]+|local-[0-9a-f]{16})\/?$/, (m) => (el) => gamePage(el, m[1])],
  [/^\/rules\/?$/, () => (el) => rulesPage(el, null)],
  [/^\/rules\/([a-z0-9-]+)\/?$/, (m) => (el) => rulesPage(el, m[1])],
  [/^\/findings\/?$/, () => (el) => findingsPage(el, null)],
  [/^\/findings\/([A-Za-z0-9-]+)\/?$/, (m) => (el) => findingsPage(el, m[1])],
  [/^\/findings\/([A-Za-z0-9-]+)\/report\/?$/, (m) => (el) => findingsPage(el, `${m[1]}/report`)],
  [/^\/learn\/?$/, () => learnIndexPage],
  [/^\/learn\/([a-z0-9-]+)\/?$/, (m) => (el) => learnPage(el, m[1])],
  [/^\/puzzles\/?$/, () => puzzlesPage],
  [/^\/puzzles\/([a-z0-9-]+)\/?$/, (m) => (el) => puzzlePage(el, m[1])],
  [/^\/account\/?$/, () => accountPage],
  [/^\/my-games\/?$/, () => myGamesPage],
  [/^\/players\/([^/]+)\/?$/, (m) => (el, q) => playerPage(el, decodeURIComponent(m[1]), q)],
  [/^\/lobby\/?$/, () => lobbyPage],
  [/^\/ratings\/?$/, () => (el) => ratingsPage(el, null)],
  [/^\/ratings\/([a-z0-9-]+)\/?$/, (m) => (el) => ratingsPage(el, m[1])],
];

/** @param {HTMLElement} el */
function notFound(el) {
  mount(el, h('section', { class: 'page narrow' },
    h('h1', {}, 'Page not found'),
    h('p', {}, 'There is nothing at this address. ', h('a', { href: '/' }, 'Start a new game'), ' or look at the ', h('a', { href: '/games' }, 'recent games'), '.')));
}

async function route() {
  if (cleanup) {
    try {
      cleanup();
    } catch {
      // a page that failed to clean up must not block the next one
    }
    cleanup = null;
  }
  // Pages ask who is signed in (the game page: which seats are the player's).
  await accountKnown();
  const path = location.pathname;
  /** @type {Page} */
  let page = notFound;
  for (const [re, make] of routes) {
    const m = re.exec(path);
    if (m) {
      page = make(m);
      break;
    }
  }
  for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.nav a'))) {
    const nav = a.dataset.nav;
    const active = (nav === 'home' && path === '/') || (nav === 'games' && path.startsWith('/games')) || (nav === 'rules' && (path.startsWith('/rules') || path.startsWith('/findings')))
      || (nav === 'analysis' && (path.startsWith('/analysis') || path.startsWith('/review')))
      || (nav === 'learn' && path.startsWith('/learn')) || (nav === 'puzzles' && path.startsWith('/puzzles'))
      || (nav === 'lobby' && (path.startsWith('/lobby') || path.startsWith('/ratings')));
    a.classList.toggle('active', active);
    if (active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  markAccountLinks(path);
  main.replaceChildren();
  main.className = '';
  try {
    cleanup = (await page(main, new URLSearchParams(location.search))) || null;
  } catch (e) {
    mount(main, h('section', { class: 'page narrow' }, h('h1', {}, 'Something went wrong'), h('p', { class: 'error-text' }, String(e.message || e))));
  }
  pageChanged();
}

/** Marks the top bar's account link of the page shown (they are drawn again on sign-in/out). */
function markAccountLinks(path = location.pathname) {
  for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#account-bar a'))) {
    const nav = a.dataset.nav;
    const active = (nav === 'account' && path.startsWith('/account')) || (nav === 'my-games' && path.startsWith('/my-games'))
      || (a.id === 'acct-name' && path === a.getAttribute('href'));
    a.classList.toggle('active', active);
    if (active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

function followLinks(ev) {
  const a = ev.target.closest('a');
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  const href = a.getAttribute('href');
  if (!href || !href.startsWith('/') || href.startsWith('/api/') || a.hasAttribute('download') || a.target) return;
  // A file (a report's numbers, a chart) is the server's, not a page of the app.
  if (/\.[a-z0-9]+$/i.test(href.split(/[?#]/)[0])) return;
  ev.preventDefault();
  if (href !== location.pathname + location.search) go(href);
}

/** Starts the app: the settings, the account bar, the board's shared drawings and the page. */
export function start() {
  document.addEventListener('click', followLinks);
  window.addEventListener('popstate', route);
  window.addEventListener(NAVIGATED, route);
  installSettings();
  installAccount();
  document.addEventListener('account-bar', () => markAccountLinks());
  installDefs();
  route();
}

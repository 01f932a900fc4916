// Optional player accounts, seen from every page: who is signed in here, the top bar's account
// links, claiming the seats this browser holds, and the games waiting for the player's move,
// kept live: the count in the tab title and on the "My games" link, and, if the player asked
// for them, browser notifications; and the word that a challenge of the player's was accepted
// (the lobby page then goes to the game; any other page shows a notice with a link).
//
// The session is an HttpOnly cookie: pages never see it, they ask GET /api/account. One tab
// keeps the live channel (GET /api/account/live) open for all of this browser's tabs: the
// browser allows only a few connections to one server at a time, and a stream per tab would
// use them up. The other tabs hear from it over a BroadcastChannel and take the channel over
// when its tab closes (Web Locks). Without those APIs each tab keeps its own.
//
// The notification setting lives in account/notify.js, the page's notices in account/notices.js
// and the account's controls (the settings switch, the pages' notify control) in
// account/controls.js; this module keeps the state they hang on and speaks for them to pages.

import { h, mount } from './util.js';
import { api, seats, catalog } from './api.js';
import { go } from './nav.js';
import { computerName } from './pages/shared.js';
import { notificationsPossible, notifyOn, setNotify, onNotify, noteViewing, someoneViews, forgetViewing } from './account/notify.js';
import { showStartedNotice, challenged, dropNotices } from './account/notices.js';
import { personIcon, notifyControl, installNotifySetting } from './account/controls.js';

// Pages reach these through this module, as before they moved.
export { notificationsPossible, notifyOn, setNotify, onNotify, notifyControl };

/** @typedef {import('./types.js').Account} Account */
/** @typedef {import('./types.js').MyGamesListing} MyGamesListing */
/** @typedef {import('./types.js').MyGame} MyGame */
/** @typedef {import('./types.js').LiveNews} LiveNews */

/** @type {Account | null | undefined} */
let account; // undefined until known; null: nobody is signed in; {name}
/** @type {Promise<void> | null} */
let known = null; // the promise of the first answer
const listeners = new Set();
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('boardlab-account') : null;

/**
 * The signed-in account `{name}`, or null.
 * @returns {Account | null}
 */
export function currentAccount() {
  return account || null;
}

/**
 * The signed-in player's name, or null.
 * @returns {string | null}
 */
export function accountName() {
  return account ? account.name : null;
}

/**
 * Whether two account names are the same (names are unique in any case).
 * @param {string | null | undefined} a
 * @param {string | null | undefined} b
 * @returns {boolean}
 */
export function sameName(a, b) {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/**
 * Calls `fn(account)` whenever someone signs in or out here; returns the way to stop.
 * @param {(account: Account | null) => void} fn
 * @returns {() => boolean}
 */
export function onAccount(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Resolves once the first answer of GET /api/account is in.
 * @returns {Promise<unknown>}
 */
export function accountKnown() {
  // A slow answer does not hold the page up for long: it follows when the answer comes.
  return Promise.race([known || Promise.resolve(), new Promise((r) => setTimeout(r, 4000))]);
}

function setAccount(next, tell = false) {
  const first = account === undefined;
  const before = accountName();
  account = next && next.name ? { name: next.name } : null;
  if (!first && before === accountName()) return;
  if (tell && channel) channel.postMessage({ type: 'account' });
  for (const fn of [...listeners]) {
    try {
      fn(account);
    } catch {
      // one listener's failure must not stop the others
    }
  }
}

let available = true; // false: the server has no accounts (an older one)

/** Asks the server who is signed in; null for nobody (and for a server without accounts). */
async function fetchAccount() {
  try {
    const res = await api.account();
    available = true;
    return res.account || null;
  } catch (e) {
    if (e.status === 404) {
      available = false;
      return null;
    }
    throw e;
  }
}

// ---- signing in and out ----

/**
 * Signs in (or, with `create`, signs up) and claims this browser's seats: `{claimed}`.
 * @param {string} name
 * @param {string} password
 * @param {boolean} [create]
 * @returns {Promise<{account: Account, claimed: number}>}
 */
export async function signIn(name, password, create = false) {
  const res = create ? await api.signup(name, password) : await api.login(name, password);
  setAccount(res.account, true);
  const claimed = await claimAll();
  return { account: res.account, claimed };
}

/**
 * Signs out here (or, with `everywhere`, in every browser): `{sessions_ended}`.
 * @param {boolean} [everywhere]
 * @returns {Promise<any>}
 */
export async function signOut(everywhere = false) {
  const res = everywhere ? await api.logoutEverywhere() : await api.logout();
  setAccount(null, true);
  return res;
}

// ---- claims: the seats this browser holds become the account's ----

const CLAIMED = 'boardlab:claimed:';

/** Games this browser has already claimed for `name` (or found claimed by someone else). */
function claimedFor(name) {
  try {
    return new Set(JSON.parse(/** @type {string} */ (localStorage.getItem(CLAIMED + name.toLowerCase()))) || []);
  } catch {
    return new Set();
  }
}

function noteClaimed(name, ids) {
  try {
    localStorage.setItem(CLAIMED + name.toLowerCase(), JSON.stringify([...ids]));
  } catch {
    // without storage the claims are simply tried again next time
  }
}

/**
 * Claims for the signed-in account the seats game `id`'s tokens hold: the tokens of the seats
 * this browser plays, never an invite link's (the seat that link is for is the opponent's).
 * Answers the game's state after the last claim that was taken, or null. Refusals (a seat that
 * is another account's, a token that no longer holds a seat) are ignored quietly.
 * @param {string} id
 * @param {{first?: string, second?: string}} [tokens]
 * @returns {Promise<any>}
 */
export async function claimGame(id, tokens = seats.get(id)) {
  const name = accountName();
  if (!name) return null;
  const unique = [...new Set([tokens.first, tokens.second].filter((t) => typeof t === 'string' && t))];
  /** @type {any} */
  let state = null;
  let settled = unique.length > 0;
  for (const token of unique) {
    try {
      state = await api.claim(id, token);
    } catch (e) {
      // 403: the token holds no seat; 409: the seat is another account's; 404: no such game.
      if (![403, 404, 409].includes(e.status)) settled = false;
    }
  }
  if (settled) {
    const done = claimedFor(name);
    done.add(id);
    noteClaimed(name, done);
  }
  return state;
}

/**
 * Claims the seats of every game this browser holds (those not claimed before): answers how
 * many games now have a seat of the account's.
 * @returns {Promise<number>}
 */
export async function claimAll() {
  const name = accountName();
  if (!name) return 0;
  const done = claimedFor(name);
  const ids = seats.mine().filter((id) => !done.has(id));
  let taken = 0;
  // A few at a time: a browser may hold many games.
  const queue = [...ids];
  const worker = async () => {
    while (queue.length) {
      const id = /** @type {string} */ (queue.shift());
      const state = await claimGame(id);
      if (state && ['first', 'second'].some((s) => state.seats[s] && sameName(state.seats[s].account, name))) taken += 1;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  if (taken) refreshGames();
  return taken;
}

// ---- the games waiting for the player: count, title, badge, notifications ----

/** @type {Set<string> | null} */
let waiting = null; // ids of the games that are the player's to move (null before the first listing)
let count = 0;
/** @type {MyGamesListing | null} */
let listing = null; // the last answer of GET /api/account/games
/** @type {Set<(listing: MyGamesListing) => void>} */
const gameListeners = new Set();
let refreshTimer = 0;
/** @type {Promise<void> | null} */
let refreshing = null;

/**
 * The last listing of the player's games (null before the first).
 * @returns {MyGamesListing | null}
 */
export function myGamesListing() {
  return listing;
}

/**
 * Calls `fn(listing)` with each new listing of the player's games; returns the way to stop.
 * @param {(listing: MyGamesListing) => void} fn
 * @returns {() => boolean}
 */
export function onMyGames(fn) {
  gameListeners.add(fn);
  return () => gameListeners.delete(fn);
}

/**
 * Fetches the player's games again (soon; several calls in a row make one request).
 * @param {boolean} [now]
 * @returns {Promise<void> | null}
 */
export function refreshGames(now = false) {
  clearTimeout(refreshTimer);
  if (now) return doRefresh();
  refreshTimer = setTimeout(doRefresh, 120);
  return null;
}

async function doRefresh() {
  if (!accountName()) return;
  if (refreshing) {
    // One request at a time; ask again once it is answered.
    refreshing.then(() => refreshGames());
    return;
  }
  const name = accountName();
  refreshing = api.myGames({ limit: 200 }).then((/** @type {MyGamesListing} */ res) => {
    if (accountName() !== name) return;
    const now = new Set(res.games.filter((g) => g.your_turn).map((g) => g.id));
    const before = waiting;
    waiting = now;
    listing = res;
    setCount(typeof res.your_turn === 'number' ? res.your_turn : now.size);
    if (before) for (const g of res.games) if (g.your_turn && !before.has(g.id)) notifyTurn(g);
    for (const fn of [...gameListeners]) fn(res);
  }).catch((e) => {
    if (e.status === 401) recheck();
  }).finally(() => {
    refreshing = null;
  });
  await refreshing;
}

function setCount(n) {
  count = n;
  applyTitle();
  for (const badge of document.querySelectorAll('.turn-badge')) {
    badge.textContent = String(n);
    /** @type {HTMLElement} */ (badge).hidden = n === 0;
  }
  const link = document.getElementById('acct-games');
  if (link) link.setAttribute('aria-label', n ? `My games: ${n} waiting for your move` : 'My games');
  const icon = document.getElementById('acct-icon');
  if (icon && account) icon.setAttribute('aria-label', `My games (${account.name})${n ? `: ${n} waiting for your move` : ''}`);
}

/** "(2) Obsidio · boardlab": the count in front of whatever title the page set. */
function applyTitle() {
  const base = document.title.replace(/^\(\d+\) /, '');
  const want = count > 0 && account ? `(${count}) ${base}` : base;
  if (document.title !== want) document.title = want;
}

async function notifyTurn(g) {
  // The tab holding the live channel speaks for all of them (each tab hears of the change).
  if (!notifyOn() || (locksOn && !leading) || someoneViews(g.id)) return;
  let title = g.game;
  try {
    const info = (await catalog()).games.find((x) => x.name === g.game);
    if (info) title = info.title;
  } catch {
    // the game's key will do
  }
  const who = g.opponent || (g.opponent_computer ? computerName(g.opponent_computer) : 'your opponent');
  try {
    const n = new Notification(`Your move in ${title}`, {
      body: g.moves ? `${who} has moved: it is your turn.` : `Against ${who}: it is your turn.`,
      tag: `boardlab-turn-${g.id}`,
      icon: '/favicon.svg',
    });
    n.onclick = () => {
      window.focus();
      go(`/games/${g.id}`);
      n.close();
    };
  } catch {
    // some browsers show notifications only from a service worker
  }
}

// ---- the live channel ----

let live = false; // whether this tab follows the account's games
/** @type {EventSource | null} */
let source = null;
let leading = false;
let locksOn = false;
/** @type {(() => void) | null} */
let releaseLock = null;
/** @type {AbortController | null} */
let lockAbort = null;
let retryTimer = 0;
let retries = 0;

function startLive() {
  if (live) return;
  live = true;
  retries = 0;
  refreshGames(true);
  locksOn = !!(navigator.locks && channel);
  if (!locksOn) {
    openSource();
    return;
  }
  lockAbort = new AbortController();
  navigator.locks.request('boardlab-account-live', { signal: lockAbort.signal }, () => /** @type {Promise<void>} */ (new Promise((release) => {
    if (!live) {
      release();
      return;
    }
    releaseLock = release;
    leading = true;
    openSource();
  }))).catch(() => {
    // aborted: this tab signed out before its turn to hold the channel
  });
}

function stopLive() {
  live = false;
  leading = false;
  clearTimeout(retryTimer);
  closeSource();
  if (lockAbort) lockAbort.abort();
  lockAbort = null;
  if (releaseLock) releaseLock();
  releaseLock = null;
  waiting = null;
  listing = null;
  setCount(0);
}

function closeSource() {
  if (source) {
    source.close();
    source = null;
  }
}

function openSource() {
  closeSource();
  if (!live || typeof EventSource !== 'function') return;
  const es = new EventSource('/api/account/live');
  source = es;
  const changed = () => {
    refreshGames();
    if (channel) channel.postMessage({ type: 'games' });
  };
  // `hello` comes on every (re)connection: what changed while away is fetched then.
  es.addEventListener('hello', () => {
    retries = 0;
    changed();
  });
  es.addEventListener('games', (ev) => {
    changed();
    // {"game": ID, "started": true}: a challenge of the player's was accepted.
    /** @type {LiveNews | null} */
    let data = null;
    try {
      data = JSON.parse(ev.data);
    } catch {
      data = null;
    }
    if (data && data.started && data.game) {
      if (channel) channel.postMessage({ type: 'started', game: data.game });
      challengeStarted(data.game, true);
    }
    // {"challenge": ID, "from": NAME, "title": GAME}: a player challenged this one by name.
    if (data && data.challenge && data.from) {
      if (channel) channel.postMessage({ type: 'challenged', news: data });
      challenged(data, true);
    }
  });
  es.onerror = () => {
    // The browser reconnects by itself after a dropped connection; a refusal (signed out
    // elsewhere, the server restarting) closes the stream: look again later.
    if (es.readyState !== EventSource.CLOSED || source !== es) return;
    source = null;
    retries += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => recheck(true), Math.min(30000, 1000 * 2 ** Math.min(retries, 5)));
  };
}

/** Asks the server again who is signed in (after a refusal); reopens the channel if still so. */
async function recheck(reopen = false) {
  let who;
  try {
    who = await fetchAccount();
  } catch {
    if (reopen && live) retryTimer = setTimeout(() => recheck(true), 10000);
    return;
  }
  setAccount(who);
  if (who && reopen && live && (leading || !locksOn)) openSource();
}

if (channel) {
  channel.onmessage = (ev) => {
    const msg = ev.data || {};
    if (msg.type === 'games' && live) refreshGames();
    else if (msg.type === 'started' && live && msg.game) challengeStarted(msg.game, false);
    else if (msg.type === 'challenged' && live && msg.news) challenged(msg.news, false);
    else if (msg.type === 'account') recheck();
  };
}

// ---- challenges accepted (the lobby) ----

/** @type {Set<(gameId: string) => unknown>} */
const startedListeners = new Set();
/** @type {Set<string>} */
const startedSeen = new Set();

/**
 * Calls `fn(gameId)` when a challenge of the player's is accepted (its game has started); a
 * listener that answers true has taken the player there, and no notice is shown. Returns the
 * way to stop.
 * @param {(gameId: string) => unknown} fn
 * @returns {() => boolean}
 */
export function onChallengeStarted(fn) {
  startedListeners.add(fn);
  return () => startedListeners.delete(fn);
}

/**
 * A challenge of the player's was accepted: its game `id` has started.
 * @param {string} id
 * @param {boolean} here
 */
async function challengeStarted(id, here) {
  if (startedSeen.has(id)) return;
  startedSeen.add(id);
  refreshGames();
  for (const fn of [...startedListeners]) {
    try {
      if (fn(id)) return;
    } catch {
      // a listener's failure leaves the notice to say it
    }
  }
  /** @type {any} */
  let st = null;
  try {
    st = await api.game(id);
  } catch {
    st = null;
  }
  const me = accountName();
  const other = st && ['first', 'second'].map((x) => st.seats[x].account).find((a) => a && !sameName(a, me));
  const what = st ? `Your ${st.title} challenge was accepted${other ? ` by ${other}` : ''}` : 'Your challenge was accepted';
  showStartedNotice(id, what);
  // The tab holding the live channel tells a player who is looking elsewhere (the same tag as
  // the turn's notification of this game, so that one replaces the other).
  if (here && notifyOn() && document.visibilityState !== 'visible') {
    try {
      const n = new Notification(`${what}.`, { body: 'The game has started: play now.', tag: `boardlab-turn-${id}`, icon: '/favicon.svg' });
      n.onclick = () => {
        window.focus();
        go(`/games/${id}`);
        n.close();
      };
    } catch {
      // some browsers show notifications only from a service worker
    }
  }
}

// ---- the top bar ----

function renderBar() {
  const bar = document.getElementById('account-bar');
  if (!bar) return;
  if (account === undefined || (!account && !available)) {
    mount(bar);
    return;
  }
  if (!account) {
    mount(bar, h('a', { href: '/account', id: 'acct-signin', class: 'acct-link acct-signin', 'data-nav': 'account' }, 'Sign in'));
    document.dispatchEvent(new Event('account-bar'));
    return;
  }
  const badge = () => h('span', { class: 'turn-badge', hidden: count === 0, 'aria-hidden': 'true' }, String(count));
  mount(bar,
    // Wide screens: the name (to the player's page), My games and Sign out.
    h('a', { href: `/players/${encodeURIComponent(account.name)}`, id: 'acct-name', class: 'acct-link acct-wide', title: 'Your player page' }, personIcon(), h('span', { class: 'acct-name-text' }, account.name)),
    h('a', { href: '/my-games', id: 'acct-games', class: 'acct-link acct-wide', 'data-nav': 'my-games' }, 'My games', badge()),
    h('button', { type: 'button', id: 'acct-signout', class: 'acct-link acct-wide acct-out', onclick: () => signOutHere() }, 'Sign out'),
    // Narrow screens: one button to My games, which links the rest.
    h('a', { href: '/my-games', id: 'acct-icon', class: 'acct-link acct-narrow', 'data-nav': 'my-games', title: `My games (${account.name})` }, personIcon(), badge()));
  setCount(count);
  document.dispatchEvent(new Event('account-bar'));
}

async function signOutHere() {
  try {
    await signOut(false);
  } catch {
    // the server may have ended the session already: the page shows it signed out anyway
    setAccount(null, true);
  }
  if (/^\/(my-games|account)\/?$/.test(location.pathname)) go('/account', true);
}

/**
 * Finds out who is signed in and keeps the top bar, the title and the live channel in step.
 * @returns {Promise<void>}
 */
export function installAccount() {
  onAccount((a) => {
    renderBar();
    if (a) startLive();
    else stopLive();
    applyTitle();
  });
  renderBar();
  installNotifySetting(!!account, onAccount);
  // The page's own title changes (every page sets it): the count goes back in front.
  const title = document.querySelector('title');
  if (title) new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
  // Which game this tab shows, for the other tabs' notifications.
  document.addEventListener('visibilitychange', () => {
    noteViewing();
    // Back to a tab: its listing may be older than the others'.
    if (document.visibilityState === 'visible' && live) refreshGames();
  });
  window.addEventListener('pagehide', forgetViewing);
  setInterval(noteViewing, 30000);
  known = fetchAccount().then((a) => setAccount(a)).catch(() => setAccount(null));
  return known;
}

/** Called by the router after each page change. */
export function pageChanged() {
  noteViewing();
  applyTitle();
  dropNotices();
}

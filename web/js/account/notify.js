// Browser notifications, opt-in: the player's choice (kept in this browser), and which game
// each visible tab of this browser shows, so that no notification tells of a game already
// on screen.

const TAB = Math.random().toString(36).slice(2);
const NOTIFY = 'boardlab:notify';
const VIEWING = 'boardlab:viewing:';

/** Whether this browser can show notifications at all. */
export function notificationsPossible() {
  return typeof Notification === 'function';
}

/** Whether the player asked for notifications here and the browser allows them. */
export function notifyOn() {
  try {
    return notificationsPossible() && Notification.permission === 'granted' && localStorage.getItem(NOTIFY) === 'on';
  } catch {
    return false;
  }
}

/**
 * Turns notifications on (asking the browser's permission: only ever after the player pressed
 * a control) or off. Answers whether they are on, and why not: 'blocked' or 'unsupported'.
 * @param {boolean} on
 * @returns {Promise<{on: boolean, why?: string}>}
 */
export async function setNotify(on) {
  const store = (v) => {
    try {
      if (v) localStorage.setItem(NOTIFY, 'on');
      else localStorage.removeItem(NOTIFY);
    } catch {
      // without storage the choice lasts while the page is open
    }
  };
  if (!on) {
    store(false);
    notifyListeners();
    return { on: false };
  }
  if (!notificationsPossible()) return { on: false, why: 'unsupported' };
  let permission = Notification.permission;
  if (permission === 'default') {
    try {
      permission = await Notification.requestPermission();
    } catch {
      permission = 'denied';
    }
  }
  store(permission === 'granted');
  notifyListeners();
  return permission === 'granted' ? { on: true } : { on: false, why: 'blocked' };
}

/** @type {Set<(on: boolean) => void>} */
const notifyWatchers = new Set();
/**
 * Calls `fn(on)` whenever notifications are turned on or off here; returns the way to stop.
 * @param {(on: boolean) => void} fn
 * @returns {() => boolean}
 */
export function onNotify(fn) {
  notifyWatchers.add(fn);
  return () => notifyWatchers.delete(fn);
}
function notifyListeners() {
  for (const fn of [...notifyWatchers]) fn(notifyOn());
}

/** The game this tab shows, while the tab is visible: noted for the other tabs too. */
function viewedGame() {
  const m = /^\/games\/([a-z0-9]+)\/?$/.exec(location.pathname);
  return m && document.visibilityState === 'visible' ? m[1] : null;
}

export function noteViewing() {
  try {
    const id = viewedGame();
    if (id) localStorage.setItem(VIEWING + TAB, JSON.stringify({ id, at: Date.now() }));
    else localStorage.removeItem(VIEWING + TAB);
  } catch {
    // without storage each tab knows only what it shows itself
  }
}

/** Whether a visible tab of this browser shows game `id` (noted in the last minute). */
export function someoneViews(id) {
  if (viewedGame() === id) return true;
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const k = localStorage.key(i);
      if (!k || !k.startsWith(VIEWING)) continue;
      const v = JSON.parse(/** @type {string} */ (localStorage.getItem(k)));
      if (v && v.id === id && Date.now() - v.at < 60000) return true;
    }
  } catch {
    return false;
  }
  return false;
}

/** This tab is going: it shows no game any more. */
export function forgetViewing() {
  try {
    localStorage.removeItem(VIEWING + TAB);
  } catch {
    // nothing to clear
  }
}

// Navigation inside the app. Pages call `go`; the router (router.js) listens for the change
// and shows the page. This module imports nothing, so no page depends on the router.

/** The event the router shows the current address's page on. */
export const NAVIGATED = 'app-navigated';

/**
 * Navigates inside the app to `path` (a new history entry, or the current one replaced).
 * @param {string} path
 * @param {boolean} [replace]
 */
export function go(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATED));
  window.scrollTo(0, 0);
}

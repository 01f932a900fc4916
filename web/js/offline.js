// The app offline: registers the service worker (/sw.js), which keeps the app's files and
// reference pages so that the app opens, and games against the computer work, with no network.
// The worker's address carries the app's version (from /app-files.json): a new version is a new
// address, so the browser installs it. Where the list or the worker is missing (an older server,
// a browser without service workers, a private window), nothing happens and nothing is said.

/** How long after the page has loaded the worker is registered (milliseconds). */
const REGISTER_DELAY_MS = 4000;

/** Registers the service worker a while after the page has loaded. */
export function registerOffline() {
  if (!('serviceWorker' in navigator)) return;
  const register = async () => {
    try {
      const res = await fetch('/app-files.json', { cache: 'no-store' });
      if (!res.ok) return;
      const { version } = await res.json();
      if (!version) return;
      await navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`, { scope: '/' });
    } catch {
      // offline (the worker registered before goes on), or no worker here
    }
  };
  // A while after the page has loaded: on a first visit, keeping the app (4 MB) would
  // otherwise compete with the page and the engine as they start.
  const later = () => setTimeout(register, REGISTER_DELAY_MS);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}

// The service worker: keeps the app and its reference pages in a cache so that the app opens,
// and games against the computer, hints, analysis, rules and tutorials work, with no network.
// Registered by js/offline.js as /sw.js?v=VERSION (scope /): a new version of the app is a new
// script address, which installs a new worker.
//
// What the worker keeps is what the server lists at /app-files.json: `files` (the app's own
// files) and `data` (the read-only API answers the pages read). The list's version is a hash
// of every byte listed, and each version has its own cache and its own worker, so a kept copy
// is the very file the server would send: listed addresses are answered from the cache, with
// no round trip. A new version is noticed on the next page load (js/offline.js registers the
// worker of the version the server lists), kept in full, and then takes over. Pages themselves
// (navigations) come from the network first, the kept index.html answering when it fails or
// is slow. Requests to the API that are not listed (games, accounts, the lobby, live
// channels) are never touched.

/// <reference lib="webworker" />

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const PREFIX = 'boardlab-';
const LIST = '/app-files.json';
/** How long the network may take before a kept copy answers (milliseconds). */
const TIMEOUT = 3000;
/** How many addresses one `cache.addAll` fetches. */
const CHUNK = 16;
/**
 * API paths that may be listed in `data`; only these are looked at, every other /api request
 * goes to the network without the worker.
 */
const DATA_API = /^\/api\/(catalog|puzzles|rules\/[\w-]+|tutorials\/[\w-]+|findings\/[\w-]+)$/;

/** @typedef {{version: string, files: string[], data: string[]}} AppFiles */

/** @type {Promise<{cache: string, listed: Set<string>} | null> | null} */
let current = null;

/** The cache this worker filled, while it lives (a restarted worker finds it as the newest). */
let installed = '';

/** Our complete caches (those holding the list), oldest first. */
async function completeCaches() {
  const out = [];
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && await (await caches.open(name)).match(LIST)) out.push(name);
  }
  return out;
}

/** The cache in use and the addresses it lists (read back from the cache after a restart). */
function kept() {
  current ||= (async () => {
    const names = await completeCaches();
    const name = names.includes(installed) ? installed : names[names.length - 1];
    if (!name) return null;
    const res = /** @type {Response} */ (await (await caches.open(name)).match(LIST));
    /** @type {AppFiles} */
    const list = await res.json();
    return { cache: name, listed: new Set([...list.files, ...list.data]) };
  })().catch(() => null).then((k) => {
    if (!k) current = null; // looked for again next time
    return k;
  });
  return current;
}

// Install: every listed address into a cache named by the version. If any fetch fails, the
// new cache is removed and the install fails; the worker in use and its cache stay.
sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const res = await fetch(LIST, { cache: 'no-store' });
    if (!res.ok) throw new Error(`${LIST}: ${res.status}`);
    /** @type {AppFiles} */
    const list = await res.clone().json();
    const name = PREFIX + list.version;
    const cache = await caches.open(name);
    try {
      const all = [...list.files, ...list.data];
      for (let i = 0; i < all.length; i += CHUNK) {
        // `no-cache`: the browser's HTTP cache may only answer after asking the server.
        await cache.addAll(all.slice(i, i + CHUNK).map((a) => new Request(a, { cache: 'no-cache' })));
      }
      // The list last: a cache holding it is complete.
      await cache.put(LIST, res);
      installed = name;
    } catch (e) {
      await caches.delete(name);
      throw e;
    }
    // Every request goes to the network first, so the new worker may take over at once.
    await sw.skipWaiting();
  })());
});

// Activate: the caches of other versions go; open pages are taken over.
sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    current = null;
    const k = await kept();
    for (const n of await caches.keys()) if (n.startsWith(PREFIX) && n !== k?.cache) await caches.delete(n);
    await sw.clients.claim();
  })());
});

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  // The API untouched, apart from the read-only answers that may be listed.
  if (url.pathname.startsWith('/api/') && !DATA_API.test(url.pathname)) return;
  if (url.pathname === LIST || url.pathname === '/sw.js') return;
  event.respondWith(answer(event, url));
});

/**
 * A listed address: the network, then the cache. A navigation to any other address of the app
 * (no file extension, not the API): the network, then the kept index.html (its router draws the
 * page). Anything else: the network alone.
 * @param {FetchEvent} event
 * @param {URL} url
 */
async function answer(event, url) {
  const { request } = event;
  const k = await kept();
  const key = url.pathname + url.search;
  if (k && k.listed.has(key)) return keptFirst(event, k.cache, key);
  const page = request.mode === 'navigate' && !url.pathname.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(url.pathname);
  if (!k || !page) return fetch(request);
  try {
    const res = await withTimeout(fetch(request));
    // A static host that does not know the app's addresses answers 404: the app answers.
    if (res.status !== 404) return res;
  } catch {
    // offline, or too slow: the kept copy
  }
  const copy = await (await caches.open(k.cache)).match('/index.html');
  return copy || fetch(request);
}

/**
 * The kept copy of a listed address; without one (a cache cleared by the browser), the
 * network's answer, kept for next time.
 * @param {FetchEvent} event
 * @param {string} name the cache
 * @param {string} key the address
 */
async function keptFirst(event, name, key) {
  const cache = await caches.open(name);
  const copy = await cache.match(key);
  if (copy) return copy;
  const res = await fetch(event.request);
  if (res.ok) event.waitUntil(cache.put(key, res.clone()).catch(() => {}));
  return res;
}

/**
 * `p`, or a rejection after TIMEOUT.
 * @template T
 * @param {Promise<T>} p
 * @returns {Promise<T>}
 */
function withTimeout(p) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), TIMEOUT);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}

// The server's JSON API (docs/api.md) and the seat tokens this browser holds.

/** An error answer of the API: `status`, `code` and a message for people. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {number | null} [retryAfter]
   */
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    /** Seconds to wait before asking again (a 429's `Retry-After`), or null. */
    this.retryAfter = retryAfter;
  }
}

/** What a player reads when the server cannot be reached. */
const OFFLINE = 'You are offline, or the server cannot be reached: this needs the server. '
  + 'Games against the computer, hints, analysis, rules, tutorials and puzzles work without it.';
/** What a player reads where the app is served without its server (a static copy). */
const NO_SERVER = 'This needs the boardlab server, and this site has none. '
  + 'Games against the computer, hints, analysis, rules, tutorials and puzzles work without it.';

/**
 * Sends one API request and answers the parsed JSON body (null for an empty one).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function request(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', OFFLINE);
  }
  const text = await res.text();
  /** @type {any} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // A plain answer of 404, 405 or 501 is a static host's: the app was copied without a server.
    if (!data && [404, 405, 501].includes(res.status)) throw new ApiError(res.status, 'no_server', NO_SERVER);
    const message = data && data.error ? data.error : `the server answered ${res.status}`;
    const wait = Number(res.headers.get('Retry-After'));
    throw new ApiError(res.status, (data && data.code) || 'http', message, Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  return data;
}

/** `?a=1&b=2` from the parameters that have a value, or ''. */
function queryOf(params = {}) {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
  return q.toString() ? `?${q}` : '';
}

export const api = {
  catalog: () => request('GET', '/api/catalog'),
  list: (params = {}) => request('GET', `/api/games${queryOf(params)}`),
  create: (body) => request('POST', '/api/games', body),
  game: (id) => request('GET', `/api/games/${encodeURIComponent(id)}`),
  at: (id, ply) => request('GET', `/api/games/${encodeURIComponent(id)}/at/${ply}`),
  move: (id, body) => request('POST', `/api/games/${encodeURIComponent(id)}/moves`, body),
  resign: (id, body) => request('POST', `/api/games/${encodeURIComponent(id)}/resign`, body),
  draw: (id, body) => request('POST', `/api/games/${encodeURIComponent(id)}/draw`, body),
  rematch: (id, body) => request('POST', `/api/games/${encodeURIComponent(id)}/rematch`, body),
  undo: (id, body) => request('POST', `/api/games/${encodeURIComponent(id)}/undo`, body),
  join: (id, body) => request('POST', `/api/games/${encodeURIComponent(id)}/join`, body),
  /** A position outside any game: {game, options?, seed?, position?, moves?} (docs/api.md). */
  position: (body) => request('POST', '/api/positions', body),
  /** Starts the review of a game (or answers the stored one): {status, version, current, …}. */
  startReview: (id) => request('POST', `/api/games/${encodeURIComponent(id)}/review`, {}),
  review: (id) => request('GET', `/api/games/${encodeURIComponent(id)}/review`),
  /** Reviews a record (text or JSON form); answers the review when done. */
  reviewRecord: (record) => request('POST', '/api/reviews', { record }),
  hint: (id) => request('GET', `/api/games/${encodeURIComponent(id)}/hint`),
  /** A game's tutorial: {game, title, steps: [{title, text, options, position, goal, …}]}. */
  tutorial: (game) => request('GET', `/api/tutorials/${encodeURIComponent(game)}`),
  /** The kinds and grades of puzzles. */
  puzzles: () => request('GET', '/api/puzzles'),
  /** Puzzle `id` (`clear-easy-1`): its position, options and solution. */
  puzzle: (id) => request('GET', `/api/puzzles/${encodeURIComponent(id)}`),
  /** Judges the last of `moves` played in puzzle `id`: {verdict, solved, reply, text}. */
  puzzleMove: (id, moves) => request('POST', `/api/puzzles/${encodeURIComponent(id)}/moves`, { moves }),
  /** A move that keeps puzzle `id` solvable after `moves`: {move, text}. */
  puzzleHint: (id, moves) => request('POST', `/api/puzzles/${encodeURIComponent(id)}/hint`, { moves }),
  /** A findings page (`docs/analysis/PAGE.md`) as HTML, rendered by the server. */
  findings: async (page) => {
    const res = await fetch(`/api/findings/${encodeURIComponent(page)}?format=html`, { headers: { Accept: 'text/html' } });
    if (!res.ok) throw new ApiError(res.status, 'http', `no findings page (${res.status})`);
    return res.text();
  },
  /** The rules page as HTML, rendered by the server from the game's Markdown page. */
  rules: async (game) => {
    const res = await fetch(`/api/rules/${encodeURIComponent(game)}?format=html`, { headers: { Accept: 'text/html' } });
    if (!res.ok) throw new ApiError(res.status, 'http', `no rules page (${res.status})`);
    return res.text();
  },
  // Accounts (optional): the session is an HttpOnly cookie the browser sends by itself.
  /** `{account: {name}}`, or `{account: null}` when nobody is signed in here. */
  account: () => request('GET', '/api/account'),
  signup: (name, password) => request('POST', '/api/account/signup', { name, password }),
  login: (name, password) => request('POST', '/api/account/login', { name, password }),
  logout: () => request('POST', '/api/account/logout', {}),
  /** Ends every session of the account: `{sessions_ended}`. */
  logoutEverywhere: () => request('POST', '/api/account/logout-everywhere', {}),
  /** Makes the seats `token` holds in game `id` the signed-in account's; answers the state. */
  claim: (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/claim`, { token }),
  /** The signed-in player's games, theirs to move first: `{your_turn, games}`. */
  myGames: (params = {}) => request('GET', `/api/account/games${queryOf(params)}`),
  /** A player's page: `{name, record, head_to_head, ratings, games}`; `params`: game, result, limit. */
  player: (name, params = {}) => request('GET', `/api/players/${encodeURIComponent(name)}${queryOf(params)}`),
  // The lobby: challenges open to everyone or to one player, and games against the computer.
  /** `{challenges: [{id, by, game, title, options, seat, colour, rated, clock, opponent, rating, yours, acceptable, created}]}`. */
  lobby: () => request('GET', '/api/lobby'),
  /** Posts a challenge `{game, options, seat, rated, clock, opponent}`: `{challenge}`, or `{game}` against the computer. */
  challenge: (body) => request('POST', '/api/lobby', body),
  /** Accepts challenge `id`: `{game}`. */
  accept: (id) => request('POST', `/api/lobby/${encodeURIComponent(id)}/accept`, {}),
  /** Withdraws one's own challenge `id`. */
  cancelChallenge: (id) => request('POST', `/api/lobby/${encodeURIComponent(id)}/cancel`, {}),
  /** A game's leaderboard: `{game, title, provisional_above, players: [{name, rating, deviation, provisional, games}]}`. */
  ratings: (game, params = {}) => request('GET', `/api/ratings/${encodeURIComponent(game)}${queryOf(params)}`),
  recordUrl: (id, format) => `/api/games/${encodeURIComponent(id)}/record?format=${format}`,
};

/** @type {Promise<any> | null} */
let catalogPromise = null;

/**
 * The catalog, fetched once.
 * @returns {Promise<any>}
 */
export function catalog() {
  if (!catalogPromise) {
    catalogPromise = api.catalog().catch((e) => {
      catalogPromise = null;
      throw e;
    });
  }
  return catalogPromise;
}

/** @type {Promise<Set<string>> | null} */
let routesPromise = null;

/**
 * Whether the server's OpenAPI document lists `path` (e.g. `/api/games/{id}/hint`).
 * @param {string} path
 * @returns {Promise<boolean>}
 */
export async function hasRoute(path) {
  if (!routesPromise) {
    routesPromise = fetch('/api/openapi.json')
      .then((r) => (r.ok ? r.json() : { paths: {} }))
      .then((d) => new Set(Object.keys(d.paths || {})))
      .catch(() => new Set());
  }
  return (await /** @type {Promise<Set<string>>} */ (routesPromise)).has(path);
}

/**
 * The catalog entry of `name`.
 * @param {string} name
 * @returns {Promise<any>}
 */
export async function gameInfo(name) {
  const c = await catalog();
  return c.games.find((g) => g.name === name);
}

/**
 * What the catalog says of a fact a board may show.
 * @typedef {{ name: string, colour: string | null, counts: string, label: string }} FactInfo
 */

/**
 * The facts a board may show, by name.
 * @returns {Promise<Map<string, FactInfo>>}
 */
export async function factInfos() {
  const c = await catalog();
  return new Map((c.facts || []).map((/** @type {FactInfo} */ f) => [f.name, f]));
}

// Seat tokens, per game: {first?: token, second?: token}. They stay in this browser only.
const KEY = 'boardlab:seats:';

export const seats = {
  get(id) {
    try {
      return JSON.parse(/** @type {string} */ (localStorage.getItem(KEY + id))) || {};
    } catch {
      return {};
    }
  },
  set(id, tokens) {
    try {
      localStorage.setItem(KEY + id, JSON.stringify(tokens));
    } catch {
      // Private mode without storage: the tokens live until the page closes.
    }
  },
  add(id, seat, token) {
    const t = seats.get(id);
    t[seat] = token;
    seats.set(id, t);
  },
  /** Ids of games this browser holds a seat in, most recent first. */
  mine() {
    const out = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const k = localStorage.key(i);
      if (k && k.startsWith(KEY)) out.push(k.slice(KEY.length));
    }
    return out;
  },
};

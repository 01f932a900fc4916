// The engine in the browser: the game engines compiled to WebAssembly (crates/wasm), run in a
// Web Worker (worker.js) so that a search never freezes the page. It answers what the server
// answers about a position outside a stored game, with the same JSON: a position's view, the
// analysis board's evaluations, hints and computer moves. A browser without workers or
// WebAssembly gets `null` from `engine()`, and the pages ask the server instead.

/** @typedef {{game: string, options?: Record<string, any>, seed?: number, position?: string, moves?: string[]}} PositionRequest */

/** The engine cannot run in this browser (no WebAssembly, or its files did not load). */
export class EngineUnavailable extends Error {}

/** A request ended because the search before it in the same worker was stopped. */
class EngineStopped extends Error {}

/**
 * One worker and the requests it has not answered yet.
 */
class Engine {
  constructor() {
    /** @type {Worker | null} */
    this.worker = null;
    this.next = 1;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void, progress?: (p: any) => void}>} */
    this.waiting = new Map();
  }

  /** The worker, started on first use. */
  start() {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (ev) => {
      const { id, result, error, unavailable, progress } = ev.data;
      const p = this.waiting.get(id);
      if (!p) return;
      if (progress) {
        if (p.progress) p.progress(progress);
        return;
      }
      this.waiting.delete(id);
      if (error === undefined) p.resolve(result);
      else p.reject(unavailable ? new EngineUnavailable(error) : new Error(error));
    };
    w.onerror = (ev) => {
      ev.preventDefault();
      this.stop(new EngineUnavailable(`the engine could not start: ${ev.message || 'no WebAssembly'}`));
    };
    this.worker = w;
    return w;
  }

  /**
   * Asks the worker.
   * @param {string} op
   * @param {Record<string, any>} fields
   * @param {(p: any) => void} [progress] told of the progress the worker reports
   * @returns {Promise<any>}
   */
  ask(op, fields, progress) {
    const id = this.next;
    this.next += 1;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, progress });
      this.start().postMessage({ op, id, ...fields });
    });
  }

  /** Whether the worker has been started and has nothing to answer. */
  idle() {
    return !!this.worker && this.waiting.size === 0;
  }

  /**
   * Ends the worker and whatever it was working out: each request still waiting fails with
   * `why` (or is dropped when `why` is null).
   * @param {Error | null} why
   */
  stop(why) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    if (why) for (const p of waiting) p.reject(why);
  }
}

/** Quick answers (positions) and searches go to separate workers: stopping a search keeps the other. */
const quick = new Engine();
const search = new Engine();

/** Whether this browser can run the engine. */
export function engineAvailable() {
  return typeof Worker === 'function' && typeof WebAssembly === 'object';
}

/**
 * Starts loading the engine for searches now, so that the first one does not wait for it (a
 * page that will evaluate calls this first thing).
 */
export function prepareEngine() {
  if (engineAvailable()) search.start();
}

/**
 * The view of a position request, as POST /api/positions answers it.
 * @param {PositionRequest} request
 */
export function enginePosition(request) {
  // The search worker, started and idle (a page that will evaluate has just prepared it),
  // answers too: a page opening then loads the engine once, not in two workers at a time.
  if (search.idle() && !quick.worker) {
    const answer = search.ask('position', { request }).catch((e) => {
      if (e instanceof EngineStopped) return quick.ask('position', { request });
      throw e;
    });
    // The quick worker loads meanwhile, for the positions asked during searches.
    answer.then(() => quick.start(), () => {});
    return answer;
  }
  return quick.ask('position', { request });
}

/**
 * A suggested move for the side to move, as GET /api/games/{id}/hint answers it.
 * @param {PositionRequest} request
 * @param {number} [seed]
 */
export function engineHint(request, seed = 0) {
  return search.ask('hint', { request, seed });
}

/**
 * The move computer player `spec` (`level:5`, …) plays.
 * @param {PositionRequest} request
 * @param {string} spec
 * @param {number} [seed]
 * @returns {Promise<string>}
 */
export function engineMove(request, spec, seed = 0) {
  return search.ask('move', { request, spec, seed });
}

/**
 * Random games from a position for `ms` milliseconds: `{games, plies, seconds}`.
 * @param {PositionRequest} request
 * @param {number} ms
 */
export function enginePlayouts(request, ms) {
  return search.ask('playouts', { request, ms, seed: 1 });
}

/**
 * A game kept in the browser as its engine sees it: `{view, seats}`, the position's view (as
 * POST /api/positions answers, with the result of a resignation) and
 * `{first, second, moves}`, the colour of each seat and the seat that played each move.
 * @param {PositionRequest} request the game's start and moves
 * @param {string|null} [resigned] the seat that resigned
 * @returns {Promise<{view: any, seats: {first: string|null, second: string|null, moves: string[]}}>}
 */
export function engineGame(request, resigned = null) {
  return quick.ask('game', { request, resigned });
}

/**
 * A game's record, in text (`format: 'text'`, the default) or JSON form.
 * @param {PositionRequest} request the game's start and moves
 * @param {string|null} resigned the seat that resigned
 * @param {{first?: string, second?: string, started?: string, finished?: string, format?: 'text'|'json'}} record the players and times
 * @returns {Promise<string>}
 */
export function engineRecord(request, resigned, record) {
  return quick.ask('record', { request, resigned, record });
}

/**
 * The review of a game record, as GET /api/games/{id}/review answers a finished one;
 * `onProgress({done, total})` after each position.
 * @param {string} record the record, text or JSON
 * @param {(p: {done: number, total: number}) => void} [onProgress]
 */
export function engineReview(record, onProgress) {
  return search.ask('review', { record }, onProgress);
}

/**
 * The exact value of a Sight Reduction position, from the view of the side to move: two
 * players `{result: 'win'|'loss', plies, moves: [{move, result, plies}], nodes}`, a solitaire
 * `{solved, exhaustive, score, moves, nodes}`. Refused for other games, and past `nodes`
 * positions visited (0: fifty million).
 * @param {PositionRequest} request
 * @param {number} [nodes]
 */
export function engineSolve(request, nodes = 0) {
  return search.ask('solve', { request, nodes });
}

/**
 * Puzzle `id` (`clear-easy-1`), as GET /api/puzzles/{id} answers it.
 * @param {string} id
 */
export function enginePuzzle(id) {
  return search.ask('puzzle', { puzzle: id });
}

/**
 * The judgement of the last of `moves` in puzzle `id`, as POST /api/puzzles/{id}/moves answers.
 * @param {string} id
 * @param {string[]} moves
 */
export function enginePuzzleMove(id, moves) {
  return search.ask('puzzleMove', { puzzle: id, moves });
}

/**
 * A move that keeps puzzle `id` solvable after `moves`, as POST /api/puzzles/{id}/hint answers.
 * @param {string} id
 * @param {string[]} moves
 */
export function enginePuzzleHint(id, moves) {
  return search.ask('puzzleHint', { puzzle: id, moves });
}

/** The number of searches in the analysis board's series (as GET /api/analysis sends). */
export const EVALUATION_STEPS = 4;

/**
 * The analysis board's evaluations of a position, longer and longer searches as
 * GET /api/analysis sends them, each given to `onEvaluation` until one is `last`. Returns a
 * function that stops them (a search under way is ended with its worker).
 * @param {PositionRequest} request
 * @param {(e: any) => void} onEvaluation
 * @param {(err: Error) => void} onError the engine's refusal, or EngineUnavailable
 * @returns {() => void}
 */
export function evaluations(request, onEvaluation, onError) {
  let stopped = false;
  let searching = false;
  (async () => {
    for (let step = 0; step < EVALUATION_STEPS && !stopped; step += 1) {
      let e;
      searching = true;
      try {
        e = await search.ask('evaluate', { request, step });
      } catch (err) {
        if (!stopped) onError(err);
        return;
      } finally {
        searching = false;
      }
      if (stopped) return;
      onEvaluation(e);
      if (e.last) return;
    }
  })();
  return () => {
    if (stopped) return;
    stopped = true;
    // Only a search under way ends the worker: an idle one stays, loaded, for the next.
    if (searching) search.stop(new EngineStopped('stopped'));
  };
}

// ---------------------------------------------------------------- the engine first, the server after

import { api, ApiError } from '../api.js';

/** The engine failed to load once in this page: the server answers from then on. */
let engineDown = false;

/**
 * `work()` on the engine; where the engine cannot run in this browser (or did not load),
 * `fallback()` on the server instead. The engine's refusal (an illegal move, a bad request) is
 * thrown as the server's would be: an ApiError of `status` with the engine's words.
 * @template T
 * @param {() => Promise<T>} work
 * @param {() => Promise<T>} fallback
 * @param {number} [status]
 * @returns {Promise<T>}
 */
export async function engineFirst(work, fallback, status = 400) {
  if (engineDown || !engineAvailable()) return fallback();
  try {
    return await work();
  } catch (e) {
    if (e instanceof EngineUnavailable) {
      engineDown = true;
      return fallback();
    }
    if (e instanceof ApiError) throw e;
    throw new ApiError(status, status === 404 ? 'not_found' : 'bad_request', (e && e.message) || String(e));
  }
}

/**
 * The view of a position request, as POST /api/positions answers it: worked out in the page,
 * asked of the server where the engine cannot run. An illegal move or a bad request throws an
 * ApiError(400) with the words the server would give.
 * @param {PositionRequest} request
 */
export function positionView(request) {
  return engineFirst(() => enginePosition(request), () => api.position(request));
}

/**
 * Puzzle `id`, as GET /api/puzzles/{id} answers it (the engine first).
 * @param {string} id
 */
export function puzzleEntry(id) {
  return engineFirst(() => enginePuzzle(id), () => api.puzzle(id), 404);
}

/**
 * The judgement of the last of `moves` in puzzle `id` (the engine first).
 * @param {string} id
 * @param {string[]} moves
 */
export function puzzleJudgement(id, moves) {
  return engineFirst(() => enginePuzzleMove(id, moves), () => api.puzzleMove(id, moves));
}

/**
 * A move that keeps puzzle `id` solvable after `moves` (the engine first).
 * @param {string} id
 * @param {string[]} moves
 */
export function puzzleHint(id, moves) {
  return engineFirst(() => enginePuzzleHint(id, moves), () => api.puzzleHint(id, moves));
}

/**
 * The review of a record (text or JSON form), worked out in the page with `onProgress` told
 * after each position; where the engine cannot run, the server reviews it (no progress then).
 * @param {string} record
 * @param {(p: {done: number, total: number}) => void} [onProgress]
 */
export function recordReview(record, onProgress) {
  return engineFirst(() => engineReview(record, onProgress), () => api.reviewRecord(record));
}

// The engine in the browser: the game engines compiled to WebAssembly (crates/wasm), run in a
// Web Worker (worker.js) so that a search never freezes the page. It answers what the server
// answers about a position outside a stored game, with the same JSON: a position's view, the
// analysis board's evaluations, hints and computer moves. A browser without workers or
// WebAssembly gets `null` from `engine()`, and the pages ask the server instead.

/** @typedef {{game: string, options?: Record<string, any>, seed?: number, position?: string, moves?: string[]}} PositionRequest */

/** The engine cannot run in this browser (no WebAssembly, or its files did not load). */
export class EngineUnavailable extends Error {}

/**
 * One worker and the requests it has not answered yet.
 */
class Engine {
  constructor() {
    /** @type {Worker | null} */
    this.worker = null;
    this.next = 1;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
  }

  /** The worker, started on first use. */
  start() {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (ev) => {
      const { id, result, error, unavailable } = ev.data;
      const p = this.waiting.get(id);
      if (!p) return;
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
   * @returns {Promise<any>}
   */
  ask(op, fields) {
    const id = this.next;
    this.next += 1;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.start().postMessage({ op, id, ...fields });
    });
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
    if (searching) search.stop(new Error('stopped'));
  };
}

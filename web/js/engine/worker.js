// The engine's Web Worker: loads the WebAssembly engine (web/engine/, built from crates/wasm)
// and answers the page's requests one at a time, off the page's thread. A request is
// `{ id, op, request, … }` where `request` is a position request as POST /api/positions takes
// it; the answer is `{ id, result }` or `{ id, error }` with the engine's words (and
// `unavailable` when the engine itself did not load); a review also sends
// `{ id, progress: { done, total } }` as it goes. A search is stopped by ending the worker
// (engine/index.js starts a new one).

/** @type {any} */
const scope = self;

// Loaded by address, not imported, so the type checker leaves the generated glue alone.
const engineUrl = new URL('../../engine/boardlab_wasm.js', import.meta.url).href;
const ready = import(engineUrl).then(async (m) => {
  await m.default();
  return m;
});

/**
 * Works out one request with the engine `m`.
 * @param {any} m
 * @param {any} msg
 */
function run(m, msg) {
  switch (msg.op) {
    case 'games': return JSON.parse(m.games());
    case 'solve': return JSON.parse(m.solve(JSON.stringify(msg.request), msg.nodes || 0));
    case 'puzzle': return JSON.parse(m.puzzle(msg.puzzle));
    case 'puzzleMove': return JSON.parse(m.puzzle_move(msg.puzzle, JSON.stringify(msg.moves)));
    case 'puzzleHint': return JSON.parse(m.puzzle_hint(msg.puzzle, JSON.stringify(msg.moves)));
    case 'review':
      return JSON.parse(m.review(msg.record, (/** @type {number} */ done, /** @type {number} */ total) => {
        scope.postMessage({ id: msg.id, progress: { done, total } });
      }));
    default:
  }
  const request = JSON.stringify(msg.request);
  if (msg.op === 'position') return JSON.parse(m.position(request));
  const game = new m.Game(request);
  try {
    if (msg.resigned) game.resign(msg.resigned);
    switch (msg.op) {
      case 'game': return { view: JSON.parse(game.view()), seats: JSON.parse(game.seats()) };
      case 'record': return game.record(JSON.stringify(msg.record));
      case 'evaluate': return JSON.parse(game.evaluate(msg.step));
      case 'hint': return JSON.parse(game.hint(msg.seed || 0));
      case 'move': return game.computer_move(msg.spec, msg.seed || 0);
      case 'playouts': return JSON.parse(game.random_playouts(msg.ms, msg.seed || 0));
      default: throw new Error(`unknown request '${msg.op}'`);
    }
  } finally {
    game.free();
  }
}

scope.onmessage = async (/** @type {MessageEvent} */ ev) => {
  const msg = ev.data;
  let m;
  try {
    m = await ready;
  } catch (e) {
    // The engine did not load: the page asks the server instead.
    scope.postMessage({ id: msg.id, error: `the engine could not start: ${(e && e.message) || e}`, unavailable: true });
    return;
  }
  try {
    scope.postMessage({ id: msg.id, result: run(m, msg) });
  } catch (e) {
    scope.postMessage({ id: msg.id, error: (e && e.message) || String(e) });
  }
};

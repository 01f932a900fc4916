// What the analysis board knows and does: the tree of moves tried and the node shown, the
// computer's evaluation streaming in, and the drawing of the board and its parts from them.

import { h, mount, scrollWithin } from '../../util.js';
import { closeChooser } from '../../chooser.js';
import { fitStack, resultSentence } from '../shared.js';
import { Node, optionsText } from './tree.js';
import { engineView, linesView } from './views.js';
import { engineAvailable, evaluations, EngineUnavailable, positionView } from '../../engine/index.js';

/** @typedef {import('./tree.js').Evaluation} Evaluation */

/**
 * The analysis board's state, its elements, the board and the move builder.
 * @typedef {object} AnalysisPage
 * @property {HTMLElement} root
 * @property {URLSearchParams} query the address's query, as the page was opened
 * @property {string} game
 * @property {any} info the game's catalog entry
 * @property {Record<string, string>} options the game options
 * @property {Node} tree the starting position and every move tried from it
 * @property {Node} node the position shown
 * @property {boolean} flipped
 * @property {boolean} closed the page has been left
 * @property {(() => void)|null} stopThinking stops the evaluation under way
 * @property {boolean} onServer evaluations come from the server (the browser cannot run the engine)
 * @property {Evaluation|null} evaluation the last evaluation of the position shown
 * @property {number} thinkingSince when the computer began on the position shown
 * @property {number} thoughtMs how long it had thought at the last evaluation received: the
 *   time told is the one the player waited, not the search's budget
 * @property {string} feedback the message under the board
 * @property {import('../../board.js').BoardView} bv
 * @property {import('../../interact.js').MoveBuilder} builder
 * @property {any} styles the game's drawing styles
 * @property {AnalysisElements} el
 */

/**
 * @typedef {object} AnalysisElements
 * @property {HTMLElement} boardWrap
 * @property {HTMLElement} stack the board column
 * @property {HTMLElement} status
 * @property {HTMLElement} engine
 * @property {HTMLElement} lines
 * @property {HTMLElement} fb the feedback under the board
 * @property {HTMLElement} buttons the move buttons
 */

/**
 * The state the builder reads: a position view has the same fields as a game's.
 * @param {AnalysisPage} pg
 */
export function viewState(pg) {
  return { ...pg.node.view, id: 'analysis', version: pg.node.depth * 1e6 + pg.tree.children.length };
}

/** @param {AnalysisPage} pg */
export function canMove(pg) {
  return !pg.node.view.result && !!pg.node.view.to_move;
}

/**
 * Plays `move` from the node shown: the known child where it was tried before, else a new
 * one. `show`: go to it (else only make it the node, while the address's moves are replayed).
 * @param {AnalysisPage} pg
 * @param {string} move
 * @param {boolean} [announce] write the address
 * @param {boolean} [show]
 * @returns {Promise<boolean>} whether the move could be played
 */
export async function tryMove(pg, move, announce = true, show = true) {
  const known = pg.node.children.find((c) => c.move === move);
  if (known) {
    if (show) goTo(pg, known, announce);
    else pg.node = known;
    return true;
  }
  try {
    const view = await positionView({ game: pg.game, options: pg.options, position: pg.node.view.position, moves: [move] });
    const child = new Node(pg.node, view.moves[0], view);
    pg.node.children.push(child);
    if (show) goTo(pg, child, announce);
    else pg.node = child;
    return true;
  } catch (e) {
    pg.feedback = e.message;
    if (show) draw(pg);
    return false;
  }
}

/**
 * @param {AnalysisPage} pg
 * @param {string} move
 */
export function play(pg, move) {
  return tryMove(pg, move);
}

/**
 * Shows node `n`; `announce`: the address then holds its moves.
 * @param {AnalysisPage} pg
 * @param {Node} n
 * @param {boolean} [announce]
 */
export function goTo(pg, n, announce = true) {
  const { query } = pg;
  pg.node = n;
  pg.feedback = '';
  pg.evaluation = null;
  closeChooser();
  pg.builder.setState(viewState(pg), canMove(pg), { flipped: pg.flipped });
  if (announce) {
    const q = new URLSearchParams({ game: pg.game });
    if (query.get('position')) q.set('position', /** @type {string} */ (query.get('position')));
    const ot = query.get('options');
    if (ot) q.set('options', ot);
    for (const m of pg.node.path()) q.append('m', m);
    history.replaceState(null, '', `/analysis?${q}`);
  }
  draw(pg);
  think(pg);
}

/**
 * Evaluates the position shown, stopping the evaluation of the one before: in this browser
 * (the engine in a worker), or by the server where the browser cannot run the engine.
 * @param {AnalysisPage} pg
 */
function think(pg) {
  if (pg.stopThinking) pg.stopThinking();
  pg.stopThinking = null;
  if (pg.closed || !canMove(pg)) {
    drawEngine(pg);
    return;
  }
  const at = pg.node;
  pg.thinkingSince = performance.now();
  /** @param {Evaluation} e */
  const shown = (e) => {
    if (pg.node !== at) return;
    pg.evaluation = e;
    pg.thoughtMs = performance.now() - pg.thinkingSince;
    drawEngine(pg);
    draw(pg);
  };
  /** @param {string} message */
  const failed = (message) => {
    if (pg.node !== at || pg.evaluation) return;
    pg.evaluation = /** @type {Evaluation} */ ({ error: message });
    drawEngine(pg);
  };
  const request = { game: pg.game, options: pg.options, position: pg.node.view.position };
  if (pg.onServer || !engineAvailable()) {
    pg.stopThinking = evaluateOnServer(request, shown, failed);
  } else {
    pg.stopThinking = evaluations(request, shown, (err) => {
      if (pg.node !== at) return;
      if (!(err instanceof EngineUnavailable)) {
        failed(`The computer cannot evaluate this position: ${err.message}.`);
        return;
      }
      // No engine here after all: the server evaluates from now on.
      pg.onServer = true;
      pg.stopThinking = evaluateOnServer(request, shown, failed);
    });
  }
  drawEngine(pg);
}

/**
 * The server's evaluations of a position (GET /api/analysis), each given to `shown`; returns
 * what stops them.
 * @param {{game: string, options: Record<string, string>, position: string}} request
 * @param {(e: Evaluation) => void} shown
 * @param {(message: string) => void} failed
 * @returns {() => void}
 */
function evaluateOnServer(request, shown, failed) {
  const q = new URLSearchParams({ game: request.game, position: request.position });
  const ot = optionsText(request.options);
  if (ot) q.set('options', ot);
  const es = new EventSource(`/api/analysis?${q}`);
  es.addEventListener('analysis', (ev) => {
    const e = JSON.parse(ev.data);
    shown(e);
    if (e.last) es.close();
  });
  es.addEventListener('end', () => es.close());
  es.onerror = () => {
    es.close();
    failed('The computer cannot evaluate this position now.');
  };
  return () => es.close();
}

/** @param {AnalysisPage} pg */
function drawEngine(pg) {
  mount(pg.el.engine, ...engineView(pg.node.view, pg.info, pg.evaluation, pg.thoughtMs, (move) => play(pg, move)));
}

/** @param {AnalysisPage} pg */
function drawLines(pg) {
  const { lines } = pg.el;
  mount(lines, linesView(pg.tree, pg.node, (n) => goTo(pg, n)));
  if (pg.tree.children.length) scrollWithin(lines, lines.querySelector('.mv-current'));
}

/**
 * Draws the board, the status line, the feedback, the move buttons and the moves tried.
 * @param {AnalysisPage} pg
 */
export function draw(pg) {
  if (pg.closed) return;
  const { bv, builder, evaluation, el } = pg;
  const v = pg.node.view;
  const hl = builder.highlights();
  bv.render(v.board, {
    game: pg.game, flipped: pg.flipped,
    targets: hl.targets, selected: hl.selected, clickable: builder.enabled ? hl.clickable : new Set(), order: hl.order,
    last: new Set(v.last_cells || []),
    hint: evaluation && evaluation.cells ? new Set(evaluation.cells) : null,
    showAvailable: !builder.sel.length && !builder.extra,
    drag: pg.styles.drag === false ? null : builder.grabbable(),
  });
  el.stack.style.setProperty('--aspect', bv.aspect().toFixed(4));
  requestAnimationFrame(() => fitStack(el.stack, el.boardWrap, bv.svg));
  bv.svg.classList.toggle('can-move', builder.enabled);
  const who = v.to_move && v.to_move.colour ? `${v.to_move.colour[0].toUpperCase()}${v.to_move.colour.slice(1)} to move` : 'To move';
  const brief = evaluation && evaluation.text ? ` · ${evaluation.text}, best ${evaluation.move}` : '';
  el.status.textContent = v.result ? `Game over: ${resultSentence(v.result.text, false)}` : `${who}${brief}`;
  el.fb.textContent = pg.feedback || builder.hint() || '';
  el.fb.className = `feedback ${pg.feedback ? 'feedback-error' : 'feedback-hint'}`;
  mount(el.buttons, builder.enabled ? builder.buttons.map((b) => h('button', { type: 'button', class: 'btn btn-move', onclick: () => play(pg, b.move) }, b.label)) : []);
  drawLines(pg);
  pg.root.dataset.depth = String(pg.node.depth);
}

/**
 * The keyboard shortcuts: the arrows through the line, Home to the start.
 * @param {AnalysisPage} pg
 * @returns {(ev: KeyboardEvent) => void}
 */
export function keyHandler(pg) {
  return (ev) => {
    if (/** @type {HTMLElement} */ (ev.target).closest('input, select, textarea')) return;
    const { node } = pg;
    if (ev.key === 'ArrowLeft' && node.parent) goTo(pg, node.parent);
    else if (ev.key === 'ArrowRight' && node.children[0]) goTo(pg, node.children[0]);
    else if (ev.key === 'Home') goTo(pg, pg.tree);
    else return;
    ev.preventDefault();
  };
}

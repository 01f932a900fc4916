// The analysis board: any position of any game (from a game, a review, or position text in
// the address), where moves are tried on a scratch copy that changes no game. Moves tried form
// a tree: going back and playing another move starts a side line, and every line stays to step
// through. The computer's evaluation and best line follow the position shown, arriving as it
// thinks longer, and stop when the position changes. The address holds the position and the
// moves, so a link shares them. Its parts are in ./analysis/: the tree, the page state and
// its drawing, the views; here they meet.

import { prepareEngine, positionView } from '../engine/index.js';
import { h, mount, toast, copyText } from '../util.js';
import { catalog } from '../api.js';
import { BoardView } from '../board.js';
import { MoveBuilder } from '../interact.js';
import { openChooser, closeChooser } from '../chooser.js';
import { fitStack } from './shared.js';
import { stylesFor } from '../games/index.js';
import { Node, optionsFrom } from './analysis/tree.js';
import { pickerView, positionErrorView, navView, layoutView } from './analysis/views.js';
import { viewState, canMove, tryMove, play, goTo, draw, keyHandler } from './analysis/state.js';

/** @typedef {import('./analysis/state.js').AnalysisPage} AnalysisPage */

/**
 * The board and the move builder, wired to the page.
 * @param {AnalysisPage} pg
 */
function makeBoard(pg) {
  pg.bv = new BoardView(pg.el.boardWrap, {
    onCell: (cell, ev, layer) => {
      pg.builder.pointerClick = !(ev instanceof KeyboardEvent);
      pg.feedback = '';
      pg.builder.click(cell, layer, ev);
    },
    zoom: true,
  });
  pg.builder = new MoveBuilder({
    play: (move) => play(pg, move),
    changed: () => draw(pg),
    refuse: (cell, message) => { pg.feedback = message; draw(pg); },
    choose: (opts, cell, title) => openChooser(pg.el.boardWrap, pg.bv.svg, opts, cell, title),
    why: () => 'The game is over in this position.',
  });
}

/**
 * Builds the page's elements and lays them out in `pg.root`.
 * @param {AnalysisPage} pg
 */
function layOut(pg) {
  const el = pg.el;
  const nav = navView({
    start: () => goTo(pg, pg.tree),
    back: () => pg.node.parent && goTo(pg, pg.node.parent),
    forward: () => pg.node.children[0] && goTo(pg, pg.node.children[0]),
    end: () => { let n = pg.node; while (n.children[0]) n = n.children[0]; goTo(pg, n); },
    flip: () => { pg.flipped = !pg.flipped; pg.builder.setState(viewState(pg), canMove(pg), { flipped: pg.flipped }); draw(pg); },
    share: () => copyText(location.href).then(() => toast('Link copied: it opens this position and these moves.')),
  });
  el.stack = h('div', { class: 'board-stack' }, el.status, el.boardWrap, pg.bv.zoomButton, el.buttons, el.fb, nav);
  mount(pg.root, layoutView(pg.info, el.stack, el.engine, el.lines));
}

/**
 * Opens the analysis board for the game, position, options and moves of the address's
 * `query`; without a game, a game to pick. Returns what to do on leaving the page, or null.
 * @param {HTMLElement} root
 * @param {URLSearchParams} query
 * @returns {Promise<(() => void)|null>}
 */
export async function analysisPage(root, query) {
  root.className = 'analysis-root';
  document.title = 'Analysis board · boardlab';
  prepareEngine();
  const cat = await catalog();
  const game = query.get('game');
  const info = game && cat.games.find((g) => g.name === game);
  if (!info) {
    mount(root, pickerView(cat, game));
    return null;
  }
  const options = optionsFrom(query.get('options'));
  let rootView;
  try {
    const position = query.get('position');
    rootView = await positionView({ game, options, ...(position ? { position } : {}) });
  } catch (e) {
    mount(root, positionErrorView(e.message, /** @type {string} */ (game), info));
    return null;
  }
  const tree = new Node(null, null, rootView);
  const pg = /** @type {AnalysisPage} */ ({
    root, query, game, info, options, tree, node: tree, flipped: false, closed: false,
    stopThinking: null, onServer: false, evaluation: null, thinkingSince: 0, thoughtMs: 0, feedback: '', styles: stylesFor(/** @type {string} */ (game)),
    el: {
      boardWrap: h('div', { class: 'board-wrap' }),
      status: h('div', { class: 'status', id: 'analysis-status', role: 'status', 'aria-live': 'polite' }),
      engine: h('div', { class: 'engine', id: 'engine' }),
      lines: h('div', { class: 'analysis-lines', id: 'analysis-lines' }),
      fb: h('p', { class: 'feedback', id: 'analysis-feedback' }),
      buttons: h('div', { class: 'move-buttons' }),
    },
  });
  makeBoard(pg);
  layOut(pg);

  // Moves in the address: replayed as the first line.
  for (const m of query.getAll('m')) {
    if (!(await tryMove(pg, m, false, false))) break;
  }

  const onKey = keyHandler(pg);
  const onResize = () => requestAnimationFrame(() => fitStack(pg.el.stack, pg.el.boardWrap, pg.bv.svg));
  document.addEventListener('keydown', onKey);
  window.addEventListener('resize', onResize);
  goTo(pg, pg.node, false);
  return () => {
    pg.closed = true;
    window.removeEventListener('resize', onResize);
    if (pg.stopThinking) pg.stopThinking();
    closeChooser();
    document.removeEventListener('keydown', onKey);
  };
}

// The analysis board: any position of any game (from a game, a review, or position text in
// the address), where moves are tried on a scratch copy that changes no game. Moves tried form
// a tree: going back and playing another move starts a side line, and every line stays to step
// through. The computer's evaluation and best line follow the position shown, arriving as it
// thinks longer, and stop when the position changes. The address holds the position and the
// moves, so a link shares them.

import { h, mount, toast, copyText, scrollWithin, pointerWords } from '../util.js';
import { api, catalog } from '../api.js';
import { BoardView } from '../board.js';
import { MoveBuilder } from '../interact.js';
import { openChooser, closeChooser } from '../chooser.js';
import { navIcon, fitStack, shareColours, resultSentence } from './shared.js';
import { stylesFor } from '../games/index.js';

/**
 * An evaluation of GET /api/analysis (an `analysis` event), or the page's own `{error}` when
 * the computer cannot answer.
 * @typedef {object} Evaluation
 * @property {string} [error]
 * @property {number} first_score the first seat's share, 0 to 1
 * @property {string} text
 * @property {string} move the best move
 * @property {string[]} pv the best line
 * @property {boolean} [last] the search is done
 * @property {boolean} [exact] proven
 * @property {number} nodes positions searched
 * @property {string[]} [cells] the best move's cells
 */

/** A node of the tree of moves tried: the move that led here and the position it reached. */
class Node {
  constructor(parent, move, view) {
    this.parent = parent;
    this.move = move;
    this.view = view;
    this.children = [];
    this.depth = parent ? parent.depth + 1 : 0;
  }

  path() {
    const out = [];
    for (let n = this; n.parent; n = n.parent) out.unshift(n.move);
    return out;
  }
}

const optionsText = (options) => Object.entries(options || {}).map(([k, v]) => `${k}=${v}`).join(',');

function optionsFrom(text) {
  const out = {};
  for (const part of (text || '').split(',')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}

/** The colours of the first seat and of the second in position `view` of game `info`, where known. */
function seatColours(view, info) {
  const t = view.to_move;
  const other = t && t.colour ? (info.colours || []).find((c) => c !== t.colour) : null;
  if (!other) return [null, null];
  return t.seat === 'first' ? [t.colour, other] : [other, t.colour];
}

export async function analysisPage(root, query) {
  root.className = 'analysis-root';
  document.title = 'Analysis board · boardlab';
  const cat = await catalog();
  const game = query.get('game');
  const info = game && cat.games.find((g) => g.name === game);
  if (!info) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'Analysis board'),
      h('p', { class: 'lead' }, 'Set up a position and try moves on it: the computer evaluates every position you reach. Nothing you play here changes a game.'),
      game ? h('p', { class: 'error-text' }, `There is no game called “${game}”.`) : null,
      h('div', { class: 'game-picks' }, cat.games.map((g) => h('a', { class: 'btn', href: `/analysis?game=${g.name}` }, g.title))),
      h('p', {}, 'To analyse a game you played, open it and choose “Analyse” on any move; or ', h('a', { href: '/review' }, 'review a game record'), '.')));
    return null;
  }
  const options = optionsFrom(query.get('options'));
  let rootView;
  try {
    rootView = await api.position({ game, options, ...(query.get('position') ? { position: query.get('position') } : {}) });
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'Analysis board'), h('p', { class: 'error-text' }, e.message),
      h('p', {}, h('a', { href: `/analysis?game=${game}` }, `Start from the ${info.title} set-up instead`))));
    return null;
  }
  const tree = new Node(null, null, rootView);
  let node = tree;
  let flipped = false;
  let closed = false;
  /** @type {EventSource | null} */
  let source = null;
  /** @type {Evaluation | null} */
  let evaluation = null;
  // When the computer began on the position shown, and how long it had thought at the last
  // evaluation received: the time told is the one the player waited, not the search's budget.
  let thinkingSince = 0;
  let thoughtMs = 0;
  let feedback = '';

  const boardWrap = h('div', { class: 'board-wrap' });
  const bv = new BoardView(boardWrap, {
    onCell: (cell, ev, layer) => {
      builder.pointerClick = !(ev instanceof KeyboardEvent);
      feedback = '';
      builder.click(cell, layer, ev);
    },
    zoom: true,
  });
  const styles = stylesFor(game);
  const builder = new MoveBuilder({
    play: (move) => play(move),
    changed: () => draw(),
    refuse: (cell, message) => { feedback = message; draw(); },
    choose: (opts, cell, title) => openChooser(boardWrap, bv.svg, opts, cell, title),
    why: () => 'The game is over in this position.',
  });
  const status = h('div', { class: 'status', id: 'analysis-status', role: 'status', 'aria-live': 'polite' });
  const engine = h('div', { class: 'engine', id: 'engine' });
  const lines = h('div', { class: 'analysis-lines', id: 'analysis-lines' });
  const fb = h('p', { class: 'feedback', id: 'analysis-feedback' });
  const buttonsEl = h('div', { class: 'move-buttons' });
  const nav = h('div', { class: 'replay-controls' },
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'Start', title: 'Start (Home)', onclick: () => goTo(tree) }, navIcon('first')),
    h('button', { type: 'button', class: 'btn btn-icon', id: 'an-back', 'aria-label': 'Back one move', title: 'Back (←)', onclick: () => node.parent && goTo(node.parent) }, navIcon('prev')),
    h('button', { type: 'button', class: 'btn btn-icon', id: 'an-forward', 'aria-label': 'Forward one move', title: 'Forward (→)', onclick: () => node.children[0] && goTo(node.children[0]) }, navIcon('next')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': 'End of this line', title: 'End of the line (End)', onclick: () => { let n = node; while (n.children[0]) n = n.children[0]; goTo(n); } }, navIcon('last')),
    h('button', { type: 'button', class: 'btn', onclick: () => { flipped = !flipped; builder.setState(viewState(), canMove(), { flipped }); draw(); } }, 'Flip'),
    h('button', { type: 'button', class: 'btn', id: 'an-share', onclick: () => copyText(location.href).then(() => toast('Link copied: it opens this position and these moves.')) }, 'Copy link'));
  let stack;
  mount(root, h('div', { class: 'game-layout' },
    h('section', { class: 'board-col' }, stack = h('div', { class: 'board-stack' }, status, boardWrap, bv.zoomButton, buttonsEl, fb, nav)),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card head-card' }, h('h1', { class: 'game-title' }, `${info.title} — analysis board`),
        h('p', { class: 'game-sub' }, 'Moves tried here change no game.'), engine),
      h('div', { class: 'card moves-card' }, h('h2', {}, 'Moves tried'), lines))));

  // Moves in the address: replayed as the first line.
  for (const m of query.getAll('m')) {
    if (!(await tryMove(m, false, false))) break;
  }

  function viewState() {
    // The builder reads a state's interaction; a position view has the same fields.
    return { ...node.view, id: 'analysis', version: node.depth * 1e6 + tree.children.length };
  }

  function canMove() {
    return !node.view.result && !!node.view.to_move;
  }

  async function tryMove(move, announce = true, show = true) {
    const known = node.children.find((c) => c.move === move);
    if (known) {
      if (show) goTo(known, announce);
      else node = known;
      return true;
    }
    try {
      const view = await api.position({ game, options, position: node.view.position, moves: [move] });
      const child = new Node(node, view.moves[0], view);
      node.children.push(child);
      if (show) goTo(child, announce);
      else node = child;
      return true;
    } catch (e) {
      feedback = e.message;
      if (show) draw();
      return false;
    }
  }

  function play(move) {
    return tryMove(move);
  }

  function goTo(n, announce = true) {
    node = n;
    feedback = '';
    evaluation = null;
    closeChooser();
    builder.setState(viewState(), canMove(), { flipped });
    if (announce) {
      const q = new URLSearchParams({ game });
      if (query.get('position')) q.set('position', query.get('position'));
      const ot = query.get('options');
      if (ot) q.set('options', ot);
      for (const m of node.path()) q.append('m', m);
      history.replaceState(null, '', `/analysis?${q}`);
    }
    draw();
    think();
  }

  /** Streams the computer's evaluation of the position shown; stops the previous one. */
  function think() {
    if (source) source.close();
    source = null;
    if (closed || !canMove()) {
      drawEngine();
      return;
    }
    const q = new URLSearchParams({ game, position: node.view.position });
    const ot = optionsText(options);
    if (ot) q.set('options', ot);
    const es = new EventSource(`/api/analysis?${q}`);
    const at = node;
    source = es;
    thinkingSince = performance.now();
    es.addEventListener('analysis', (ev) => {
      if (node !== at) return;
      evaluation = JSON.parse(ev.data);
      thoughtMs = performance.now() - thinkingSince;
      drawEngine();
      draw();
      if (/** @type {Evaluation} */ (evaluation).last) es.close();
    });
    es.addEventListener('end', () => es.close());
    es.onerror = () => {
      es.close();
      if (node === at && !evaluation) {
        evaluation = /** @type {Evaluation} */ ({ error: 'The computer cannot evaluate this position now.' });
        drawEngine();
      }
    };
    drawEngine();
  }

  function drawEngine() {
    if (node.view.result) {
      mount(engine, h('p', { class: 'engine-text' }, `Game over: ${resultSentence(node.view.result.text, false)}.`));
      return;
    }
    if (!evaluation) {
      mount(engine, h('p', { class: 'engine-text muted' }, 'The computer is thinking…'));
      return;
    }
    if (evaluation.error) {
      mount(engine, h('p', { class: 'engine-text error-text' }, evaluation.error));
      return;
    }
    const e = evaluation;
    const pct = Math.round(e.first_score * 100);
    mount(engine,
      h('div', { class: 'eval-bar', role: 'img', 'aria-label': e.text, style: shareColours(...seatColours(node.view, info)) }, h('span', { style: `width:${pct}%` })),
      h('p', { class: 'engine-text', id: 'engine-text' }, h('strong', {}, e.text)),
      h('p', { class: 'engine-line' }, 'Best: ', h('button', { type: 'button', class: 'btn btn-small', id: 'engine-best', onclick: () => play(e.move) }, e.move),
        e.pv.length > 1 ? h('span', { class: 'muted' }, ` then ${e.pv.slice(1, 8).join(' ')}`) : null),
      h('p', { class: 'muted engine-meta' }, `${e.last ? 'Done' : 'Still thinking'} · ${(thoughtMs / 1000).toFixed(1)} s · ${e.exact ? 'proven' : `${e.nodes.toLocaleString()} positions`}`));
  }

  function moveButton(n) {
    return h('button', {
      type: 'button', class: ['mv', n === node ? 'mv-current' : ''], 'aria-current': n === node ? 'true' : null,
      'data-depth': n.depth, onclick: () => goTo(n),
    }, h('span', { class: 'mv-num' }, `${n.depth}.`), n.move);
  }

  /** The line starting at `n` (n itself, then its first children), with side lines inside. */
  function line(n) {
    const out = [moveButton(n)];
    let at = n;
    while (at.children.length) {
      const [main, ...alts] = at.children;
      out.push(moveButton(main));
      for (const a of alts) out.push(h('span', { class: 'variation' }, line(a)));
      at = main;
    }
    return out;
  }

  function drawLines() {
    if (!tree.children.length) {
      mount(lines, h('p', { class: 'muted' }, 'Play a move on the board to start; go back and play another to try a side line.'));
      return;
    }
    const [main, ...alts] = tree.children;
    mount(lines, h('div', { class: 'an-line' }, line(main), alts.map((a) => h('span', { class: 'variation' }, line(a)))));
    scrollWithin(lines, lines.querySelector('.mv-current'));
  }

  function draw() {
    if (closed) return;
    const v = node.view;
    const hl = builder.highlights();
    bv.render(v.board, {
      game, flipped,
      targets: hl.targets, selected: hl.selected, clickable: builder.enabled ? hl.clickable : new Set(), order: hl.order,
      last: new Set(v.last_cells || []),
      hint: evaluation && evaluation.cells ? new Set(evaluation.cells) : null,
      showAvailable: !builder.sel.length && !builder.extra,
      drag: styles.drag === false ? null : builder.grabbable(),
    });
    stack.style.setProperty('--aspect', bv.aspect().toFixed(4));
    requestAnimationFrame(() => fitStack(stack, boardWrap, bv.svg));
    bv.svg.classList.toggle('can-move', builder.enabled);
    const who = v.to_move && v.to_move.colour ? `${v.to_move.colour[0].toUpperCase()}${v.to_move.colour.slice(1)} to move` : 'To move';
    const brief = evaluation && evaluation.text ? ` · ${evaluation.text}, best ${evaluation.move}` : '';
    status.textContent = v.result ? `Game over: ${resultSentence(v.result.text, false)}` : `${who}${brief}`;
    fb.textContent = pointerWords(feedback || builder.hint() || '');
    fb.className = `feedback ${feedback ? 'feedback-error' : 'feedback-hint'}`;
    mount(buttonsEl, builder.enabled ? builder.buttons.map((b) => h('button', { type: 'button', class: 'btn btn-move', onclick: () => play(b.move) }, b.label)) : []);
    drawLines();
    root.dataset.depth = String(node.depth);
  }

  const onKey = (ev) => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft' && node.parent) goTo(node.parent);
    else if (ev.key === 'ArrowRight' && node.children[0]) goTo(node.children[0]);
    else if (ev.key === 'Home') goTo(tree);
    else return;
    ev.preventDefault();
  };
  const onResize = () => requestAnimationFrame(() => fitStack(stack, boardWrap, bv.svg));
  document.addEventListener('keydown', onKey);
  window.addEventListener('resize', onResize);
  goTo(node, false);
  return () => {
    closed = true;
    window.removeEventListener('resize', onResize);
    if (source) source.close();
    closeChooser();
    document.removeEventListener('keydown', onKey);
  };
}

// Draws a board description (made by each game crate, `boardlab_core::present`) as SVG: cells, lines, marks, pieces,
// coordinates, and the interaction layer (legal targets, selection, last move, cursor). It
// knows shapes, never rules (what is legal comes from the server's move list) nor what a game's
// pieces and marks look like: each game's drawing draws those (games/index.js, drawingFor).
//
// Feel: a piece can be dragged as well as clicked (the press and the release are the same clicks
// as a click on the piece and one on its target), pieces slide from their old place to their new
// one when the board changes, and a board too small for a finger can be zoomed. Where a move went
// is not in the board description: it is found by matching the pieces that left a cell with those
// of the same colour and kind that arrived on another. Those live in board/: the drag in drag.js,
// the slides and fades in motion.js, the zoom in zoom.js.

import { h, s, fingerSized } from './util.js';
import { K, pieceKey, disc } from './games/drawing.js';
import { drawingFor, gameDefs } from './games/index.js';
import { SLIDE_MS, motion as changes, animate } from './board/motion.js';
import { Drag } from './board/drag.js';
import { fitZoom, setZoom, reveal } from './board/zoom.js';

/** Room around the board for the coordinates, in board units. */
const MARGIN = 0.62;

let defsInstalled = false;

/** Shared gradients, and every game's symbols, installed once per document. */
export function installDefs() {
  if (defsInstalled) return;
  defsInstalled = true;
  const stone = (id, hi, mid, lo) =>
    s('radialGradient', { id, cx: '35%', cy: '30%', r: '75%' },
      s('stop', { offset: '0%', 'stop-color': hi }),
      s('stop', { offset: '55%', 'stop-color': mid }),
      s('stop', { offset: '100%', 'stop-color': lo }));
  const svg = s('svg', { width: 0, height: 0, style: 'position:absolute', 'aria-hidden': 'true', focusable: 'false' },
    s('defs', {},
      stone('g-white', '#ffffff', '#f1ede4', '#c9c2b4'),
      stone('g-black', '#6b6b6b', '#2a2a2a', '#0d0d0d'),
      stone('g-yellow', '#fff6c4', '#f2c230', '#b8860b'),
      stone('g-red', '#ff9d8f', '#d2392c', '#8e1d15'),
      s('filter', { id: 'f-shadow', x: '-30%', y: '-30%', width: '160%', height: '160%' },
        s('feDropShadow', { dx: '0', dy: '3', stdDeviation: '3', 'flood-color': '#000', 'flood-opacity': '0.35' })),
      ...gameDefs(),
    ));
  document.body.prepend(svg);
}

/**
 * A drawn board. `render(board, view)` redraws it; clicks on cells call `onCell(name)`.
 * A drag calls `onCell(from, {grab: true}, layer)` when the piece is picked up (the page passes
 * it to MoveBuilder.click, which selects the piece afresh) and `onCell(to, event, layer)` when
 * it is dropped on a target; dropped anywhere else the piece goes back, still selected.
 * With `zoom`, the board sits in a frame that can show it larger (`zoomButton`, for the page to
 * place), offered where a cell is smaller than a finger.
 *
 * view: {
 *   game, flipped, targets: Map(name → 'move'|'capture'|'confirm'|'special'),
 *   selected: Set, last: Set, order: Map(name → n), flash: name, cursor: name,
 *   zones: which of the board's zones to show (the game's drawing reads it), dim: bool,
 *   // Pictures (the rules' figures, the legend): marks that say something about cells.
 *   yes: Set (a ring, or a dot on an empty cell), no: Set (a cross),
 *   arrows: [[from, to]], still: bool (nothing to click), bare: bool (no frame or coordinates)
 *   drag: Set of what can be picked up and dragged (`cell` or `layer:cell`, MoveBuilder.grabbable),
 *   animate: false (draw the change at once: no sliding pieces)
 * }
 */
export class BoardView {
  /**
   * @param {HTMLElement} container
   * @param {{onCell?: any, onCursor?: any, label?: string | null, zoom?: boolean}} [options]
   */
  constructor(container, { onCell, onCursor, label, zoom } = {}) {
    installDefs();
    this.container = container;
    this.onCell = onCell || (() => {});
    this.onCursor = onCursor || (() => {});
    this.svg = s('svg', {
      class: 'board',
      tabindex: '0',
      role: 'application',
      'aria-label': label || 'Board. Arrow keys move the cursor, Enter or Space selects, Escape cancels.',
    });
    this.board = null;
    this.view = {};
    /** @type {import('./board/motion.js').Running | null} */
    this.running = null; // the slides and fades under way
    this.drag = new Drag(this); // a press that may become a drag, the piece in hand or dropped
    this.zoomed = false;
    if (zoom) {
      this.scroller = h('div', { class: 'board-scroll' }, this.svg);
      container.append(this.scroller);
      this.zoomButton = h('button', {
        type: 'button', class: 'btn board-zoom', hidden: true, 'aria-pressed': 'false',
        title: 'Show the board larger, to scroll around: each cell at least a fingertip wide',
        onclick: () => setZoom(this, !this.zoomed),
      }, 'Zoom in');
      this.onResize = () => requestAnimationFrame(() => fitZoom(this));
      window.addEventListener('resize', this.onResize);
    } else container.append(this.svg);
    this.svg.addEventListener('click', (ev) => {
      if (this.drag.noClick) return;
      const hit = ev.target.closest('[data-cell]');
      if (hit) {
        this.view.cursor = null;
        this.onCell(hit.dataset.cell, ev, hit.dataset.layer || null);
      }
    });
    this.svg.addEventListener('keydown', (ev) => this.key(ev));
    this.svg.addEventListener('pointerdown', (ev) => this.drag.press(ev));
    this.svg.addEventListener('pointermove', (ev) => this.drag.pointerMove(ev));
    this.svg.addEventListener('pointerup', (ev) => this.drag.release(ev));
    this.svg.addEventListener('pointercancel', (ev) => this.drag.cancelPress(ev));
  }

  /** Board units to SVG coordinates. */
  xy(x, y) {
    const b = this.board;
    return this.view.flipped ? [(b.width - x) * K, y * K] : [x * K, (b.height - y) * K];
  }

  render(board, view) {
    const before = this.board;
    this.board = board;
    this.view = view || {};
    const svg = this.svg;
    const motion = changes(before, board, this.view);
    this.arrivals = motion.arrivals;
    svg.replaceChildren();
    this.layerHits = [];
    if (!board) return;
    const w = board.width;
    const hgt = board.height;
    if (view.bare) svg.setAttribute('viewBox', `-4 -4 ${w * K + 8} ${hgt * K + 8}`);
    else svg.setAttribute('viewBox', `${-MARGIN * 0.92 * K - 4} ${-0.12 * K - 4} ${(w + MARGIN * 1.05) * K + 8} ${(hgt + MARGIN * 1.05) * K + 8}`);
    svg.dataset.game = view.game || '';
    svg.dataset.layout = board.layout;
    svg.classList.toggle('flipped', !!view.flipped);
    if (!view.bare) svg.append(this.frame());
    if (board.layout === 'points') this.drawPointBoard();
    else this.drawGrid();
    if (view.arrows && view.arrows.length) svg.append(this.arrowLayer());
    if (!view.bare) svg.append(this.labels());
    if (!view.still && !view.bare) svg.append(this.hitLayer());
    // A board with pieces to drag takes the touches that land on it (no scrolling the page).
    svg.classList.toggle('drag-on', [...(view.drag || [])].some((k) => {
      const i = k.indexOf(':');
      return i < 0 ? this.drag.draggable(k, null) : this.drag.draggable(k.slice(i + 1), k.slice(0, i));
    }));
    const back = this.drag.returning;
    this.drag.returning = null;
    // A redraw of the same position (a selection, the page's next state) goes on with what was
    // moving: the pieces drawn anew take up their slides where they were.
    const run = this.running;
    const since = run ? performance.now() - run.t0 : Infinity;
    if (motion.changed) this.running = animate(this, motion, this.drag.dropped);
    else if (since < SLIDE_MS - 10) this.running = animate(this, /** @type {any} */ (run).motion, this.drag.dropped, since);
    else this.running = null;
    this.drag.settleDrop(motion);
    if (back) this.drag.slideHome(back);
    this.drag.settleHeld();
    if (this.zoomButton) requestAnimationFrame(() => fitZoom(this));
  }

  /** Arrows from cell to cell (figures): a shaft and a head, stopping short of the centres. */
  arrowLayer() {
    const g = s('g', { class: 'arrows' });
    const at = new Map(this.board.cells.map((c) => [c.name, c]));
    for (const [from, to] of this.view.arrows) {
      const a = at.get(from);
      const b = at.get(to);
      if (!a || !b) continue;
      const [x1, y1] = this.xy(a.x, a.y);
      const [x2, y2] = this.xy(b.x, b.y);
      const len = Math.hypot(x2 - x1, y2 - y1);
      if (len < 1) continue;
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      const start = Math.min(0.22 * K, len / 4);
      const stop = Math.min(0.2 * K, len / 4);
      const head = 0.26 * K;
      const sx = x1 + ux * start;
      const sy = y1 + uy * start;
      const tx = x2 - ux * stop;
      const ty = y2 - uy * stop;
      const bx = tx - ux * head;
      const by = ty - uy * head;
      const r = (v) => Math.round(v * 10) / 10;
      g.append(s('line', { class: 'arrow-shaft', x1: r(sx), y1: r(sy), x2: r(bx + ux * 4), y2: r(by + uy * 4) }));
      g.append(s('path', {
        class: 'arrow-head',
        d: `M${r(tx)} ${r(ty)} L${r(bx - uy * head * 0.5)} ${r(by + ux * head * 0.5)} L${r(bx + uy * head * 0.5)} ${r(by - ux * head * 0.5)} Z`,
      }));
    }
    return g;
  }

  /** The board's border, wide enough on the left and at the bottom for the coordinates. */
  frame() {
    const b = this.board;
    const pad = 0.12;
    const side = MARGIN * 0.92;
    return s('g', { class: 'frame-g' },
      s('rect', {
        class: 'frame',
        x: -side * K,
        y: -pad * K,
        width: (b.width + side + pad) * K,
        height: (b.height + side + pad) * K,
        rx: 0.16 * K,
      }),
      s('rect', { class: 'frame-inner', x: -0.03 * K, y: -0.03 * K, width: (b.width + 0.06) * K, height: (b.height + 0.06) * K, rx: 0.04 * K }));
  }

  /** Width / height of the drawing. */
  aspect() {
    const b = this.board;
    return b ? (b.width + MARGIN * 1.05) / (b.height + MARGIN * 1.05) : 1;
  }

  /** The drawing of the board's game: its pieces and its own marks. */
  drawing() {
    return drawingFor(this.view.game);
  }

  drawGrid() {
    const v = this.view;
    const game = this.drawing();
    const more = (part, at) => (game[part] ? game[part](at) : []);
    const cellsG = s('g', { class: 'cells' });
    const marksG = s('g', { class: 'marks' });
    const piecesG = s('g', { class: 'pieces' });
    const overG = s('g', { class: 'overlay' });
    for (const c of this.board.cells) {
      const [cx, cy] = this.xy(c.x, c.y);
      const x0 = cx - K / 2;
      const y0 = cy - K / 2;
      const shade = c.shade || 'light';
      const marks = c.marks || [];
      const at = { cell: c, marks, cx, cy, x0, y0, view: v };
      cellsG.append(s('rect', { class: ['sq', `sq-${shade}`], x: x0, y: y0, width: K, height: K, 'data-name': c.name }));
      cellsG.append(...more('square', at));
      marksG.append(...more('under', at));
      if (v.hint && v.hint.has(c.name)) {
        marksG.append(s('rect', { class: 'hint-mark', x: x0 + 4, y: y0 + 4, width: K - 8, height: K - 8, rx: 8 }));
      }
      if (v.last && v.last.has(c.name)) marksG.append(s('rect', { class: 'last', x: x0, y: y0, width: K, height: K }));
      marksG.append(...more('over', at));
      if (v.selected && v.selected.has(c.name)) {
        marksG.append(s('rect', { class: 'selected', x: x0, y: y0, width: K, height: K }));
      }
      piecesG.append(this.pieces(c, cx, cy));
      if (v.ghosts && v.ghosts.has(c.name)) piecesG.append(this.ghost(v.ghosts.get(c.name), cx, cy));
      overG.append(...more('overlay', at));
      this.overlayFor(c, cx, cy, overG);
    }
    this.svg.append(cellsG, marksG, piecesG, overG);
  }

  drawPointBoard() {
    const v = this.view;
    const game = this.drawing();
    const triG = s('g', { class: 'triangles' });
    const linesG = s('g', { class: 'lines' });
    const pointsG = s('g', { class: 'points' });
    const piecesG = s('g', { class: 'pieces' });
    const overG = s('g', { class: 'overlay' });
    for (const c of this.board.cells) {
      if (c.shape !== 'triangle') continue;
      const pts = c.polygon.map(([x, y]) => this.xy(x, y).join(',')).join(' ');
      const marks = c.marks || [];
      const cls = ['tri'];
      if (game.triangle) {
        const [cx, cy] = this.xy(c.x, c.y);
        cls.push(...game.triangle({ cell: c, marks, cx, cy, view: v }));
      }
      triG.append(s('polygon', { class: cls, points: pts }));
      if (v.last && v.last.has(c.name)) triG.append(s('polygon', { class: 'tri-last', points: pts }));
      if (v.selected && v.selected.has(c.name)) triG.append(s('polygon', { class: 'tri-selected', points: pts }));
      if (v.hint && v.hint.has(c.name)) triG.append(s('polygon', { class: 'tri-hint', points: pts }));
      const t = v.targets && v.targets.get(c.name);
      if (t) triG.append(s('polygon', { class: ['tri-target', `target-${t}`], points: pts }));
      else if (v.showAvailable && v.clickable && v.clickable.has(c.name)) triG.append(s('polygon', { class: 'avail-tri', points: pts }));
      if (v.flash === c.name) triG.append(s('polygon', { class: 'tri-flash', points: pts }));
    }
    for (const l of this.board.lines || []) {
      const [x1, y1] = this.xy(...l.from);
      const [x2, y2] = this.xy(...l.to);
      linesG.append(s('line', { x1, y1, x2, y2 }));
    }
    for (const c of this.board.cells) {
      const [cx, cy] = this.xy(c.x, c.y);
      if (c.shape === 'point') {
        const own = game.point ? game.point({ cell: c, marks: c.marks || [], cx, cy, view: v }) : null;
        pointsG.append(own || s('circle', { class: 'pt', cx, cy, r: 0.065 * K }));
        if (v.last && v.last.has(c.name)) pointsG.append(s('circle', { class: 'pt-last', cx, cy, r: 0.36 * K }));
        if (v.selected && v.selected.has(c.name)) pointsG.append(s('circle', { class: 'pt-selected', cx, cy, r: 0.37 * K }));
        if (v.hint && v.hint.has(c.name)) pointsG.append(s('circle', { class: 'pt-hint', cx, cy, r: 0.4 * K }));
      }
      piecesG.append(this.pieces(c, cx, cy));
      if (v.ghosts && v.ghosts.has(c.name)) piecesG.append(this.ghost(v.ghosts.get(c.name), cx, cy));
      this.overlayFor(c, cx, cy, overG);
    }
    this.svg.append(triG, linesG, pointsG, piecesG, overG);
  }

  /** Target markers, claim order numbers, the illegal-click flash and the keyboard cursor. */
  overlayFor(c, cx, cy, g) {
    const v = this.view;
    const t = v.targets && v.targets.get(c.name);
    const occupied = (c.pieces || []).length > 0;
    const point = c.shape === 'point' || c.shape === 'triangle';
    if (t) {
      if (t === 'confirm') {
        g.append(s('circle', { class: 'tgt tgt-confirm', cx, cy, r: (point ? 0.36 : 0.44) * K }));
      } else if (occupied || t === 'capture' || t === 'special') {
        g.append(s('circle', { class: ['tgt', 'tgt-ring', `target-${t}`], cx, cy, r: (point ? 0.36 : 0.44) * K }));
      } else {
        g.append(s('circle', { class: ['tgt', 'tgt-dot', `target-${t}`], cx, cy, r: (point ? 0.12 : 0.15) * K }));
      }
    }
    else if (v.showAvailable && v.clickable && v.clickable.has(c.name)) {
      if (occupied) g.append(s('circle', { class: 'avail avail-ring', cx, cy, r: (point ? 0.34 : 0.43) * K }));
      else g.append(s('circle', { class: 'avail avail-dot', cx, cy, r: (point ? 0.1 : 0.11) * K }));
    }
    if (v.yes && v.yes.has(c.name)) {
      if (occupied) g.append(s('circle', { class: 'fig-yes fig-ring', cx, cy, r: (point ? 0.36 : 0.44) * K }));
      else g.append(s('circle', { class: 'fig-yes fig-dot', cx, cy, r: (point ? 0.13 : 0.16) * K }));
    }
    if (v.no && v.no.has(c.name)) {
      const d = (point ? 0.24 : 0.3) * K;
      g.append(s('path', { class: 'fig-no', d: `M${cx - d} ${cy - d} L${cx + d} ${cy + d} M${cx + d} ${cy - d} L${cx - d} ${cy + d}` }));
    }
    if (v.order && v.order.has(c.name)) {
      g.append(s('circle', { class: 'order-badge', cx: cx + 0.3 * K, cy: cy - 0.3 * K, r: 0.15 * K }));
      g.append(s('text', { class: 'order-text', x: cx + 0.3 * K, y: cy - 0.3 * K }, String(v.order.get(c.name))));
    }
  }

  /** A see-through piece where a placement is being built. */
  ghost(g, cx, cy) {
    return s('g', { class: 'ghost', transform: `translate(${cx} ${cy})` },
      s('circle', { r: (g.r || 0.3) * K, fill: `url(#g-${g.colour})`, class: 'stone' }));
  }

  /**
   * The pieces on a cell: the ground pieces, then those of the game's layer (drawn above them),
   * each group of which gets a target of its own beside a ground piece for a mouse; for a finger
   * the cell is one target and a menu asks which piece was meant.
   */
  pieces(c, cx, cy) {
    // Pieces that came from nowhere (a placement) grow into place; those that moved slide.
    const fresh = this.arrivals && this.arrivals.has(c.name);
    const g = s('g', { class: ['cell-pieces', fresh ? 'appear' : ''], 'data-cell-pieces': c.name });
    const list = c.pieces || [];
    if (!list.length) return g;
    const { layer } = this.drawing();
    const ground = layer ? list.filter((p) => p.kind !== layer.kind) : list;
    const lifted = layer ? list.filter((p) => p.kind === layer.kind) : [];
    for (const p of ground) g.append(this.piece(p, cx, cy));
    if (layer && lifted.length) {
      const hasGround = ground.length > 0;
      const { el, spots } = layer.draw(lifted, { cx, cy, hasGround, flipped: !!this.view.flipped });
      g.append(el);
      if (hasGround && c.name && !fingerSized()) {
        for (const spot of spots) /** @type {any[]} */ (this.layerHits).push({ cell: c.name, layer: layer.name, title: layer.title(c.name), ...spot });
      }
    }
    return g;
  }

  /** A ground piece, as its game draws its kind (a lettered disc where it does not). */
  piece(p, cx, cy) {
    const attrs = { class: ['pc', `pc-${p.kind}`, `pc-${p.colour}`], transform: `translate(${cx} ${cy})`, 'data-piece': pieceKey(p) };
    const flipped = !!this.view.flipped;
    const own = this.drawing().pieces || {};
    const glyph = Object.hasOwn(own, p.kind) ? own[p.kind] : null;
    return s('g', attrs, glyph ? glyph(p, { flipped }) : disc(p, flipped));
  }

  labels() {
    const b = this.board;
    const g = s('g', { class: 'coords' });
    const xs = b.cells.map((c) => c.x);
    const ys = b.cells.map((c) => c.y);
    const minX = Math.min(...xs);
    const minY = Math.min(...ys);
    for (const l of b.labels || []) {
      if (l.y < minY && !(l.x < minX)) {
        const [x] = this.xy(l.x, 0);
        g.append(s('text', { class: 'coord coord-file', x, y: (b.height + MARGIN * 0.42) * K }, l.text));
      } else {
        const [, y] = this.xy(0, l.y);
        g.append(s('text', { class: 'coord coord-rank', x: -MARGIN * 0.47 * K, y }, l.text));
      }
    }
    return g;
  }

  /**
   * Invisible shapes that take the clicks: a whole square; for a point, a disc nearly as wide as
   * the space to the next point (the pieces on points and their destinations, whose dots are
   * small). Triangles lie below the points, except those that can be clicked now (a piece's on
   * a triangle and its destinations), which lie over the points' discs but leave out, at each
   * corner where a point can be clicked, a notch the size of a piece on a point: a tap on a
   * piece or a dot is theirs. (With pieces on the corners of a triangle, what is left of the
   * triangle is TRIANGLE_LEFT (board/zoom.js) of a point spacing across: some 36 px on a phone
   * 390 px wide, the whole triangle 49 × 56; the board can be zoomed there.)
   * The game's layer (drawing.js, LayerDrawing) adds a target of its own for each group of its
   * pieces beside a ground piece.
   */
  hitLayer() {
    const g = s('g', { class: 'hits' });
    const v = this.view;
    const live = (c) => (v.targets && v.targets.has(c.name)) || (v.clickable && v.clickable.has(c.name));
    const rank = (c) => (c.shape !== 'triangle' ? 1 : live(c) ? 2 : 0);
    const ordered = [...this.board.cells].sort((a, b) => rank(a) - rank(b));
    const pointR = 0.45;
    const at = (x, y) => `${x.toFixed(3)},${y.toFixed(3)}`;
    const livePoints = new Set(this.board.cells.filter((c) => c.shape === 'point' && live(c)).map((c) => at(c.x, c.y)));
    for (const c of ordered) {
      const [cx, cy] = this.xy(c.x, c.y);
      const cls = ['hit'];
      if (v.targets && v.targets.has(c.name)) cls.push('hit-target');
      if (v.clickable && v.clickable.has(c.name)) cls.push('hit-active');
      if (v.flash === c.name) cls.push('hit-flash');
      if (v.cursor === c.name) cls.push('hit-cursor');
      const attrs = { class: cls, 'data-cell': c.name };
      let shape;
      if (c.shape === 'triangle' && live(c)) {
        shape = s('path', { ...attrs, d: this.notched(c.polygon, c.polygon.map(([x, y]) => livePoints.has(at(x, y)))) });
      } else if (c.shape === 'triangle') {
        shape = s('polygon', { ...attrs, points: c.polygon.map(([x, y]) => this.xy(x, y).join(',')).join(' ') });
      } else if (c.shape === 'point') {
        shape = s('circle', { ...attrs, cx, cy, r: pointR * K });
      } else {
        shape = s('rect', { ...attrs, x: cx - K / 2, y: cy - K / 2, width: K, height: K });
      }
      // What a screen reader (and a hover) says about the cell: its name, what stands on it,
      // and whether it can be clicked now.
      const on = (c.pieces || []).map((p) => `${p.colour} ${p.kind}`).join(', ');
      const state = v.targets && v.targets.has(c.name) ? 'a possible destination' : v.clickable && v.clickable.has(c.name) ? 'can be chosen' : '';
      shape.append(s('title', {}, [c.name, on || 'empty', state].filter(Boolean).join(': ')));
      g.append(shape);
    }
    for (const f of /** @type {any[]} */ (this.layerHits)) {
      const cls = ['hit', 'hit-layer'];
      if (v.flash === f.cell) cls.push('hit-flash');
      g.append(s('circle', { class: cls, 'data-cell': f.cell, 'data-layer': f.layer, cx: f.x, cy: f.y, r: f.r },
        s('title', {}, f.title)));
    }
    return g;
  }

  /** A polygon (board units) as a path, with a round notch cut at each corner marked in `cut`. */
  notched(polygon, cut, r = 0.27 * K) {
    const pts = polygon.map(([x, y]) => this.xy(x, y));
    const n = pts.length;
    const f = (v) => Math.round(v * 10) / 10;
    const toward = ([x1, y1], [x2, y2], d) => {
      const len = Math.hypot(x2 - x1, y2 - y1);
      return [x1 + ((x2 - x1) * d) / len, y1 + ((y2 - y1) * d) / len];
    };
    let d = '';
    for (let i = 0; i < n; i += 1) {
      const p = pts[i];
      const prev = pts[(i + n - 1) % n];
      const next = pts[(i + 1) % n];
      if (!cut[i]) {
        d += `${d ? 'L' : 'M'}${f(p[0])} ${f(p[1])} `;
        continue;
      }
      const a = toward(p, prev, r);
      const b = toward(p, next, r);
      // Around the corner itself, the short way from the edge before to the edge after.
      const sweep = (prev[0] - p[0]) * (next[1] - p[1]) - (prev[1] - p[1]) * (next[0] - p[0]) > 0 ? 1 : 0;
      d += `${d ? 'L' : 'M'}${f(a[0])} ${f(a[1])} A${r} ${r} 0 0 ${sweep} ${f(b[0])} ${f(b[1])} `;
    }
    return `${d}Z`;
  }

  /** Keyboard: arrows move a cursor between cells, Enter/Space clicks, Escape cancels. */
  key(ev) {
    const b = this.board;
    if (!b) return;
    const dirs = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (ev.key in dirs) {
      ev.preventDefault();
      let [dx, dy] = dirs[ev.key];
      if (this.view.flipped) {
        dx = -dx;
        dy = -dy;
      }
      const cur = b.cells.find((c) => c.name === this.view.cursor);
      let next;
      if (!cur) {
        next = b.cells.find((c) => this.view.targets && this.view.targets.has(c.name))
          || b.cells.find((c) => this.view.clickable && this.view.clickable.has(c.name))
          || b.cells[0];
      } else {
        let best = null;
        let bestScore = Infinity;
        for (const c of b.cells) {
          if (c === cur) continue;
          const ex = c.x - cur.x;
          const ey = c.y - cur.y;
          const along = ex * dx + ey * dy;
          if (along <= 0.05) continue;
          const across = Math.abs(ex * dy - ey * dx);
          const score = along + across * 2.5 + (c.shape === 'triangle' ? 0.15 : 0);
          if (score < bestScore) {
            bestScore = score;
            best = c;
          }
        }
        next = best || cur;
      }
      this.view.cursor = next.name;
      this.render(this.board, this.view);
      this.svg.focus({ preventScroll: this.zoomed });
      if (this.zoomed) reveal(this, this.svg.querySelector('.hit-cursor'));
      this.onCursor(next);
    } else if ((ev.key === 'Enter' || ev.key === ' ') && this.view.cursor) {
      ev.preventDefault();
      this.onCell(this.view.cursor, ev);
    } else if (ev.key === 'Escape') {
      if (this.drag.held) this.drag.dropHeld(false);
      this.onCell(null, ev);
    }
  }
}

/** A small static picture of a board (for lists and the start page). */
export function miniBoard(board, game, view = {}) {
  const div = document.createElement('div');
  div.className = 'mini-board';
  const bv = new BoardView(div, {});
  bv.svg.removeAttribute('tabindex');
  bv.svg.setAttribute('role', 'img');
  bv.svg.setAttribute('aria-label', `${game} board`);
  bv.render(board, { game, ...view });
  return div;
}

// Draws a board description (made by each game crate, `boardlab_core::present`) as SVG: cells, lines, marks, pieces,
// coordinates, and the interaction layer (legal targets, selection, last move, cursor). It
// knows shapes and pieces, never rules: what is legal comes from the server's move list.

import { s } from './util.js';

/** SVG units per board unit. */
const K = 100;
/** Room around the board for the coordinates, in board units. */
const MARGIN = 0.62;

let defsInstalled = false;

/** Shared gradients and symbols, installed once per document. */
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
      s('pattern', { id: 'p-zone-white', width: 16, height: 16, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        s('rect', { width: 16, height: 16, fill: 'rgba(59,130,246,0.16)' }),
        s('rect', { width: 6, height: 16, fill: 'rgba(255,255,255,0.6)' })),
      s('pattern', { id: 'p-zone-black', width: 16, height: 16, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(-45)' },
        s('rect', { width: 16, height: 16, fill: 'rgba(20,30,60,0.10)' }),
        s('rect', { width: 6, height: 16, fill: 'rgba(20,30,60,0.32)' })),
      // A Fighter: a small delta-wing jet pointing up.
      s('symbol', { id: 'sym-fighter', viewBox: '-50 -50 100 100' },
        s('path', { d: 'M0 -46 L9 -16 L9 -4 L44 18 L44 28 L9 18 L7 34 L20 44 L20 48 L0 42 L-20 48 L-20 44 L-7 34 L-9 18 L-44 28 L-44 18 L-9 -4 L-9 -16 Z' })),
      // A crown for Kings and Commanders.
      s('symbol', { id: 'sym-crown', viewBox: '-50 -50 100 100' },
        s('path', { d: 'M-38 22 L-44 -22 L-20 0 L0 -34 L20 0 L44 -22 L38 22 Z M-38 30 L38 30 L38 40 L-38 40 Z' })),
      s('symbol', { id: 'sym-star', viewBox: '-50 -50 100 100' },
        s('path', { d: starPath(0, 0, 46, 19) })),
    ));
  document.body.prepend(svg);
}

function starPath(cx, cy, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i += 1) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join(' L')} Z`;
}

const FACING_ANGLE = { n: 0, e: 90, s: 180, w: 270 };

/**
 * A drawn board. `render(board, view)` redraws it; clicks on cells call `onCell(name)`.
 *
 * view: {
 *   game, flipped, targets: Map(name → 'move'|'capture'|'confirm'|'special'),
 *   selected: Set, last: Set, order: Map(name → n), flash: name, cursor: name,
 *   zones: 'white'|'black'|'both'|null, goal: Map(name → colour), dim: bool,
 *   // Pictures (the rules' figures, the legend): marks that say something about cells.
 *   yes: Set (a ring, or a dot on an empty cell), no: Set (a cross),
 *   arrows: [[from, to]], still: bool (nothing to click), bare: bool (no frame or coordinates)
 * }
 */
export class BoardView {
  constructor(container, { onCell, onCursor, label } = {}) {
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
    container.append(this.svg);
    this.board = null;
    this.view = {};
    this.svg.addEventListener('click', (ev) => {
      const hit = ev.target.closest('[data-cell]');
      if (hit) {
        this.view.cursor = null;
        this.onCell(hit.dataset.cell, ev, hit.dataset.layer || null);
      }
    });
    this.svg.addEventListener('keydown', (ev) => this.key(ev));
  }

  /** Board units to SVG coordinates. */
  xy(x, y) {
    const b = this.board;
    return this.view.flipped ? [(b.width - x) * K, y * K] : [x * K, (b.height - y) * K];
  }

  render(board, view) {
    this.board = board;
    this.view = view || {};
    const svg = this.svg;
    svg.replaceChildren();
    this.fighterHits = [];
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

  drawGrid() {
    const v = this.view;
    const cellsG = s('g', { class: 'cells' });
    const marksG = s('g', { class: 'marks' });
    const piecesG = s('g', { class: 'pieces' });
    const overG = s('g', { class: 'overlay' });
    for (const c of this.board.cells) {
      const [cx, cy] = this.xy(c.x, c.y);
      const x0 = cx - K / 2;
      const y0 = cy - K / 2;
      const shade = c.shade || 'light';
      cellsG.append(s('rect', { class: ['sq', `sq-${shade}`], x: x0, y: y0, width: K, height: K, 'data-name': c.name }));
      if (shade === 'target') {
        cellsG.append(s('rect', { class: 'target-tile', x: x0 + 9, y: y0 + 9, width: K - 18, height: K - 18, rx: 12 }));
        cellsG.append(s('circle', { class: 'target-ring', cx, cy, r: 0.27 * K }));
      }
      const marks = c.marks || [];
      // Flight zones: 'both', a colour, or {colour, portal} for one Portal's own zone (with
      // the rest of its side's zones fainter).
      const z = v.zones;
      for (const col of ['white', 'black']) {
        if (!marks.includes(`zone-${col}`)) continue;
        let cls = null;
        if (z === 'both' || z === col) cls = ['zone', `zone-${col}`];
        else if (z && typeof z === 'object' && z.colour === col) {
          cls = marks.includes(`zone-of-${z.portal}`) ? ['zone', `zone-${col}`] : ['zone', `zone-${col}`, 'zone-faint'];
        }
        if (cls) marksG.append(s('rect', { class: cls, x: x0, y: y0, width: K, height: K }));
      }
      if (v.hint && v.hint.has(c.name)) {
        marksG.append(s('rect', { class: 'hint-mark', x: x0 + 4, y: y0 + 4, width: K - 8, height: K - 8, rx: 8 }));
      }
      if (v.last && v.last.has(c.name)) marksG.append(s('rect', { class: 'last', x: x0, y: y0, width: K, height: K }));
      for (const m of marks) {
        if (m === 'last-black' || m === 'last-white') {
          // Each colour's last move: the latest one bright, the other one faint, with a tab
          // of the colour in the corner.
          const col = m.slice(5);
          const latest = !v.lastMover || v.lastMover === col;
          marksG.append(s('rect', { class: ['last', m, latest ? '' : 'last-older'], x: x0, y: y0, width: K, height: K }));
          marksG.append(s('path', { class: ['last-tab', `last-tab-${col}`], d: `M${x0} ${y0} h${K * 0.26} L${x0} ${y0 + K * 0.26} Z` }));
        } else if (m === 'siege') {
          // assideum: the Commander of the side to move is in siege.
          marksG.append(s('rect', { class: 'siege', x: x0 + 2, y: y0 + 2, width: K - 4, height: K - 4, rx: 6 }, s('title', {}, 'in siege')));
        }
      }
      if (v.goal && v.goal.has(c.name)) {
        marksG.append(s('rect', { class: ['goal', `goal-${v.goal.get(c.name)}`], x: x0 + 5, y: y0 + 5, width: K - 10, height: K - 10, rx: 10 }));
      }
      if (v.selected && v.selected.has(c.name)) {
        marksG.append(s('rect', { class: 'selected', x: x0, y: y0, width: K, height: K }));
      }
      piecesG.append(this.pieces(c, cx, cy));
      if (v.ghosts && v.ghosts.has(c.name)) piecesG.append(this.ghost(v.ghosts.get(c.name), cx, cy));
      if (marks.includes('anchor')) overG.append(this.anchor(cx, cy));
      this.overlayFor(c, cx, cy, overG);
    }
    this.svg.append(cellsG, marksG, piecesG, overG);
  }

  drawPointBoard() {
    const v = this.view;
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
      for (const m of marks) if (m.startsWith('castle-')) cls.push(m);
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
        const marks = c.marks || [];
        const star = marks.find((m) => m.startsWith('star-'));
        if (star) {
          pointsG.append(s('use', { href: '#sym-star', class: ['star', star], x: cx - 0.27 * K, y: cy - 0.27 * K, width: 0.54 * K, height: 0.54 * K }));
        } else {
          pointsG.append(s('circle', { class: 'pt', cx, cy, r: 0.065 * K }));
        }
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

  anchor(cx, cy) {
    return s('g', { class: 'anchor', transform: `translate(${cx} ${cy})` },
      s('circle', { r: 0.46 * K, class: 'anchor-ring' }),
      s('path', { class: 'anchor-pin', d: 'M0 -44 L8 -34 L-8 -34 Z M0 44 L8 34 L-8 34 Z M-44 0 L-34 8 L-34 -8 Z M44 0 L34 8 L34 -8 Z' }));
  }

  /** The pieces on a cell. */
  pieces(c, cx, cy) {
    const fresh = this.view.animate && this.view.last && this.view.last.has(c.name);
    const g = s('g', { class: ['cell-pieces', fresh ? 'appear' : ''], 'data-cell-pieces': c.name });
    const list = c.pieces || [];
    if (!list.length) return g;
    const ground = list.filter((p) => p.kind !== 'fighter');
    const fighters = list.filter((p) => p.kind === 'fighter');
    for (const p of ground) g.append(this.piece(p, cx, cy, c));
    if (fighters.length) g.append(this.fighters(fighters, cx, cy, ground.length > 0, c.name));
    return g;
  }

  piece(p, cx, cy, cell) {
    const flip = this.view.flipped;
    const col = p.colour;
    const attrs = { class: ['pc', `pc-${p.kind}`, `pc-${col}`], transform: `translate(${cx} ${cy})` };
    switch (p.kind) {
      case 'piece':
        return s('g', attrs, s('circle', { r: 0.38 * K, fill: `url(#g-${col})`, class: 'stone', filter: 'url(#f-shadow)' }));
      case 'token':
        return s('g', attrs, s('circle', { r: 0.3 * K, fill: `url(#g-${col})`, class: 'stone', filter: 'url(#f-shadow)' }));
      case 'control':
        return s('g', attrs,
          s('circle', { r: 0.4 * K, fill: `url(#g-${col})`, class: 'stone', filter: 'url(#f-shadow)' }),
          s('circle', { r: 0.27 * K, class: 'control-ring' }),
          s('circle', { r: 0.12 * K, class: 'control-core' }));
      case 'soldier':
        return s('g', attrs, s('circle', { r: 0.27 * K, fill: `url(#g-${col})`, class: 'stone', filter: 'url(#f-shadow)' }));
      case 'officer':
        return s('g', attrs,
          s('circle', { r: 0.29 * K, fill: `url(#g-${col})`, class: 'stone', filter: 'url(#f-shadow)' }),
          s('use', { href: '#sym-star', class: 'officer-star', x: -0.17 * K, y: -0.17 * K, width: 0.34 * K, height: 0.34 * K }));
      case 'king':
        return s('g', attrs,
          s('circle', { r: 0.2 * K, fill: `url(#g-${col})`, class: 'stone king-disc', filter: 'url(#f-shadow)' }),
          s('use', { href: '#sym-crown', class: 'king-crown', x: -0.13 * K, y: -0.13 * K, width: 0.26 * K, height: 0.26 * K }));
      default: {
        // assideum ground pieces: a disc with the notation letter, facing arrows for Portals
        // and Rangers, a crown for the Commander, a bar for promoted Ved'rin.
        const r = 0.36 * K;
        const g = s('g', attrs);
        if (p.facing) {
          let a = FACING_ANGLE[p.facing] || 0;
          if (flip) a += 180;
          g.append(s('path', { class: 'facing', transform: `rotate(${a})`, d: `M0 ${-r - 17} L${r * 0.62} ${-r * 0.5} L${-r * 0.62} ${-r * 0.5} Z` }));
        }
        g.append(s('circle', { r, fill: `url(#g-${col})`, class: 'stone', filter: 'url(#f-shadow)' }));
        if (p.kind === 'portal') g.append(s('circle', { r: r * 0.72, class: 'portal-ring' }));
        if (p.kind === 'commander') {
          g.append(s('use', { href: '#sym-crown', class: 'glyph', x: -0.22 * K, y: -0.24 * K, width: 0.44 * K, height: 0.44 * K }));
        } else {
          g.append(s('text', { class: 'glyph-text', y: 2 }, p.label || p.kind[0].toUpperCase()));
        }
        if (p.promoted) g.append(s('path', { class: 'promoted', d: `M${-r * 0.5} ${r * 0.55} L${r * 0.5} ${r * 0.55}` }));
        return g;
      }
    }
  }

  /** Fighters: alone they fill the square; with a ground piece, landed ones sit as a badge at
   * its lower right and flying ones hover at the top right (top left for a second group). */
  fighters(list, cx, cy, hasGround, cellName) {
    const g = s('g', { class: 'fighters' });
    const groups = new Map();
    for (const p of list) {
      const key = `${p.colour}-${p.flying ? 'fly' : 'land'}`;
      groups.set(key, (groups.get(key) || []).concat([p]));
    }
    let slot = 0;
    for (const [key, ps] of groups) {
      const [col, mode] = key.split('-');
      const flying = mode === 'fly';
      let fx = cx;
      let fy = cy;
      let size = 0.56 * K;
      if (hasGround || groups.size > 1) {
        if (flying) {
          size = 0.4 * K;
          fx = cx + (slot === 0 ? 0.28 : -0.28) * K;
          fy = cy - 0.28 * K;
          slot += 1;
        } else {
          size = 0.32 * K;
          fx = cx + 0.3 * K;
          fy = cy + 0.3 * K;
        }
      }
      const up = col === 'white';
      const rot = (up ? 0 : 180) + (this.view.flipped ? 180 : 0);
      const fg = s('g', { class: ['fighter', `fighter-${col}`, flying ? 'flying' : 'landed'], transform: `translate(${fx} ${fy})` });
      fg.append(s('circle', { class: flying ? 'fighter-halo' : 'fighter-badge', r: size * 0.56 }));
      fg.append(s('use', { href: '#sym-fighter', class: 'fighter-body', x: -size / 2, y: -size / 2, width: size, height: size, transform: `rotate(${rot})` }));
      if (ps.length > 1) {
        fg.append(s('circle', { class: 'count-badge', cx: size * 0.45, cy: -size * 0.45, r: 0.11 * K }));
        fg.append(s('text', { class: 'count-text', x: size * 0.45, y: -size * 0.45 }, String(ps.length)));
      }
      g.append(fg);
      if (hasGround) this.fighterHits.push({ cell: cellName, x: fx, y: fy, r: Math.max(size * 0.56, 0.17 * K) });
    }
    return g;
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

  /** Invisible shapes that take the clicks: triangles below points. */
  hitLayer() {
    const g = s('g', { class: 'hits' });
    const v = this.view;
    const ordered = [...this.board.cells].sort((a, b) => (a.shape === 'triangle' ? 0 : 1) - (b.shape === 'triangle' ? 0 : 1));
    // Points take a larger share of the board when no triangle can be clicked now, so that
    // they are comfortable to tap (Opprimo's soldiers and their destinations).
    const live = (c) => (v.targets && v.targets.has(c.name)) || (v.clickable && v.clickable.has(c.name));
    const pointR = this.board.cells.some((c) => c.shape === 'triangle' && live(c)) ? 0.3 : 0.38;
    for (const c of ordered) {
      const [cx, cy] = this.xy(c.x, c.y);
      const cls = ['hit'];
      if (v.targets && v.targets.has(c.name)) cls.push('hit-target');
      if (v.clickable && v.clickable.has(c.name)) cls.push('hit-active');
      if (v.flash === c.name) cls.push('hit-flash');
      if (v.cursor === c.name) cls.push('hit-cursor');
      const attrs = { class: cls, 'data-cell': c.name };
      let shape;
      if (c.shape === 'triangle') {
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
    for (const f of this.fighterHits) {
      const cls = ['hit', 'hit-layer'];
      if (v.flash === f.cell) cls.push('hit-flash');
      g.append(s('circle', { class: cls, 'data-cell': f.cell, 'data-layer': 'fighter', cx: f.x, cy: f.y, r: f.r },
        s('title', {}, `Fighter on ${f.cell}`)));
    }
    return g;
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
      this.svg.focus();
      this.onCursor(next);
    } else if ((ev.key === 'Enter' || ev.key === ' ') && this.view.cursor) {
      ev.preventDefault();
      this.onCell(this.view.cursor, ev);
    } else if (ev.key === 'Escape') {
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

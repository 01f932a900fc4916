// Pieces that slide and fade when a board changes (board.js draws the board): what changed
// between two boards, found by matching the pieces that left a cell with those of the same colour
// and kind that arrived on another, and the animations that show it.
//
// It works on the BoardView it is given (its SVG, its board and the way it draws pieces) and
// knows nothing of dragging, but for the piece a drag left on its target (board/drag.js).

import { s, reducedMotion } from '../util.js';
import { pieceKey } from '../games/drawing.js';

/** How long a piece takes to slide to its new place, and a removed one to fade, in ms. */
export const SLIDE_MS = 180;
/** More changes than these between two boards are a new position, not a move: no animation. */
const MOST_SLIDES = 4;
const MOST_OTHERS = 8;

/** @typedef {{from: string, to: string, key: string}} Slide */
/**
 * What changed from one board to the next (`motion`).
 * @typedef {{
 *   changed: boolean, known?: boolean, slides: Slide[],
 *   fades: {cell: string, key: string, piece: any}[], arrivals: Set<string>,
 * }} Motion
 */
/**
 * The animation under way: what it shows, and when it started (`performance.now()`).
 * @typedef {{motion: Motion, t0: number}} Running
 */
/**
 * What the motion is drawn on: the BoardView (board.js).
 * @typedef {{
 *   svg: any, board: any,
 *   xy: (x: number, y: number) => number[],
 *   pieces: (c: any, cx: number, cy: number) => any,
 * }} Drawn
 */

/**
 * What changed from the board `before` to `after`: the pieces that moved (`slides`: from, to,
 * key), those removed (`fades`: cell, piece) and the cells where pieces came from nowhere
 * (`arrivals`). A piece that left one cell is matched with the nearest one of the same colour
 * and kind that arrived on another. Nothing is animated where the boards are not two positions
 * of one game a move apart (a new position, pictures, `view.animate === false`).
 * @param {any} before
 * @param {any} after
 * @param {any} view the view `after` is drawn with
 * @returns {Motion}
 */
export function motion(before, after, view) {
  const none = { changed: true, slides: [], fades: [], arrivals: new Set() };
  if (!before || !after || before.layout !== after.layout || before.width !== after.width
    || before.height !== after.height || before.cells.length !== after.cells.length) return none;
  const was = new Map(before.cells.map((c) => [c.name, c.pieces || []]));
  const at = new Map(after.cells.map((c) => [c.name, c]));
  const left = [];
  const came = [];
  for (const c of after.cells) {
    if (!was.has(c.name)) return none;
    const old = was.get(c.name).slice();
    for (const p of c.pieces || []) {
      const i = old.findIndex((q) => pieceKey(q) === pieceKey(p));
      if (i >= 0) old.splice(i, 1);
      else came.push({ cell: c.name, key: pieceKey(p) });
    }
    for (const p of old) left.push({ cell: c.name, key: pieceKey(p), piece: p });
  }
  if (!left.length && !came.length) return { changed: false, slides: [], fades: [], arrivals: new Set() };
  const v = view;
  if (v.still || v.bare || v.animate === false) return none;
  const dist = (a, b) => Math.hypot(at.get(a).x - at.get(b).x, at.get(a).y - at.get(b).y);
  const slides = [];
  const arrivals = new Set();
  for (const c of came) {
    /** @type {any} */
    let best = null;
    for (const l of left) {
      if (l.used || l.key !== c.key || l.cell === c.cell) continue;
      if (!best || dist(l.cell, c.cell) < dist(best.cell, c.cell)) best = l;
    }
    if (best) {
      best.used = true;
      slides.push({ from: best.cell, to: c.cell, key: c.key });
    } else arrivals.add(c.cell);
  }
  const fades = left.filter((l) => !l.used);
  if (slides.length > MOST_SLIDES || fades.length + arrivals.size > MOST_OTHERS) return none;
  return { changed: true, known: true, slides, fades, arrivals };
}

/**
 * Slides the pieces that moved from their old cells and fades those removed, from `at` ms in.
 * `drop` is a piece dropped on its target by a drag (board/drag.js), there already: it does not
 * slide. Returns the animation under way, for a redraw to go on with (null where there is none).
 * @param {Drawn} bv
 * @param {Motion} motion
 * @param {{from: string, to: string, keys: string[]} | null} drop
 * @param {number} [at]
 * @returns {Running | null}
 */
export function animate(bv, motion, drop, at = 0) {
  if (reducedMotion() || (!motion.slides.length && !motion.fades.length)) return null;
  const used = new Set();
  const inHand = drop ? drop.keys.slice() : [];
  // A piece dropped on its target is there already.
  const slides = motion.slides.filter((m) => {
    if (!drop || drop.from !== m.from || drop.to !== m.to || !inHand.includes(m.key)) return true;
    inHand.splice(inHand.indexOf(m.key), 1);
    return false;
  });
  const running = { motion: { ...motion, slides }, t0: performance.now() - at };
  for (const m of slides) {
    const group = piecesOn(bv, m.to);
    const el = group && [...group.querySelectorAll(`[data-piece="${m.key}"]`)].find((e) => !used.has(e));
    if (!el) continue;
    used.add(el);
    const [fx, fy] = centre(bv, m.from);
    const [tx, ty] = centre(bv, m.to);
    slide(el, fx - tx, fy - ty, SLIDE_MS, at);
  }
  const byCell = new Map();
  for (const f of motion.fades) byCell.set(f.cell, (byCell.get(f.cell) || []).concat([f.piece]));
  if (!byCell.size) return running;
  const layer = s('g', { class: 'fading', 'aria-hidden': 'true' });
  for (const [cell, list] of byCell) {
    const [cx, cy] = centre(bv, cell);
    layer.append(bv.pieces({ pieces: list }, cx, cy));
  }
  // Drawn like pieces but not counted as pieces of the position.
  for (const e of layer.querySelectorAll('.pc, .cell-pieces, .appear')) e.classList.remove('pc', 'cell-pieces', 'appear');
  bv.svg.insertBefore(layer, bv.svg.querySelector('.hits'));
  const fade = layer.animate([{ opacity: 1 }, { opacity: 0 }], { duration: SLIDE_MS, easing: 'ease-in', fill: 'forwards' });
  fade.id = 'fade';
  fade.currentTime = at;
  fade.onfinish = () => layer.remove();
  setTimeout(() => layer.remove(), SLIDE_MS - at + 100);
  return running;
}

/** Moves `el` (a piece drawn with `translate(x y)`) from `dx, dy` away back to its place. */
export function slide(el, dx, dy, ms = SLIDE_MS, at = 0) {
  const list = el.transform.baseVal;
  const m = list.numberOfItems ? list.getItem(0).matrix : { e: 0, f: 0 };
  const anim = el.animate([
    { transform: `translate(${m.e + dx}px, ${m.f + dy}px)` },
    { transform: `translate(${m.e}px, ${m.f}px)` },
  ], { duration: ms, easing: 'ease-out' });
  anim.id = 'slide';
  anim.currentTime = at;
}

/**
 * The group of the pieces drawn on `cell`.
 * @param {{svg: any}} bv
 * @param {string} cell
 */
export function piecesOn(bv, cell) {
  return bv.svg.querySelector(`.pieces [data-cell-pieces="${CSS.escape(cell)}"]`);
}

/**
 * The centre of `cell` in SVG units.
 * @param {{board: any, xy: (x: number, y: number) => number[]}} bv
 * @param {string} cell
 */
export function centre(bv, cell) {
  const c = bv.board.cells.find((x) => x.name === cell);
  return c ? bv.xy(c.x, c.y) : [0, 0];
}

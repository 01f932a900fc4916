// Dragging a piece on a drawn board (board.js): the press and the release are the same clicks as
// a click on the piece and one on its target. The piece is carried under the pointer (larger,
// more so under a finger), marks the target it is over, stays on its target while the move it
// was dropped for is on its way, and slides back to its cell when it was dropped elsewhere. On a
// zoomed board a press where no piece is picked up pans the board instead.

import { s, reducedMotion } from '../util.js';
import { SLIDE_MS, slide, piecesOn, centre } from './motion.js';

/** How far a press moves before it is a drag and not a click, in CSS pixels. */
const DRAG_SLOP = { mouse: 5, pen: 6, touch: 10 };

/**
 * The BoardView (board.js) a drag works on: its drawing, what it shows, its zoom, and the
 * clicks it passes on to the page.
 * @typedef {{
 *   svg: any, board: any, view: any, scroller?: any, zoomed: boolean,
 *   onCell: (cell: string | null, ev: any, layer?: string | null) => void,
 *   drawing: () => any,
 *   render: (board: any, view: any) => void,
 *   xy: (x: number, y: number) => number[],
 * }} DragHost
 */
/**
 * A press that may become a drag (or a pan of the zoomed board).
 * @typedef {{
 *   id: number, type: string, x0: number, y0: number, cell: string | null, layer: string | null,
 *   grab: boolean, started: boolean, left: number, top: number,
 * }} Gesture
 */
/**
 * The piece being dragged, where it is in SVG units.
 * @typedef {{cell: string, layer: string | null, x: number, y: number, touch: boolean}} Held
 */
/**
 * A piece dropped on a target, shown there until the move is played.
 * @typedef {{from: string, to: string, layer: string | null, keys: string[]}} Dropped
 */
/**
 * A piece let go at `x, y`, to slide back to its cell.
 * @typedef {{cell: string, layer: string | null, x: number, y: number}} Going
 */

/** The pointer drag of one BoardView: it listens to the view's pointer events. */
export class Drag {
  /** @param {DragHost} bv */
  constructor(bv) {
    this.bv = bv;
    /** @type {Gesture | null} */
    this.gesture = null;
    /** @type {Held | null} */
    this.held = null;
    /** @type {Dropped | null} */
    this.dropped = null;
    /**
     * A piece let go elsewhere than on a target, for the next redraw to slide back.
     * @type {Going | null}
     */
    this.returning = null;
    /** Set just after a drag, when the click that follows it is no click. */
    this.noClick = false;
  }

  /** Whether a press on `cell` (on `layer`: the target of the game's layer) picks up a piece to drag. */
  draggable(cell, layer) {
    const d = this.bv.view.drag;
    if (!d || !cell || !d.has(layer ? `${layer}:${cell}` : cell)) return false;
    return this.heldElements(cell, layer).length > 0;
  }

  /** What a drag from `cell` carries: the pieces of the game's layer from its target, else the
   * ground pieces (the layer's where there are none). */
  heldElements(cell, layer) {
    const g = piecesOn(this.bv, cell);
    if (!g) return [];
    const ground = [...g.children].filter((e) => e.classList.contains('pc'));
    if (!layer && ground.length) return ground;
    const own = this.bv.drawing().layer;
    return own ? [...g.querySelectorAll(own.selector)] : [];
  }

  /** Client coordinates to SVG units. */
  svgPoint(ev) {
    const m = this.bv.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  /** The hit shape under a client point. */
  hitAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const hit = el && el.closest('[data-cell]');
    return hit && this.bv.svg.contains(hit) ? /** @type {SVGElement} */ (hit) : null;
  }

  press(ev) {
    const bv = this.bv;
    // A press whose release was never seen (let go outside the window) is over.
    if (this.gesture) this.cancelPress({ pointerId: this.gesture.id });
    if (!ev.isPrimary || (ev.pointerType === 'mouse' && ev.button !== 0) || !bv.board) return;
    const hit = ev.target.closest && ev.target.closest('[data-cell]');
    const cell = hit ? hit.dataset.cell : null;
    const layer = hit ? hit.dataset.layer || null : null;
    const grab = this.draggable(cell, layer);
    // The zoomed board pans by dragging where no piece is picked up (with a finger only where
    // the board takes all touches, as it does while pieces can be dragged).
    const pan = !grab && bv.zoomed && (ev.pointerType === 'mouse' || bv.svg.classList.contains('drag-on'));
    if (!grab && !pan) return;
    this.gesture = {
      id: ev.pointerId, type: ev.pointerType, x0: ev.clientX, y0: ev.clientY, cell, layer, grab, started: false,
      left: bv.scroller ? bv.scroller.scrollLeft : 0, top: bv.scroller ? bv.scroller.scrollTop : 0,
    };
  }

  pointerMove(ev) {
    const bv = this.bv;
    const g = this.gesture;
    if (!g || ev.pointerId !== g.id) return;
    const dx = ev.clientX - g.x0;
    const dy = ev.clientY - g.y0;
    if (!g.started) {
      if (Math.hypot(dx, dy) < (DRAG_SLOP[g.type] || 6)) return;
      g.started = true;
      try {
        bv.svg.setPointerCapture(g.id);
      } catch {
        // A pointer the browser does not track (a made-up event): the drag goes on without.
      }
      if (g.grab) {
        const [x, y] = this.svgPoint(ev);
        this.held = { cell: /** @type {string} */ (g.cell), layer: g.layer, x, y, touch: g.type !== 'mouse' };
        bv.svg.classList.add('dragging');
        // The press picks the piece up: the page selects it as a click on it would.
        bv.onCell(g.cell, { grab: true, pointerType: g.type }, g.layer);
        this.hold();
      }
    }
    ev.preventDefault();
    if (!g.grab) {
      bv.scroller.scrollLeft = g.left - dx;
      bv.scroller.scrollTop = g.top - dy;
      return;
    }
    if (!this.held) return;
    [this.held.x, this.held.y] = this.svgPoint(ev);
    this.hold();
    this.markOver(ev.clientX, ev.clientY);
  }

  release(ev) {
    const g = this.gesture;
    if (!g || ev.pointerId !== g.id) return;
    this.gesture = null;
    if (!g.started) return; // a click: the click event does the rest
    // The click that follows a drag is no click.
    this.noClick = true;
    setTimeout(() => { this.noClick = false; }, 0);
    if (!this.held) return;
    const hit = this.hitAt(ev.clientX, ev.clientY);
    const to = hit ? hit.dataset.cell : null;
    const view = this.bv.view;
    const t = to && view.targets && view.targets.get(to);
    const held = this.held;
    if (to && to !== held.cell && t && t !== 'confirm') {
      this.dropHeld(true);
      this.dropped = { from: held.cell, to, layer: held.layer, keys: this.carried().map((e) => e.dataset.piece) };
      this.hold();
      // The same click a click on the target makes: it plays the move, asks which one, or goes on.
      this.bv.onCell(to, ev, /** @type {SVGElement} */ (hit).dataset.layer || null);
    } else {
      this.dropHeld(false);
    }
  }

  /** @param {{pointerId: number}} ev */
  cancelPress(ev) {
    const g = this.gesture;
    if (!g || ev.pointerId !== g.id) return;
    this.gesture = null;
    if (this.held) this.dropHeld(false);
  }

  /** Ends a drag: the piece is let go where it is (`kept`), or goes back to its cell. */
  dropHeld(kept) {
    const held = this.held;
    this.held = null;
    this.bv.svg.classList.remove('dragging');
    if (!held || kept) return;
    this.returning = held;
    this.bv.render(this.bv.board, this.bv.view);
  }

  /**
   * Draws the piece in hand: under the pointer while dragged, on its target while the move it
   * was dropped for is on its way.
   */
  hold() {
    const bv = this.bv;
    const held = this.held || this.dropped;
    if (!held) return;
    const carried = this.carried();
    const els = carried.length ? carried : this.heldElements(this.held ? this.held.cell : /** @type {Dropped} */ (held).from, held.layer);
    if (!els.length) return;
    let layer = bv.svg.querySelector('.drag-layer');
    if (!layer) {
      layer = s('g', { class: 'drag-layer', 'aria-hidden': 'true' });
      bv.svg.append(layer);
    }
    for (const e of els) if (e.parentNode !== layer) layer.append(e);
    const m = els[0].transform.baseVal;
    const [ox, oy] = m.numberOfItems ? [m.getItem(0).matrix.e, m.getItem(0).matrix.f] : [0, 0];
    const [x, y] = this.held ? [this.held.x, this.held.y] : centre(bv, /** @type {Dropped} */ (held).to);
    // In hand a piece is drawn larger, more so under a finger, to be seen around it.
    const k = this.held ? (this.held.touch ? 1.35 : 1.12) : 1;
    layer.setAttribute('transform', `translate(${x} ${y}) scale(${k}) translate(${-ox} ${-oy})`);
  }

  /** The pieces in hand now (until the next redraw). */
  carried() {
    const layer = this.bv.svg.querySelector('.drag-layer');
    return layer ? [...layer.children] : [];
  }

  /** Marks the target under the dragged piece. */
  markOver(x, y) {
    const view = this.bv.view;
    for (const e of this.bv.svg.querySelectorAll('.hit-over')) e.classList.remove('hit-over');
    const hit = this.hitAt(x, y);
    if (hit && this.held && hit.dataset.cell !== this.held.cell && view.targets && view.targets.has(hit.dataset.cell)) {
      hit.classList.add('hit-over');
    }
  }

  /** After a redraw: the piece in hand stays in hand while it can still be dragged. */
  settleHeld() {
    if (!this.held) return;
    const { cell, layer } = this.held;
    const view = this.bv.view;
    if (!view.drag || !view.drag.has(layer ? `${layer}:${cell}` : cell)) {
      this.held = null;
      this.bv.svg.classList.remove('dragging');
      return;
    }
    this.hold();
  }

  /**
   * After a redraw: a piece dropped on a target stays there while its move is on its way (the
   * board unchanged, nothing to click), and goes back when the move was not played (the board
   * unchanged and clickable again: refused, or a chooser cancelled).
   * @param {import('./motion.js').Motion} motion what changed with the redraw
   */
  settleDrop(motion) {
    const d = this.dropped;
    if (!d) return;
    const view = this.bv.view;
    if (motion.changed) {
      // Played: the piece is on its target (a piece that stays, as one that shoots, goes back).
      this.dropped = null;
      if (motion.known && !motion.slides.some((m) => m.from === d.from && m.to === d.to)) {
        const [x, y] = centre(this.bv, d.to);
        this.slideHome({ cell: d.from, layer: d.layer, x, y });
      }
    } else if (view.clickable && view.clickable.size) {
      this.dropped = null;
      const [x, y] = centre(this.bv, d.to);
      this.slideHome({ cell: d.from, layer: d.layer, x, y });
    } else this.hold();
  }

  /**
   * Slides a piece let go at `x, y` back to its cell.
   * @param {Going} going
   */
  slideHome({ cell, layer, x, y }) {
    if (reducedMotion()) return;
    for (const el of this.heldElements(cell, layer)) {
      const m = el.transform.baseVal;
      if (!m.numberOfItems) continue;
      const { e, f } = m.getItem(0).matrix;
      slide(el, x - e, y - f, SLIDE_MS * 0.8);
    }
  }
}

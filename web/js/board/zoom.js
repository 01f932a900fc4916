// The zoom of a drawn board (board.js): a board whose smallest target is smaller than a finger
// can be shown larger, in a frame the size of the unzoomed board that scrolls (and pans by
// dragging, board/drag.js). The BoardView holds the frame (`scroller`), the button that offers
// the zoom (`zoomButton`, for the page to place) and whether it is zoomed; these functions size them.

import { fingerSized } from '../util.js';
import { K } from '../games/drawing.js';

/** The smallest comfortable target for a finger, in CSS pixels (and the size a zoom gives it). */
const FINGER = 44;
const ZOOMED = 48;
/** What is left to click of a triangle with points that can be clicked on its corners (a share
 * of the spacing of the points): the smallest target a board of points has. */
const TRIANGLE_LEFT = 0.63;

/**
 * The BoardView (board.js) that zooms: its drawing, what it shows, and its zoom's parts.
 * @typedef {{
 *   svg: any, board: any, view: any, scroller?: any, zoomButton?: any, zoomed: boolean,
 *   onResize?: () => void,
 * }} Zoomable
 */

/**
 * The smallest target the board can have, in CSS pixels as it is drawn unzoomed: a square, or
 * on a board of points what is left of a triangle between points that can be clicked.
 * @param {Zoomable} bv
 */
export function smallestTarget(bv) {
  const vb = bv.svg.viewBox.baseVal;
  const w = bv.scroller ? bv.scroller.clientWidth : bv.svg.getBoundingClientRect().width;
  if (!bv.board || !vb || !vb.width) return Infinity;
  return (w / vb.width) * K * (bv.board.layout === 'points' ? TRIANGLE_LEFT : 1);
}

/**
 * Offers the zoom where a target is smaller than a finger on a touch screen or a phone-sized
 * window. On a phone 390 px wide an 11×11 board of squares has squares of about 33 px (the
 * screen is narrower than 11 × 44 px) and a 9×9 one of about 40 px; on a board of points,
 * where a triangle shares its room with the pieces on its corners, about 36 px of the triangle
 * are left to tap. Zoomed, the smallest target is 48 px and the board scrolls in a frame the size
 * of the unzoomed one, so nothing around it moves.
 * @param {Zoomable} bv
 */
export function fitZoom(bv) {
  if (!bv.zoomButton) return;
  if (!bv.svg.isConnected) {
    window.removeEventListener('resize', /** @type {() => void} */ (bv.onResize));
    return;
  }
  const useful = !!bv.board && !bv.view.still && fingerSized() && smallestTarget(bv) < FINGER;
  if (!useful && bv.zoomed) setZoom(bv, false);
  bv.zoomButton.hidden = !useful;
  if (bv.zoomed) applyZoom(bv);
}

/**
 * Zooms the board in (`on`) or shows it whole.
 * @param {Zoomable} bv
 * @param {boolean} on
 */
export function setZoom(bv, on) {
  if (!bv.scroller) return;
  bv.zoomed = !!on;
  bv.scroller.classList.toggle('zoomed', bv.zoomed);
  bv.zoomButton.setAttribute('aria-pressed', String(bv.zoomed));
  bv.zoomButton.textContent = bv.zoomed ? 'Whole board' : 'Zoom in';
  if (!bv.zoomed) {
    bv.svg.style.width = '';
    bv.scroller.style.aspectRatio = '';
    return;
  }
  applyZoom(bv);
  const sc = bv.scroller;
  sc.scrollLeft = (sc.scrollWidth - sc.clientWidth) / 2;
  sc.scrollTop = (sc.scrollHeight - sc.clientHeight) / 2;
}

/** @param {Zoomable} bv */
function applyZoom(bv) {
  const vb = bv.svg.viewBox.baseVal;
  if (!vb || !vb.width) return;
  // The frame keeps the unzoomed board's shape; the board inside grows.
  bv.scroller.style.aspectRatio = `${vb.width} / ${vb.height}`;
  bv.svg.style.width = `${(Math.max(1, ZOOMED / smallestTarget(bv)) * 100).toFixed(2)}%`;
}

/**
 * Scrolls the zoomed board so that `el` is in view.
 * @param {Zoomable} bv
 * @param {Element | null} el
 */
export function reveal(bv, el) {
  if (!el || !bv.scroller) return;
  const c = bv.scroller.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.left < c.left) bv.scroller.scrollLeft -= c.left - r.left;
  else if (r.right > c.right) bv.scroller.scrollLeft += r.right - c.right;
  if (r.top < c.top) bv.scroller.scrollTop -= c.top - r.top;
  else if (r.bottom > c.bottom) bv.scroller.scrollTop += r.bottom - c.bottom;
}

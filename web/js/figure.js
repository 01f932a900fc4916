// The figures of the rules pages. The server turns each figure of a rules page into
// <figure class="board-figure" data-figure="{…}"> with the committed picture inside as a fallback;
// here each one is drawn live by the board renderer from the position the engine makes of it
// (or the server, POST /api/positions, where the engine cannot run), with the figure's marks: highlighted cells, rings and dots, crosses,
// arrows, numbers, flight zones, the last move.

import { positionView } from './engine/index.js';
import { BoardView } from './board.js';
import { h } from './util.js';

/** The tallest a figure's board is drawn, in CSS pixels. */
const HEIGHT = 430;

/** The board view of figure `spec` on the position `pos` made of it. */
export function figureView(spec, pos) {
  return {
    game: spec.game,
    still: true,
    selected: new Set(spec.focus || []),
    yes: new Set(spec.yes || []),
    no: new Set(spec.no || []),
    arrows: spec.arrows || [],
    order: new Map(Object.entries(spec.numbers || {})),
    zones: spec.zones || null,
    last: new Set(spec.last ? pos.last_cells || [] : []),
  };
}

/** Draws one figure in place of its picture; resolves once drawn (or left with its picture). */
export async function drawFigure(fig) {
  const spec = JSON.parse(fig.dataset.figure);
  const body = { game: spec.game };
  for (const key of ['options', 'seed', 'position', 'moves']) if (spec[key] !== undefined) body[key] = spec[key];
  try {
    const pos = await positionView(body);
    const holder = h('div', { class: 'figure-board' });
    const caption = fig.querySelector('figcaption');
    const bv = new BoardView(holder, { label: caption ? caption.textContent : 'Figure' });
    bv.svg.removeAttribute('tabindex');
    bv.svg.setAttribute('role', 'img');
    bv.render(pos.board, figureView(spec, pos));
    bv.svg.style.width = `min(100%, ${Math.round(HEIGHT * bv.aspect())}px)`;
    const picture = fig.querySelector('img.figure-picture');
    if (picture) picture.replaceWith(holder);
    else fig.prepend(holder);
    fig.dataset.drawn = 'true';
  } catch (e) {
    // The committed picture stays.
    fig.dataset.failed = e.message || String(e);
  }
}

/** Draws every figure under `root`. */
export function drawFigures(root) {
  return Promise.all([...root.querySelectorAll('figure.board-figure[data-figure]')].map(drawFigure));
}

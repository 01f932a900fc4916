// The legend beside the board: what the pieces and marks of a game mean. The words and the
// pictures' boards come from the game's own presentation (the catalog's `legend`); each picture
// is drawn by the board renderer, so it looks exactly as on the board.

import { h, mount, clickWord } from './util.js';
import { gameInfo } from './api.js';
import { BoardView } from './board.js';

/** Pixels per board unit of a legend picture. */
const UNIT = 40;

/** A legend entry's picture: its small board, drawn without frame or coordinates. */
function picture(sample, game) {
  const div = h('div', { class: 'legend-pic', 'aria-hidden': 'true' });
  const bv = new BoardView(div, {});
  bv.svg.removeAttribute('tabindex');
  bv.svg.removeAttribute('role');
  bv.svg.removeAttribute('aria-label');
  // Flight zones are marks that show only when asked for: a legend shows them all.
  bv.render(sample, { game, bare: true, still: true, zones: 'both' });
  bv.svg.style.width = `${Math.round(sample.width * UNIT)}px`;
  return div;
}

/** The legend of `game` as a list. */
export async function legendList(game) {
  const info = await gameInfo(game);
  const items = (info && info.legend) || [];
  if (!items.length) return h('p', { class: 'muted' }, 'This game has no legend.');
  return h('ul', { class: 'legend-list' }, items.map((it) => h('li', { class: 'legend-item', 'data-name': it.name },
    picture(it.sample, game),
    h('div', { class: 'legend-words' }, h('strong', {}, it.name), h('p', {}, it.text)))));
}

/**
 * The legend of the game page: a card, hidden until its button opens it. `card` goes beside
 * the board; `button(game)` makes the toggle for the page's controls.
 */
export class Legend {
  constructor() {
    this.open = false;
    this.filled = null;
    this.card = h('section', { class: 'card legend-card', id: 'legend', hidden: true, 'aria-label': 'Legend' });
  }

  button(game) {
    return h('button', {
      type: 'button', class: 'btn', id: 'btn-legend', 'aria-pressed': String(this.open), 'aria-controls': 'legend',
      title: 'What the pieces and marks mean', onclick: (ev) => this.toggle(game, ev.currentTarget),
    }, this.open ? 'Hide legend' : 'Legend');
  }

  async toggle(game, btn) {
    this.open = !this.open;
    if (btn) {
      btn.textContent = this.open ? 'Hide legend' : 'Legend';
      btn.setAttribute('aria-pressed', String(this.open));
    }
    this.card.hidden = !this.open;
    if (!this.open) return;
    if (this.filled !== game) {
      this.filled = game;
      mount(this.card,
        h('div', { class: 'card-head' }, h('h2', {}, 'Legend'),
          h('button', { type: 'button', class: 'btn btn-icon legend-x', 'aria-label': 'Close the legend', onclick: () => this.toggle(game, document.getElementById('btn-legend')) }, '×')),
        h('p', { class: 'muted' }, 'Loading…'));
      let list;
      try {
        list = await legendList(game);
      } catch (e) {
        list = h('p', { class: 'error-text' }, `The legend cannot be shown: ${e.message}`);
      }
      /** @type {Element} */ (this.card.querySelector('p.muted')).replaceWith(list,
        h('p', { class: 'legend-note muted' }, `On the board, yellow marks the last move, and dots and rings show where you can ${clickWord()} next: `,
          h('span', { class: 'palette-usual' }, 'green for a move, red for a capture.'),
          h('span', { class: 'palette-safe' }, 'blue for a move, a dotted orange ring for a capture.')));
    }
    if (window.matchMedia('(max-width: 980px)').matches) this.card.scrollIntoView({ block: 'nearest' });
  }
}

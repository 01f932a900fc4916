// The game page's layout, and drawing it from the page state: the board and every part around
// it, each time something changes.

import { h, mount } from '../../util.js';
import { BoardView } from '../../board.js';
import { Legend } from '../../legend.js';
import { fitStack } from '../shared.js';
import { canMove, isFlipped, setFeedback } from './state.js';
import { subtitleView, playerBarView, statusView, offersView, factsView, moveListView, moveNavView, viewingView } from './views.js';
import { moveActionsView, gameButtonsView, controlsView, shareView, pendingInvite, inviteView, bannerView } from './panels.js';
import { tickClocks } from './clocks.js';

/** @typedef {import('./state.js').Page} Page */

/** The page's elements, empty until the game is drawn. */
function elements(pg) {
  /** @type {Record<string, HTMLElement>} */
  const el = {};
  el.status = h('div', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });
  el.conn = h('span', { class: 'conn', title: 'Live connection' });
  el.title = h('h1', { class: 'game-title' }, 'Loading…');
  el.subtitle = h('div', { class: 'game-sub' });
  el.topBar = h('div', { class: 'player-bar top' });
  el.bottomBar = h('div', { class: 'player-bar bottom' });
  el.boardWrap = h('div', { class: 'board-wrap' });
  el.viewing = h('div', { class: 'viewing', hidden: true });
  el.feedback = h('div', { class: 'feedback', 'aria-live': 'polite' });
  el.actions = h('div', { class: 'move-actions' });
  el.banner = h('div', { class: 'banner-slot' });
  el.offers = h('div', { class: 'offers' });
  el.facts = h('dl', { class: 'facts' });
  el.moves = h('ol', { class: 'move-list', 'aria-label': 'Moves' });
  el.nav = h('div', { class: 'move-nav' });
  el.controls = h('div', { class: 'controls' });
  el.quick = h('div', { class: 'controls quick-controls', hidden: true });
  el.share = h('div', { class: 'share' });
  el.invite = h('div', { class: 'invite-slot' });
  el.typedInput = h('input', {
    id: 'typed-move', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    placeholder: 'Type a move, e.g. c3', 'aria-label': 'Type a move in notation', list: 'legal-moves',
  });
  el.datalist = h('datalist', { id: 'legal-moves' });
  el.typedForm = h('form', { class: 'typed-move', onsubmit: (ev) => { ev.preventDefault(); pg.on.submitTyped(); } },
    el.typedInput, el.datalist, h('button', { type: 'submit', class: 'btn' }, 'Play'));
  return el;
}

/** The board, whose clicks go to the move builder. */
function boardOf(pg) {
  const { ps, el } = pg;
  return new BoardView(el.boardWrap, {
    onCell: async (cell, ev, layer) => {
      pg.builder.pointerClick = !(ev instanceof KeyboardEvent);
      if (ps.feedback.kind === 'error' || ps.feedback.kind === 'advice') setFeedback(ps, '');
      // A click on the board while an earlier position is shown goes back to the game and
      // counts there.
      if (ps.viewPly !== null && ps.state && ps.state.status === 'ongoing') await pg.on.viewAt(null);
      pg.builder.click(cell, layer, ev);
    },
    onCursor: (c) => {
      const desc = (c.pieces || []).map((p) => `${p.colour} ${p.kind}`).join(', ');
      el.feedback.textContent = `${c.name}${desc ? `: ${desc}` : ''}`;
      el.feedback.className = 'feedback';
    },
    zoom: true,
  });
}

/**
 * Lays the page out in `root`: `pg` gets its elements, board and legend; the move builder,
 * the actions and `render` are the caller's to give.
 * @param {Page} pg
 * @param {(pg: Page) => import('../../interact.js').MoveBuilder} makeBuilder
 */
export function layOut(pg, makeBuilder) {
  const { root } = pg;
  root.className = 'game-root';
  const el = elements(pg);
  pg.el = el;
  pg.boardView = boardOf(pg);
  pg.builder = makeBuilder(pg);
  pg.legend = new Legend();
  mount(root,
    h('div', { class: 'game-layout' },
      h('section', { class: 'board-col', 'aria-label': 'Board' },
        el.stack = h('div', { class: 'board-stack' }, el.invite, el.topBar, el.boardWrap, el.bottomBar, pg.boardView.zoomButton, el.banner, el.viewing, el.actions, el.feedback, el.quick)),
      h('aside', { class: 'side-col', 'aria-label': 'Game' },
        h('div', { class: 'card head-card' }, h('div', { class: 'title-row' }, el.title, el.conn), el.subtitle, el.status, el.offers),
        pg.legend.card,
        el.facts,
        h('div', { class: 'card moves-card' }, h('div', { class: 'card-head' }, h('h2', {}, 'Moves'), el.nav), el.moves, el.typedForm),
        h('div', { class: 'card' }, el.controls),
        el.share)));
}

/**
 * Sizes the board so that it, the player bars, the result, the move buttons and the last
 * message fit in the window's height together: `--reserve` is the height taken by all but
 * the board.
 * @param {Page} pg
 */
export function fitBoard(pg) {
  if (!pg.ps.closed) fitStack(pg.el.stack, pg.el.boardWrap, pg.boardView.svg);
}

/**
 * Says no to a click on `cell`: the message, the cell flashed and the board shaken.
 * @param {Page} pg
 * @param {string} cell
 * @param {string} message
 */
export function refuse(pg, cell, message) {
  const { ps, el } = pg;
  setFeedback(ps, message, 'error');
  ps.flash = cell;
  pg.render();
  el.boardWrap.classList.remove('shake');
  void el.boardWrap.offsetWidth;
  el.boardWrap.classList.add('shake');
  setTimeout(() => {
    if (ps.flash === cell) {
      ps.flash = null;
      pg.render();
    }
  }, 700);
}

/** Draws the board: the position shown, with the builder's marks on the current one. */
function renderBoard(pg) {
  const { ps, el, builder, boardView, styles } = pg;
  const state = ps.state;
  const earlier = ps.viewPly !== null;
  const board = earlier ? (ps.viewed && ps.viewed.board) || state.board : state.board;
  const hl = builder.highlights();
  const lastPly = earlier ? ps.viewPly : state.moves.length;
  const lastMover = lastPly > 0 ? state.seats[state.moves[lastPly - 1].seat].colour : null;
  const zoneColour = earlier ? null : builder.zones();
  const view = {
    game: state.game,
    flipped: isFlipped(ps),
    targets: earlier ? new Map() : hl.targets,
    selected: earlier ? new Set() : hl.selected,
    clickable: earlier || !builder.enabled ? new Set() : hl.clickable,
    order: hl.order,
    last: new Set((earlier ? ps.viewed && ps.viewed.last_cells : state.last_cells) || []),
    lastMover,
    drag: earlier || styles.drag === false ? null : builder.grabbable(),
    flash: ps.flash,
    cursor: boardView.view.cursor,
    zones: ps.showZones ? 'both' : zoneColour,
    ghosts: !earlier && styles.ghosts ? styles.ghosts(builder) : null,
    hint: !earlier && ps.hintShown && ps.hintShown.version === state.version ? ps.hintShown.cells : null,
    showAvailable: !builder.sel.length && !builder.extra,
  };
  boardView.render(board, view);
  requestAnimationFrame(() => fitBoard(pg));
  el.stack.style.setProperty('--aspect', boardView.aspect().toFixed(4));
  boardView.svg.classList.toggle('can-move', builder.enabled);
  el.boardWrap.classList.toggle('earlier', earlier);
  return board;
}

/** The title, the settings and the state of the live connection. */
function renderHead(pg) {
  const { ps, el } = pg;
  const { state, connection } = ps;
  el.title.textContent = state.title;
  mount(el.subtitle, subtitleView(ps));
  // A finished game changes no more: no word of a live connection then.
  // Nor in a game kept in this browser, which has no live connection at all.
  el.conn.hidden = state.status === 'finished' || ps.local;
  el.conn.className = `conn conn-${connection}`;
  el.conn.textContent = connection === 'live' ? 'live' : connection === 'connecting' ? 'connecting…' : 'reconnecting…';
  el.conn.title = connection === 'live' ? 'Connected: moves appear as they are played' : 'The live connection is down; retrying';
}

function renderPlayers(pg, board) {
  const { ps, el } = pg;
  const fl = isFlipped(ps);
  const bottom = fl ? 'second' : 'first';
  const top = fl ? 'first' : 'second';
  for (const [elBar, seat] of [[el.bottomBar, bottom], [el.topBar, top]]) {
    const bar = playerBarView(ps, seat, board);
    // The clock's time is written by tickClocks, which keeps it running.
    pg.clockEls[seat] = bar.clock;
    mount(elBar, bar.children);
    elBar.classList.toggle('active', !!bar.toMove);
    elBar.classList.toggle('has-clock', !!ps.state.clock);
    elBar.dataset.seat = seat;
  }
  tickClocks(pg);
}

/** The status line, the offers, the facts, the move list and its buttons. */
function renderSide(pg, board) {
  const { ps, el } = pg;
  const status = statusView(ps);
  el.status.className = status.className;
  el.status.textContent = status.text;
  if (status.last) el.status.append(status.last);
  mount(el.offers, offersView(ps, pg.on));
  const facts = factsView(ps, board);
  el.facts.hidden = !facts.length;
  el.facts.className = facts.length ? 'facts card' : 'facts';
  mount(el.facts, facts);
  mount(el.moves, moveListView(ps, pg.on));
  const cur = el.moves.querySelector('.mv-current');
  if (cur && ps.viewPly === null) el.moves.scrollTop = el.moves.scrollHeight;
  else if (cur) cur.scrollIntoView({ block: 'nearest' });
  mount(el.nav, moveNavView(ps, pg.on));
}

/**
 * The invite link, above the board until the friend has opened it: the first thing the player
 * sees, at any size, so that it is sent before the first move.
 */
function renderInvite(pg) {
  const { el } = pg;
  const invite = pendingInvite(pg.ps);
  el.invite.hidden = !invite;
  if (!invite) {
    el.invite.replaceChildren();
    return;
  }
  const input = /** @type {HTMLInputElement|null} */ (el.invite.querySelector('#invite-link'));
  if (input && input.value === invite.link) return; // drawn already: keep a selection in it
  mount(el.invite, inviteView(invite));
}

/** The message under the board, the typed move and what the tests and the tab title read. */
function renderFeedback(pg) {
  const { ps, el, root } = pg;
  const { state, feedback } = ps;
  const hint = pg.builder.hint();
  if (feedback.text) {
    el.feedback.textContent = feedback.text;
    el.feedback.className = `feedback ${feedback.kind ? `feedback-${feedback.kind}` : ''}`;
  } else {
    el.feedback.textContent = hint || '';
    el.feedback.className = 'feedback feedback-hint';
  }
  const input = /** @type {HTMLInputElement} */ (el.typedInput);
  el.datalist.replaceChildren(...(canMove(ps) ? state.legal_moves.slice(0, 500).map((m) => h('option', { value: m })) : []));
  input.disabled = !canMove(ps);
  input.placeholder = canMove(ps) && state.legal_moves.length ? `Type a move, e.g. ${state.legal_moves[0]}` : 'Type a move';
  /** @type {HTMLButtonElement} */ (el.typedForm.querySelector('button')).disabled = !canMove(ps);
  root.dataset.canMove = String(canMove(ps));
  // A mark in the tab title when it is this browser's turn in an online game.
  const yourTurn = canMove(ps) && !state.same_screen && !state.solitaire;
  document.title = `${yourTurn ? '● Your move · ' : ''}${state ? `${state.title} · boardlab` : 'boardlab'}`;
  root.dataset.ply = String(ps.viewPly !== null ? ps.viewPly : state.moves.length);
}

/**
 * Draws the whole page from its state (nothing before the game has come, or once left).
 * @param {Page} pg
 */
export function render(pg) {
  const { ps, el } = pg;
  if (!ps.state || ps.closed) return;
  const board = renderBoard(pg);
  renderHead(pg);
  renderPlayers(pg, board);
  renderSide(pg, board);
  mount(el.actions, moveActionsView(pg.builder));
  // On a narrow screen a game kept here has its buttons under the board, in view with it.
  const under = ps.local && matchMedia('(max-width: 980px)').matches;
  const quick = under ? gameButtonsView(ps, pg.on) : [];
  mount(el.quick, quick);
  el.quick.hidden = !quick.length;
  mount(el.controls, controlsView(ps, pg.legend, pg.on, !under));
  renderInvite(pg);
  el.share.className = 'card share';
  mount(el.share, shareView(ps));
  el.banner.replaceChildren();
  const banner = bannerView(ps, pg.on);
  if (banner) el.banner.append(banner);
  el.viewing.hidden = ps.viewPly === null;
  if (ps.viewPly !== null) mount(el.viewing, viewingView(ps, pg.on));
  renderFeedback(pg);
}

// The game page: the board, both players, whose turn, the move list with earlier positions,
// typed moves, undo / draw / resign, record downloads, invite links, live updates. Its parts
// are in ./game/: the page state, the server, the views and the drawing; here they meet.

import { h, mount, toast } from '../util.js';
import { api, seats, gameInfo, factInfos, hasRoute } from '../api.js';
import { MoveBuilder } from '../interact.js';
import { openChooser, closeChooser } from '../chooser.js';
import { stylesFor } from '../games/index.js';
import { onAccount } from '../account.js';
import { newPageState, isFlipped, whyNot, setFeedback, sync } from './game/state.js';
import { takeInvite, receive, send, submitTyped, action, viewAt, showHint, followRematch, openLive } from './game/connection.js';
import { layOut, render, refuse, fitBoard } from './game/render.js';
import { isLocal } from '../local/games.js';
import { go } from '../nav.js';
import {
  loadLocal, computerTurn, sendLocal, submitTypedLocal, actionLocal, viewAtLocal, showHintLocal, downloadLocal,
} from './game/local.js';

/** @typedef {import('./game/state.js').Page} Page */

/**
 * What the move builder asks of the page.
 * @param {Page} pg
 */
function hooks(pg) {
  return {
    why: () => whyNot(pg.ps),
    play: (move) => (pg.ps.local ? sendLocal(pg, move) : send(pg, move)),
    changed: () => pg.render(),
    refuse: (cell, message) => refuse(pg, cell, message),
    // The chooser: a small menu by the clicked cell.
    choose: (options, cell, title) => openChooser(pg.el.boardWrap, pg.boardView.svg, options, cell, title),
  };
}

/**
 * What the page's controls do.
 * @param {Page} pg
 * @returns {import('./game/state.js').Actions}
 */
function actions(pg) {
  const { ps } = pg;
  // A game kept in this browser is worked out by the engine here (game/local.js).
  if (ps.local) {
    return {
      ...common(pg),
      viewAt: (ply) => viewAtLocal(pg, ply),
      action: (kind) => actionLocal(pg, kind),
      followRematch: () => ps.state.rematch && go(`/games/${ps.state.rematch}`),
      showHint: () => showHintLocal(pg),
      submitTyped: () => submitTypedLocal(pg),
      download: (format) => downloadLocal(pg, format),
    };
  }
  return {
    ...common(pg),
    viewAt: (ply) => viewAt(pg, ply),
    action: (kind, act, extra) => action(pg, kind, act, extra),
    followRematch: () => followRematch(pg),
    showHint: () => showHint(pg),
    submitTyped: () => submitTyped(pg),
  };
}

/**
 * What the page's controls do in any game: flip, the flight zones, the result closed.
 * @param {Page} pg
 */
function common(pg) {
  const { ps } = pg;
  return {
    flip: () => {
      ps.flipped = !isFlipped(ps);
      sync(pg);
      pg.render();
    },
    toggleZones: () => {
      ps.showZones = !ps.showZones;
      pg.render();
    },
    closeBanner: () => {
      ps.bannerClosed = true;
      pg.render();
    },
  };
}

/**
 * The keyboard shortcuts outside the board: the arrows, Home and End through the moves, F to
 * flip, Esc to start a move again.
 * @param {Page} pg
 * @returns {(ev: KeyboardEvent) => void}
 */
function keyHandler(pg) {
  const { ps } = pg;
  return (ev) => {
    if (/** @type {HTMLElement} */ (ev.target).closest('input, textarea, select, .board, .chooser, .modal')) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (!ps.state) return;
    const n = ps.state.moves.length;
    const cur = ps.viewPly === null ? n : ps.viewPly;
    if (ev.key === 'ArrowLeft') pg.on.viewAt(cur - 1);
    else if (ev.key === 'ArrowRight') pg.on.viewAt(cur + 1 >= n ? null : cur + 1);
    else if (ev.key === 'Home') pg.on.viewAt(0);
    else if (ev.key === 'End') pg.on.viewAt(null);
    else if (ev.key === 'f' || ev.key === 'F') {
      ps.flipped = !isFlipped(ps);
      pg.render();
    } else if (ev.key === 'Escape') pg.builder.reset();
    else return;
    ev.preventDefault();
  };
}

/**
 * Opens game `id` in `root`. Returns what to do on leaving the page, or null when the game
 * could not be loaded.
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {Promise<(() => void)|null>}
 */
export async function gamePage(root, id) {
  const local = isLocal(id);
  const joined = local ? null : await takeInvite(id);
  const ps = newPageState(id, local ? {} : seats.get(id));
  ps.local = local;
  const pg = /** @type {Page} */ ({ id, root, ps, styles: {}, clockEls: {}, tickTimer: 0 });
  pg.on = actions(pg);
  pg.render = () => render(pg);
  layOut(pg, () => new MoveBuilder(hooks(pg)));
  // Drawn again: a narrow window puts some buttons under the board.
  window.addEventListener('resize', () => requestAnimationFrame(() => (ps.local ? pg.render() : fitBoard(pg))));
  const onKey = keyHandler(pg);
  document.addEventListener('keydown', onKey);

  let first;
  try {
    first = local ? await loadLocal(id) : await api.game(id);
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' },
      h('h1', {}, e.status === 404 ? 'No such game' : 'Cannot load the game'),
      h('p', { class: 'error-text' }, e.message),
      h('p', {}, h('a', { href: '/' }, 'Start a new game'))));
    document.removeEventListener('keydown', onKey);
    return null;
  }
  ps.info = await gameInfo(first.game).catch(() => null);
  ps.facts = await factInfos().catch(() => new Map());
  // This browser holds the person's seat of a game kept here; the engine gives its hints.
  if (local) ps.tokens[first.seats.first.kind === 'human' ? 'first' : 'second'] = 'here';
  ps.hintAvailable = local ? true : await hasRoute('/api/games/{id}/hint');
  pg.styles = stylesFor(first.game);
  pg.builder = new MoveBuilder(hooks(pg));
  document.title = `${first.title} · boardlab`;
  if (joined) {
    toast(joined.text, joined.kind);
    if (joined.kind === 'error') setFeedback(ps, joined.text, 'error');
  }
  receive(pg, first);
  if (ps.info) pg.el.typedInput.title = `Move notation: ${ps.info.move_examples}`;
  const live = local ? { close: () => {} } : openLive(pg);
  if (local) computerTurn(pg);

  // Signed in or out meanwhile: the seats of the account are the player's, or no longer.
  const stopAccount = onAccount(() => {
    if (!ps.state || ps.closed) return;
    sync(pg);
    pg.render();
  });

  return () => {
    ps.closed = true;
    clearTimeout(pg.tickTimer);
    stopAccount();
    live.close();
    document.removeEventListener('keydown', onKey);
    closeChooser();
  };
}

// The game page: the board, both players, whose turn, the move list with earlier positions,
// typed moves, undo / draw / resign, record downloads, invite links, live updates.

import { h, mount, cap, toast, copyText, pointerWords } from '../util.js';
import { go } from '../nav.js';
import { moveSound } from '../sound.js';
import { api, seats, gameInfo, hasRoute, ApiError } from '../api.js';
import { BoardView } from '../board.js';
import { MoveBuilder } from '../interact.js';
import { openChooser, closeChooser } from '../chooser.js';
import { LiveGame } from '../live.js';
import { stylesFor } from '../games/index.js';
import { Legend } from '../legend.js';
import { playerName, colourSwatch, factLabel, goalOf, seatColourName, navIcon, fitStack, resultSentence } from './shared.js';
import { accountName, sameName, onAccount, claimGame } from '../account.js';
import { clockText, clockSpoken, clockWords, clockSentence } from '../clock.js';

/**
 * Opens `#join=SEAT.TOKEN` (an invite link) and hides it: the server exchanges the link's token
 * for this browser's own, once. Returns what to tell the player, or null without a link.
 */
/** A seat token: 128 random bits as 32 lower-case hex digits. */
function newToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function takeInvite(id) {
  const m = /^#join=(first|second)\.([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return null;
  history.replaceState(null, '', location.pathname + location.search);
  const held = seats.get(id);
  if (held.invite && held.invite.token === m[2]) {
    return { kind: 'error', text: 'This is your own invite link: send it to your opponent. You keep your seat.' };
  }
  if (held[m[1]]) return { kind: 'ok', text: 'You already hold this seat.' };
  try {
    // The new token is made here, so a join whose answer is lost can be sent again.
    const body = { token: m[2], new_token: newToken() };
    let joined;
    try {
      joined = await api.join(id, body);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'network') throw e;
      joined = await api.join(id, body);
    }
    seats.add(id, joined.seat, joined.token);
    // Signed in: the seat becomes the account's, so it can be played from any browser.
    if (accountName()) await claimGame(id, { [joined.seat]: joined.token });
    return { kind: 'ok', text: `You joined the game${joined.state.seats[joined.seat].colour ? ` as ${joined.state.seats[joined.seat].colour}` : ''}.` };
  } catch (e) {
    if (e.code === 'invite_used') return { kind: 'error', text: 'This invite link has already been used: the seat is taken. You can watch the game.' };
    return { kind: 'error', text: `Cannot join: ${e.message}` };
  }
}

/** The seats seen with the game open, as kept under `key` ([] when none or unreadable). */
function readSeen(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || '[]');
    return Array.isArray(v) ? v.filter((x) => x === 'first' || x === 'second') : [];
  } catch {
    return [];
  }
}

export async function gamePage(root, id) {
  const joined = await takeInvite(id);
  let tokens = seats.get(id);
  let state = null;
  let info = null;
  let viewPly = null; // null: the current position
  let viewed = null; // the earlier position shown
  let presence = null; // which seats have the game open now: {first, second}
  // The seats seen here at some time, kept by the browser: a seat once joined is never shown
  // as "not joined yet" again, even after a reload.
  const seenKey = `boardlab:seen:${id}`;
  const seenHere = new Set(readSeen(seenKey));
  const saveSeen = () => {
    try {
      if (seenHere.size) localStorage.setItem(seenKey, JSON.stringify([...seenHere]));
    } catch {
      // without storage the page still remembers while it is open
    }
  };
  let flipped = null; // null: automatic
  let connection = 'connecting';
  let busy = false;
  let bannerClosed = false;
  let feedback = { text: '', kind: '' };
  let flash = null;
  let hintAvailable = null;
  let hintShown = null; // {version, cells}
  let hintBusy = false;
  let showZones = false;
  let closed = false;
  // The clocks: when the state in hand was received (its times left are as of then), the
  // clock elements of the player bars, the next tick, and the version already asked again
  // after a clock ran out.
  let receivedAt = 0;
  const clockEls = {};
  let tickTimer = 0;
  let flagAsked = -1;
  const baseTitle = () => (state ? `${state.title} · boardlab` : 'boardlab');
  const atCache = new Map();

  root.className = 'game-root';
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
  el.share = h('div', { class: 'share' });
  el.invite = h('div', { class: 'invite-slot' });
  el.typedInput = h('input', {
    id: 'typed-move', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    placeholder: 'Type a move, e.g. c3', 'aria-label': 'Type a move in notation', list: 'legal-moves',
  });
  el.datalist = h('datalist', { id: 'legal-moves' });
  el.typedForm = h('form', { class: 'typed-move', onsubmit: (ev) => { ev.preventDefault(); submitTyped(); } },
    el.typedInput, el.datalist, h('button', { type: 'submit', class: 'btn' }, 'Play'));

  const boardView = new BoardView(el.boardWrap, {
    onCell: async (cell, ev, layer) => {
      builder.pointerClick = !(ev instanceof KeyboardEvent);
      if (feedback.kind === 'error' || feedback.kind === 'advice') setFeedback('');
      // A click on the board while an earlier position is shown goes back to the game and
      // counts there.
      if (viewPly !== null && state && state.status === 'ongoing') await viewAt(null);
      builder.click(cell, layer, ev);
    },
    onCursor: (c) => {
      const desc = (c.pieces || []).map((p) => `${p.colour} ${p.kind}`).join(', ');
      el.feedback.textContent = `${c.name}${desc ? `: ${desc}` : ''}`;
      el.feedback.className = 'feedback';
    },
    zoom: true,
  });

  let styles = {};
  let builder = new MoveBuilder(hooks());
  const legend = new Legend();

  mount(root,
    h('div', { class: 'game-layout' },
      h('section', { class: 'board-col', 'aria-label': 'Board' },
        el.stack = h('div', { class: 'board-stack' }, el.invite, el.topBar, el.boardWrap, el.bottomBar, boardView.zoomButton, el.banner, el.viewing, el.actions, el.feedback)),
      h('aside', { class: 'side-col', 'aria-label': 'Game' },
        h('div', { class: 'card head-card' }, h('div', { class: 'title-row' }, el.title, el.conn), el.subtitle, el.status, el.offers),
        legend.card,
        el.facts,
        h('div', { class: 'card moves-card' }, h('div', { class: 'card-head' }, h('h2', {}, 'Moves'), el.nav), el.moves, el.typedForm),
        h('div', { class: 'card' }, el.controls),
        el.share)));

  function hooks() {
    return {
      why: () => whyNot(),
      play: (move) => send(move),
      changed: () => render(),
      refuse: (cell, message) => refuse(cell, message),
      choose: (options, cell, title) => choose(options, cell, title),
    };
  }

  /**
   * Whether this browser plays `seat`: it holds the seat's token, or the seat is the signed-in
   * account's (the server then takes requests without a token from the account's session).
   */
  function holds(seat) {
    if (tokens[seat]) return true;
    const sv = state && state.seats[seat];
    return !!(sv && sv.account && sameName(sv.account, accountName()));
  }

  function mySeats() {
    return ['first', 'second'].filter((s2) => holds(s2));
  }

  /** The seats this browser plays, as `{first, second}` flags (for the player names). */
  function held() {
    return { first: holds('first'), second: holds('second') };
  }

  function canMove() {
    return !!(state && state.status === 'ongoing' && state.to_move && !state.to_move.computer
      && holds(state.to_move.seat) && viewPly === null && !busy);
  }

  /** Why this browser cannot move now, in words. */
  function whyNot() {
    if (!state) return 'The game is loading.';
    if (state.status !== 'ongoing') return 'The game is over.';
    if (viewPly !== null) return 'This is an earlier position: go back to the game to move.';
    if (busy) return 'Your move is on its way.';
    const tm = state.to_move;
    if (tm && tm.computer) return 'The computer is thinking.';
    if (!mySeats().length) return 'You are watching this game.';
    const who = tm && tm.colour ? cap(tm.colour) : 'your opponent';
    return `It is ${who}'s turn: waiting for your opponent.`;
  }

  function actingSeat() {
    const mine = mySeats();
    if (!mine.length) return null;
    if (state && state.to_move && mine.includes(state.to_move.seat)) return state.to_move.seat;
    return mine[0];
  }

  function isFlipped() {
    if (flipped !== null) return flipped;
    const mine = mySeats();
    return mine.length === 1 && mine[0] === 'second';
  }

  function setFeedback(text, kind = '') {
    feedback = { text, kind };
  }

  function refuse(cell, message) {
    setFeedback(message, 'error');
    flash = cell;
    render();
    el.boardWrap.classList.remove('shake');
    void el.boardWrap.offsetWidth;
    el.boardWrap.classList.add('shake');
    setTimeout(() => {
      if (flash === cell) {
        flash = null;
        render();
      }
    }, 700);
  }

  // ---- the chooser: a small menu by the clicked cell ----
  function choose(options, cell, title) {
    return openChooser(el.boardWrap, boardView.svg, options, cell, title);
  }

  // ---- talking to the server ----
  function apply(next) {
    if (!next || (state && next.id === state.id && next.version < state.version)) return;
    const changed = !state || next.version !== state.version;
    // A rematch agreed while this page is open: both players go to it.
    const rematchNow = state && !state.rematch && next.rematch;
    const movedOn = state && next.moves.length !== state.moves.length;
    state = next;
    receivedAt = performance.now();
    root.dataset.version = String(state.version);
    root.dataset.status = state.status;
    if (changed) {
      if (viewPly !== null && viewPly > state.moves.length) {
        viewPly = null;
        viewed = null;
      }
      if (movedOn) setFeedback('');
      if (movedOn && next.moves.length > 0) moveSound();
      if (state.status === 'ongoing') bannerClosed = false;
      closeChooser();
    }
    const ctx = { flipped: isFlipped() };
    builder.setState(state, canMove(), ctx);
    render();
    if (rematchNow && mySeats().length) {
      toast('The rematch starts: colours swapped.');
      followRematch();
    }
  }

  async function send(move) {
    if (!canMove()) return;
    const seat = state.to_move.seat;
    busy = true;
    setFeedback(`Playing ${move}…`, 'pending');
    builder.setState(state, false, { flipped: isFlipped() });
    render();
    try {
      // Without the seat's token (a seat of the account) none is sent: the session speaks.
      const next = await api.move(id, { move, token: tokens[seat], version: state.version });
      busy = false;
      setFeedback('');
      apply(next);
      settle();
    } catch (e) {
      busy = false;
      await handleError(e);
    }
  }

  /** After a request: a newer state may have come over the live connection meanwhile. */
  function settle() {
    builder.setState(state, canMove(), { flipped: isFlipped() });
    render();
  }

  async function handleError(e) {
    if (e instanceof ApiError && e.status === 409 && e.code === 'stale_version') {
      await refresh();
      setFeedback('The game moved on meanwhile; here is the current position.', 'error');
    } else if (e instanceof ApiError && e.status === 403) {
      setFeedback(`${e.message} — this browser does not hold that seat.`, 'error');
    } else {
      setFeedback(e.message || String(e), 'error');
    }
    builder.setState(state, canMove(), { flipped: isFlipped() });
    render();
  }

  async function refresh() {
    try {
      apply(await api.game(id));
    } catch (e) {
      if (e.status === 404) throw e;
      setFeedback(e.message, 'error');
      render();
    }
  }

  async function submitTyped() {
    const text = el.typedInput.value.trim();
    if (!text) return;
    if (!state || state.status !== 'ongoing') {
      setFeedback('The game is over.', 'error');
      render();
      return;
    }
    if (!canMove()) {
      setFeedback(whyNot(), 'error');
      render();
      return;
    }
    const seat = state.to_move.seat;
    busy = true;
    render();
    try {
      const next = await api.move(id, { move: text, token: tokens[seat], version: state.version });
      busy = false;
      el.typedInput.value = '';
      setFeedback('');
      apply(next);
      settle();
    } catch (e) {
      busy = false;
      await handleError(e);
    }
  }

  /** @param {string} kind @param {string} [act] @param {object} [extra] more of the body */
  async function action(kind, act, extra = {}) {
    const seat = actingSeat();
    if (!seat) return;
    try {
      let next;
      const body = { token: tokens[seat], version: state.version };
      if (kind === 'resign') next = await api.resign(id, body);
      else if (kind === 'draw') next = await api.draw(id, { ...body, action: act });
      else if (kind === 'rematch') next = await api.rematch(id, { ...body, action: act, ...extra });
      else next = await api.undo(id, { ...body, action: act });
      setFeedback('');
      apply(next);
    } catch (e) {
      await handleError(e);
    }
  }

  // ---- earlier positions ----
  async function viewAt(ply) {
    if (!state) return;
    const n = state.moves.length;
    if (ply === null || ply >= n) {
      viewPly = null;
      viewed = null;
      builder.setState(state, canMove(), { flipped: isFlipped() });
      render();
      return;
    }
    ply = Math.max(0, ply);
    const key = `${ply}:${state.moves.slice(0, ply).map((m) => m.move).join(' ')}`;
    viewPly = ply;
    builder.setState(state, false, { flipped: isFlipped() });
    if (atCache.has(key)) {
      viewed = atCache.get(key);
      render();
      return;
    }
    render();
    try {
      const at = await api.at(id, ply);
      atCache.set(key, at);
      if (viewPly === ply) {
        viewed = at;
        render();
      }
    } catch (e) {
      viewPly = null;
      viewed = null;
      builder.setState(state, canMove(), { flipped: isFlipped() });
      setFeedback(e.status === 404 && /route/.test(e.message)
        ? 'Earlier positions are not available from this server yet.'
        : `Cannot show that position: ${e.message}`, 'error');
      render();
    }
  }

  // ---- drawing ----
  function render() {
    if (!state || closed) return;
    const fl = isFlipped();
    const earlier = viewPly !== null;
    const board = earlier ? (viewed && viewed.board) || state.board : state.board;
    const hl = builder.highlights();
    const lastPly = earlier ? viewPly : state.moves.length;
    const lastMover = lastPly > 0 ? state.seats[state.moves[lastPly - 1].seat].colour : null;
    const zoneColour = earlier ? null : builder.zones();
    const view = {
      game: state.game,
      flipped: fl,
      targets: earlier ? new Map() : hl.targets,
      selected: earlier ? new Set() : hl.selected,
      clickable: earlier || !builder.enabled ? new Set() : hl.clickable,
      order: hl.order,
      last: new Set((earlier ? viewed && viewed.last_cells : state.last_cells) || []),
      lastMover,
      drag: earlier || styles.drag === false ? null : builder.grabbable(),
      flash,
      cursor: boardView.view.cursor,
      zones: showZones ? 'both' : zoneColour,
      goal: goalOf(state),
      ghosts: !earlier && styles.ghosts ? styles.ghosts(builder) : null,
      hint: !earlier && hintShown && hintShown.version === state.version ? hintShown.cells : null,
      showAvailable: !builder.sel.length && !builder.extra,
    };
    boardView.render(board, view);
    requestAnimationFrame(fitBoard);
    el.stack.style.setProperty('--aspect', boardView.aspect().toFixed(4));
    boardView.svg.classList.toggle('can-move', builder.enabled);
    el.boardWrap.classList.toggle('earlier', earlier);

    // Title and settings.
    el.title.textContent = state.title;
    const specs = Object.fromEntries(((info && info.options) || []).map((o) => [o.name, o]));
    // The options that differ from the defaults, by their names for people.
    const opts = Object.entries(state.options || {}).filter(([k, v]) => !specs[k] || specs[k].default !== v)
      .map(([k, v]) => `${(specs[k] && specs[k].label) || k}: ${v === 'true' ? 'on' : v === 'false' ? 'off' : v}`).join(' · ');
    const mode = state.solitaire ? 'Solitaire' : state.same_screen ? 'Same screen'
      : (state.seats.first.kind === 'computer' || state.seats.second.kind === 'computer') ? 'Against the computer' : 'Online';
    mount(el.subtitle, h('span', { class: 'mode-tag' }, mode),
      state.rated ? h('span', { class: 'pill pill-rated', id: 'game-rated', title: 'The result counts for both players\' ratings' }, 'Rated') : null,
      state.clock ? h('span', { class: 'clock-tag', id: 'game-clock', title: clockSentence(state.clock.control) }, clockWords(state.clock.control)) : null,
      opts ? h('span', { class: 'opts' }, opts) : null,
      h('a', { class: 'rules-link', href: `/rules/${state.game}`, target: '_blank', rel: 'noopener' }, 'Rules'));
    // A finished game changes no more: no word of a live connection then.
    el.conn.hidden = state.status === 'finished';
    el.conn.className = `conn conn-${connection}`;
    el.conn.textContent = connection === 'live' ? 'live' : connection === 'connecting' ? 'connecting…' : 'reconnecting…';
    el.conn.title = connection === 'live' ? 'Connected: moves appear as they are played' : 'The live connection is down; retrying';

    renderPlayers(fl, board);
    renderStatus();
    renderFacts(board);
    renderMoves();
    renderActions();
    renderControls();
    renderShare();
    renderBanner();

    el.viewing.hidden = !earlier;
    if (earlier) {
      mount(el.viewing, h('span', {}, viewPly === 0 ? 'Viewing the starting position' : `Viewing the position after move ${viewPly} (${state.moves[viewPly - 1].move})`),
        h('button', { class: 'btn btn-small', type: 'button', onclick: () => viewAt(null) }, 'Back to the game'));
    }
    const hint = builder.hint();
    if (feedback.text) {
      el.feedback.textContent = pointerWords(feedback.text);
      el.feedback.className = `feedback ${feedback.kind ? `feedback-${feedback.kind}` : ''}`;
    } else {
      el.feedback.textContent = pointerWords(hint || '');
      el.feedback.className = 'feedback feedback-hint';
    }
    el.datalist.replaceChildren(...(canMove() ? state.legal_moves.slice(0, 500).map((m) => h('option', { value: m })) : []));
    el.typedInput.disabled = !canMove();
    el.typedInput.placeholder = canMove() && state.legal_moves.length ? `Type a move, e.g. ${state.legal_moves[0]}` : 'Type a move';
    el.typedForm.querySelector('button').disabled = !canMove();
    root.dataset.canMove = String(canMove());
    // A mark in the tab title when it is this browser's turn in an online game.
    const yourTurn = canMove() && !state.same_screen && !state.solitaire;
    document.title = `${yourTurn ? '● Your move · ' : ''}${baseTitle()}`;
    root.dataset.ply = String(earlier ? viewPly : state.moves.length);
  }

  /**
   * Sizes the board so that it, the player bars, the result, the move buttons and the last
   * message fit in the window's height together: `--reserve` is the height taken by all but
   * the board.
   */
  function fitBoard() {
    if (!closed) fitStack(el.stack, el.boardWrap, boardView.svg);
  }
  window.addEventListener('resize', () => requestAnimationFrame(fitBoard));

  function renderPlayers(fl, board) {
    const bottom = fl ? 'second' : 'first';
    const top = fl ? 'first' : 'second';
    const colours = (info && info.colours) || [];
    for (const [elBar, seat] of [[el.bottomBar, bottom], [el.topBar, top]]) {
      const sv = state.seats[seat];
      // In a solitaire one person plays both colours: the bars stand for the colours.
      const colour = state.solitaire ? colours[seat === 'first' ? 0 : 1] || sv.colour : sv.colour;
      // Looking at an earlier position: whose turn it was then.
      const tm = viewPly !== null ? (viewed ? viewed.to_move : null) : state.status === 'ongoing' ? state.to_move : null;
      const toMove = !!tm && (state.solitaire ? tm.colour === colour : tm.seat === seat);
      const facts = [];
      if (colour && board && board.facts) {
        for (const [k, v] of Object.entries(board.facts)) {
          if (k.endsWith(`-${colour}`)) facts.push(h('span', { class: 'pfact' }, `${factLabel(k.slice(0, -colour.length - 1))} ${v}`));
        }
      }
      const won = state.result && state.result.winner === seat;
      const clockRuns = !!state.clock && viewPly === null && state.status === 'ongoing' && state.clock.running === seat;
      // The clock's time is written by tickClocks (below), which keeps it running.
      clockEls[seat] = state.clock ? h('span', { class: 'clock', role: 'timer', id: `clock-${seat}`, 'data-seat': seat }) : null;
      mount(elBar,
        colourSwatch(colour, state.game),
        h('div', { class: 'pname' },
          h('strong', {}, state.solitaire ? `${cap(colour || '')} pieces` : playerLabel(seat)),
          h('span', { class: 'pcolour' }, state.solitaire ? 'you remove for both colours' : seatColourName(state, seat),
            won ? h('span', { class: 'winner-tag' }, 'winner') : null)),
        h('div', { class: 'pfacts' }, facts),
        presenceTag(seat),
        // A running clock says whose turn it is itself (the computer's thinking is still told).
        toMove && !(clockRuns && !tm.computer) ? h('span', { class: ['turn-dot', tm.computer && viewPly === null ? 'thinking' : ''] }, tm.computer && viewPly === null ? 'thinking…' : 'to move') : null,
        clockEls[seat]);
      elBar.classList.toggle('active', !!toMove);
      elBar.classList.toggle('has-clock', !!state.clock);
      elBar.dataset.seat = seat;
    }
    tickClocks();
  }

  /** The time `seat` has left now (ms): its time in the state, less what has run since. */
  function timeLeft(seat) {
    const c = state.clock;
    const left = c[`${seat}_ms`];
    if (typeof left !== 'number') return null;
    return c.running === seat && state.status === 'ongoing' ? left - (performance.now() - receivedAt) : left;
  }

  /**
   * Shows both clocks as they stand now and plans the next update: every tenth of a second
   * under a minute of real time, else when the second (or, by the day, the minute) shown changes.
   */
  function tickClocks() {
    clearTimeout(tickTimer);
    if (!state || closed || !state.clock) return;
    const c = state.clock;
    let next = 0;
    for (const seat of ['first', 'second']) {
      const span = clockEls[seat];
      const left = timeLeft(seat);
      if (!span || left === null) continue;
      const running = c.running === seat && state.status === 'ongoing';
      const text = clockText(left, c.kind);
      if (span.textContent !== text) span.textContent = text;
      span.classList.toggle('clock-running', running);
      span.classList.toggle('clock-low', c.kind === 'realtime' && left < 10000 && (running || left <= 0));
      span.classList.toggle('clock-out', left <= 0);
      const colour = state.seats[seat].colour;
      const label = `${colour ? `${cap(colour)}'s clock` : 'Clock'}: ${clockSpoken(left, c.kind)} left${running ? ', running' : ''}`;
      if (span.getAttribute('aria-label') !== label) span.setAttribute('aria-label', label);
      if (!running) continue;
      if (left <= 0) {
        // Out of time: the server flags the game and says so; ask once if no word comes.
        if (flagAsked !== state.version) {
          flagAsked = state.version;
          setTimeout(() => {
            if (!closed && state && state.status === 'ongoing' && state.version === flagAsked) refresh();
          }, 2000);
        }
        continue;
      }
      next = c.kind === 'realtime' && left < 60000 ? 100 : (left % 1000) + 20;
    }
    if (next) tickTimer = setTimeout(tickClocks, next);
  }

  /** A player bar's name: "You", the account's name (to its player page), "Computer · level 3"… */
  function playerLabel(seat) {
    const name = playerName(state, seat, held());
    const acc = state.seats[seat].account;
    if (!acc) return name;
    const link = (text) => h('a', { class: 'pname-acct', href: `/players/${encodeURIComponent(acc)}`, title: `${acc}'s player page` }, text);
    if (name === acc) return link(acc);
    return [name, h('span', { class: 'pname-sep' }, ' · '), link(acc)];
  }

  /** Whether the opponent of an online game has joined and has the game open now. */
  function presenceTag(seat) {
    const online = !state.same_screen && !state.solitaire && state.seats[seat].kind === 'human';
    if (!online || holds(seat) || !mySeats().length || !presence) return null;
    const here = !!presence[seat];
    // Once joined, a seat stays joined: by its invite link, by an account (a lobby game), by
    // having been here or by a move. Someone on another page of the app is away.
    const sv = state.seats[seat];
    const joined = sv.joined || !!sv.account || here || seenHere.has(seat) || state.moves.some((m) => m.seat === seat);
    const text = here ? 'here' : joined ? 'away' : 'not joined yet';
    const title = here ? 'Your opponent has this game open now' : joined ? 'Your opponent does not have this game open now' : 'Your opponent has not opened the invite link yet';
    return h('span', { class: ['presence', here ? 'presence-here' : 'presence-away'], id: `presence-${seat}`, title }, text);
  }

  function renderStatus() {
    let text;
    let cls = 'status';
    if (state.status === 'finished') {
      text = state.result ? resultSentence(state.result.text) : 'The game is over.';
      cls += ' status-over';
    } else if (state.to_move) {
      // Before colours are chosen (a fair set-up) the player is named instead of a colour.
      const colour = state.to_move.colour ? cap(state.to_move.colour) : null;
      const name = playerName(state, state.to_move.seat, held());
      const who = colour || name;
      const mine = holds(state.to_move.seat);
      if (state.solitaire) text = `${who} to ${state.game === 'sight-reduction' ? 'remove' : 'move'}`;
      else if (state.to_move.computer) text = colour ? `${colour} to move — the computer is thinking` : 'The computer is thinking';
      else if (mine && state.same_screen) text = `${who} to move`;
      else if (mine) text = colour ? `${colour} to move — your turn` : 'Your turn';
      else if (mySeats().length) text = colour ? `${colour} to move — waiting for your opponent` : 'Waiting for your opponent';
      else text = `${who} to move`;
      if (mine && !state.to_move.computer) cls += ' status-yours';
    }
    el.status.className = cls;
    el.status.textContent = text || '';
    const last = state.moves[state.moves.length - 1];
    if (last) {
      const col = state.seats[last.seat].colour;
      el.status.append(h('span', { class: 'last-move' }, `Last move: ${last.move}${col && !state.solitaire ? ` (${cap(col)})` : ''}`));
    }

    // Offers.
    const mine = mySeats();
    const parts = [];
    const offer = (what, pendingSeat, kind) => {
      if (!pendingSeat) return;
      if (mine.includes(pendingSeat) && !(state.same_screen)) {
        parts.push(h('div', { class: 'offer' }, `You ${what === 'draw' ? 'offered a draw' : 'asked to take back your last move'}.`,
          h('button', { class: 'btn btn-small', type: 'button', onclick: () => action(kind, 'decline') }, 'Withdraw')));
      } else if (mine.length) {
        parts.push(h('div', { class: 'offer offer-in' }, what === 'draw' ? 'Your opponent offers a draw.' : 'Your opponent asks to take back their last move.',
          h('button', { class: 'btn btn-small btn-primary', type: 'button', onclick: () => action(kind, 'accept') }, 'Accept'),
          h('button', { class: 'btn btn-small', type: 'button', onclick: () => action(kind, 'decline') }, 'Decline')));
      } else {
        const c = state.seats[pendingSeat].colour;
        const who = c ? cap(c) : 'A player';
        parts.push(h('div', { class: 'offer' }, what === 'draw' ? `${who} offers a draw.` : `${who} asks to take back a move.`));
      }
    };
    if (state.status === 'ongoing') {
      offer('draw', state.draw_offer, 'draw');
      offer('undo', state.undo_request, 'undo');
    }
    // An answer to an offer: the one who made it is told.
    const dec = state.declined;
    if (dec && !state.same_screen) {
      const asked = dec.seat === 'first' ? 'second' : 'first';
      const what = dec.offer === 'draw' ? 'draw offer' : 'request to take back a move';
      const text = mine.includes(asked) && !mine.includes(dec.seat) ? `Your opponent declined your ${what}.`
        : `${dec.colour ? cap(dec.colour) : 'A player'} declined the ${what}.`;
      parts.push(h('div', { class: 'offer offer-declined', id: 'offer-declined', role: 'status' }, text));
    }
    mount(el.offers, parts);
  }

  function renderFacts(board) {
    const items = [];
    const facts = (board && board.facts) || {};
    for (const [k, v] of Object.entries(facts)) {
      if (/-(white|black|yellow|red)$/.test(k)) continue;
      let val = v;
      if (k === 'plies' && state.options['max-plies']) val = `${v} of ${state.options['max-plies']}`;
      if (k === 'quiet-plies' && state.options['quiet-plies']) val = `${v} of ${state.options['quiet-plies']}`;
      items.push(h('div', { class: 'fact' }, h('dt', {}, factLabel(k)), h('dd', {}, val)));
    }
    const goal = goalText();
    if (goal) items.push(h('div', { class: 'fact' }, h('dt', {}, 'Goal'), h('dd', {}, goal)));
    el.facts.hidden = !items.length;
    el.facts.className = items.length ? 'facts card' : 'facts';
    mount(el.facts, items);
  }

  function goalText() {
    if (!state.solitaire) return '';
    const o = state.options || {};
    if (o.removal === 'pair') return 'Clear the board';
    if (o.keep) {
      const [w, b] = o.keep.split(',');
      return `Leave one White piece on ${w} and one Black piece on ${b}`;
    }
    return 'Leave exactly one White and one Black piece';
  }

  function renderMoves() {
    const n = state.moves.length;
    const current = viewPly === null ? n : viewPly;
    // One number per move (a move is one player's turn), as in records and the game list.
    mount(el.moves, state.moves.map((m) => {
      const colour = state.solitaire ? null : state.seats[m.seat].colour;
      return h('li', { class: 'mv-item' },
        h('span', { class: 'mv-num' }, `${m.ply}.`),
        h('button', {
          type: 'button', class: ['mv', m.ply === current ? 'mv-current' : ''], 'data-ply': m.ply,
          'aria-label': `Move ${m.ply}${colour ? ` (${cap(colour)})` : ''}: ${m.move}`, 'aria-current': m.ply === current ? 'true' : null,
          onclick: () => viewAt(m.ply === n ? null : m.ply),
        }, colour ? h('span', { class: `mv-dot mv-dot-${colour}`, 'aria-hidden': 'true' }) : null, m.move));
    }));
    if (!n) el.moves.append(h('li', { class: 'mv-none' }, 'No moves yet.'));
    const cur = el.moves.querySelector('.mv-current');
    if (cur && viewPly === null) el.moves.scrollTop = el.moves.scrollHeight;
    else if (cur) cur.scrollIntoView({ block: 'nearest' });
    const navBtn = (icon, title, ply, disabled, id) => h('button', { type: 'button', class: 'btn btn-icon', id, title, 'aria-label': title, disabled, onclick: () => viewAt(ply) }, navIcon(icon));
    mount(el.nav,
      navBtn('first', 'Start position (Home)', 0, current === 0, 'nav-first'),
      navBtn('prev', 'Previous move (←)', current - 1, current === 0, 'nav-prev'),
      navBtn('next', 'Next move (→)', current + 1 >= n ? null : current + 1, current >= n, 'nav-next'),
      navBtn('last', 'Current position (End)', null, current >= n, 'nav-last'));
  }

  function renderActions() {
    const parts = [];
    const pending = builder.pending();
    if (pending) {
      parts.push(h('div', { class: 'pending' }, h('span', {}, pending.text),
        h('button', { type: 'button', class: 'btn btn-primary', disabled: !pending.move, onclick: () => pending.move && builder.play(pending.move) }, pending.confirmLabel || 'Play'),
        h('button', { type: 'button', class: 'btn', onclick: () => builder.reset() }, 'Cancel')));
    }
    if (builder.enabled && builder.buttons.length) {
      parts.push(h('div', { class: 'move-buttons' }, builder.buttons.map((b) =>
        h('button', { type: 'button', class: 'btn btn-move', 'data-move': b.move, title: b.move, onclick: () => builder.play(b.move) }, b.label))));
    }
    mount(el.actions, parts);
  }

  function renderControls() {
    const mine = mySeats();
    const ongoing = state.status === 'ongoing';
    const vsComputer = state.seats.first.kind === 'computer' || state.seats.second.kind === 'computer';
    const immediateUndo = state.same_screen || state.solitaire || vsComputer;
    const btn = (label, attrs) => h('button', { type: 'button', class: 'btn', ...attrs }, label);
    const list = [];
    if (mine.length && ongoing) {
      const mineMoved = state.moves.some((m) => mine.includes(m.seat));
      list.push(btn(immediateUndo ? 'Undo' : 'Ask to undo', {
        id: 'btn-undo', disabled: !mineMoved || busy, title: immediateUndo ? 'Take back the last move' : 'Ask your opponent to let you take back your last move',
        onclick: () => action('undo', 'request'),
      }));
      // Only where the rules know draws (Sight Reduction always has a winner).
      if (!state.solitaire && !vsComputer && info && info.draws_possible) {
        list.push(btn(state.same_screen ? 'Agree a draw' : 'Offer a draw', {
          id: 'btn-draw', disabled: state.draw_offer && mine.includes(state.draw_offer) && !state.same_screen,
          onclick: () => {
            const act = state.draw_offer && !mine.includes(state.draw_offer) ? 'accept' : 'offer';
            if (state.same_screen) confirmBox('End the game as a draw?', 'Agree a draw', () => action('draw', act), false);
            else action('draw', act);
          },
        }));
      }
      if (!state.solitaire) {
        list.push(btn('Resign', {
          id: 'btn-resign', class: 'btn btn-danger',
          onclick: () => confirmBox(state.same_screen ? `Resign for ${seatColourName(state, actingSeat()) || 'the side to move'}?` : 'Resign this game?', 'Resign', () => action('resign')),
        }));
      }
    }
    // Hints from the computer: on one screen, in puzzles and against the computer (not in
    // games between two people online).
    if (hintAvailable && mine.length && ongoing && canMove() && (immediateUndo)) {
      list.push(btn(hintBusy ? 'Thinking…' : 'Hint', { id: 'btn-hint', disabled: hintBusy, title: 'Ask the computer for a move', onclick: showHint }));
    }
    list.push(legend.button(state.game));
    list.push(btn('Flip board', { id: 'btn-flip', title: 'Turn the board around (F)', onclick: () => { flipped = !isFlipped(); builder.setState(state, canMove(), { flipped: isFlipped() }); render(); } }));
    if (state.game === 'assideum') {
      list.push(btn(showZones ? 'Hide flight zones' : 'Show flight zones', { id: 'btn-zones', 'aria-pressed': String(showZones), onclick: () => { showZones = !showZones; render(); } }));
    }
    const base = `boardlab-${state.game}-${state.id}`;
    list.push(h('div', { class: 'dl' }, h('span', {}, 'Record:'),
      h('a', { class: 'btn btn-small', href: api.recordUrl(state.id, 'pgn'), download: `${base}.pgn`, id: 'dl-pgn' }, 'PGN'),
      h('a', { class: 'btn btn-small', href: api.recordUrl(state.id, 'json'), download: `${base}.json`, id: 'dl-json' }, 'JSON')));
    list.push(h('div', { class: 'more-links' },
      state.moves.length && !ongoing ? h('a', { href: `/games/${state.id}/review`, id: 'link-review' }, 'Review') : null,
      h('a', { href: analysisLink(), id: 'link-analyse', title: 'Try moves from the position shown, with the computer’s evaluation' }, 'Analyse'),
      h('a', { href: `/games/${state.id}/replay` }, 'Replay'),
      h('a', { href: newGameLink() }, 'New game like this')));
    mount(el.controls, list);
  }

  /** The analysis board on the position shown (an earlier one while it is viewed). */
  function analysisLink() {
    const shown = viewPly !== null && viewed ? viewed.position : state.position;
    const q = new URLSearchParams({ game: state.game, position: shown });
    const opts = Object.entries(state.options || {}).map(([k, v]) => `${k}=${v}`).join(',');
    if (opts) q.set('options', opts);
    return `/analysis?${q}`;
  }

  function newGameLink() {
    const q = new URLSearchParams({ game: state.game });
    for (const [k, v] of Object.entries(state.options || {})) q.set(`o.${k}`, v);
    const comp = ['first', 'second'].find((s2) => state.seats[s2].kind === 'computer');
    if (state.solitaire || state.same_screen) q.set('mode', 'same');
    else if (comp) {
      q.set('mode', 'computer');
      const lvl = /level:(\d+)/.exec(state.seats[comp].player);
      if (lvl) q.set('level', lvl[1]);
      q.set('seat', comp === 'first' ? 'second' : 'first');
    } else q.set('mode', 'online');
    if (state.clock && !state.same_screen) q.set('clock', state.clock.control);
    return `/?${q}`;
  }

  function renderShare() {
    const invite = tokens.invite;
    const items = [];
    if (invite && state.seats[invite.seat] && state.seats[invite.seat].joined) {
      items.push(h('div', { class: 'share-row joined', id: 'opponent-joined' }, 'Your opponent has joined with the invite link.'));
    }
    renderInvite(invite);
    const watch = `${location.origin}/games/${state.id}`;
    items.push(h('div', { class: 'share-row' },
      h('label', { for: 'watch-link' }, 'Link for spectators'),
      h('div', { class: 'copy-row' },
        h('input', { id: 'watch-link', readonly: true, value: watch, onfocus: (ev) => ev.target.select() }),
        h('button', { type: 'button', class: 'btn', onclick: async () => toast(await copyText(watch) ? 'Link copied' : 'Copy the link by hand', 'ok') }, 'Copy'))));
    el.share.className = 'card share';
    mount(el.share, items);
  }

  /**
   * The invite link, above the board until the friend has opened it: the first thing the player
   * sees, at any size, so that it is sent before the first move.
   */
  function renderInvite(invite) {
    const waiting = invite && state.status === 'ongoing' && state.seats[invite.seat] && !state.seats[invite.seat].joined;
    el.invite.hidden = !waiting;
    if (!waiting) {
      el.invite.replaceChildren();
      return;
    }
    const link = `${location.origin}/games/${state.id}#join=${invite.seat}.${invite.token}`;
    const colour = state.seats[invite.seat].colour;
    const input = el.invite.querySelector('#invite-link');
    if (input && input.value === link) return; // drawn already: keep a selection in it
    mount(el.invite, h('div', { class: 'invite-box', id: 'invite-box', role: 'region', 'aria-label': 'Invite your opponent' },
      h('label', { for: 'invite-link', class: 'invite-head' }, 'Send this link to your opponent',
        h('span', { class: 'invite-sub' }, colour ? ` — they play ${cap(colour)}` : ' — it gives them the other seat')),
      h('div', { class: 'copy-row' },
        h('input', { id: 'invite-link', readonly: true, value: link, onfocus: (ev) => ev.target.select() }),
        h('button', { type: 'button', class: 'btn btn-primary', id: 'copy-invite', onclick: async () => toast(await copyText(link) ? 'Invite link copied' : 'Copy the link by hand', 'ok') }, 'Copy link'))));
  }

  function renderBanner() {
    el.banner.replaceChildren();
    if (state.status !== 'finished' || viewPly !== null || bannerClosed || !state.result) return;
    const r = state.result;
    const mine = mySeats();
    let headline = 'Game over';
    if (state.solitaire) headline = r.tag === 'solved' ? 'Solved!' : 'Puzzle over';
    else if (r.termination === 'aborted') headline = 'Aborted';
    else if (r.draw) headline = 'Draw';
    else if (r.winner && mine.length === 1) headline = mine[0] === r.winner ? 'You win!' : 'You lose';
    else if (r.winner) headline = `${cap(r.colour || `${r.winner} seat`)} wins`;
    // Beside the board, not over it: the final position stays in view.
    el.banner.append(h('div', { class: ['result-banner', r.draw ? 'draw' : ''], role: 'dialog', 'aria-label': 'Result' },
      h('button', { class: 'banner-x', type: 'button', 'aria-label': 'Close', onclick: () => { bannerClosed = true; render(); } }, '×'),
      h('div', { class: 'banner-words' },
        h('div', { class: 'banner-head' }, headline),
        h('div', { class: 'banner-text' }, resultSentence(r.text))),
      rematchRow(mine),
      h('div', { class: 'banner-btns' },
        mine.length && !state.solitaire ? null : h('a', { class: 'btn btn-primary', href: newGameLink() }, 'Play again'),
        mine.length && !state.solitaire ? h('a', { class: 'btn', href: newGameLink() }, 'New game') : null,
        state.moves.length ? h('a', { class: 'btn', href: `/games/${state.id}/review` }, 'Review') : null,
        h('a', { class: 'btn', href: `/games/${state.id}/replay` }, 'Replay'))));
  }

  /** The rematch: offer one (colours swapped), answer one, or go to the one agreed. */
  function rematchRow(mine) {
    if (!mine.length || state.solitaire) return null;
    const offer = state.rematch_offer;
    const row = (...parts) => h('div', { class: 'rematch-row', id: 'rematch' }, ...parts);
    if (state.rematch) return row(h('button', { type: 'button', class: 'btn btn-primary', id: 'btn-rematch-go', onclick: () => followRematch() }, 'Go to the rematch'));
    const rated = state.rematch_rated ? 'a rated rematch' : 'a rematch';
    if (offer && !mine.includes(offer)) {
      return row(h('span', {}, `Your opponent offers ${rated}, colours swapped.`),
        h('button', { type: 'button', class: 'btn btn-primary', id: 'btn-rematch-accept', onclick: () => action('rematch', 'accept') }, 'Accept'),
        h('button', { type: 'button', class: 'btn', onclick: () => action('rematch', 'decline') }, 'Decline'));
    }
    if (offer) {
      return row(h('span', {}, `${state.rematch_rated ? 'Rated rematch' : 'Rematch'} offered: waiting for your opponent.`),
        h('button', { type: 'button', class: 'btn', onclick: () => action('rematch', 'decline') }, 'Withdraw'));
    }
    const plain = h('button', { type: 'button', class: 'btn btn-primary', id: 'btn-rematch', title: 'The same game again with the colours swapped', onclick: () => action('rematch', 'offer') }, 'Rematch');
    // Between two signed-in players a rematch may count for the ratings: their choice, shown.
    const accounts = state.seats.first.account && state.seats.second.account;
    if (!accounts) return row(plain);
    return row(plain, h('button', { type: 'button', class: 'btn', id: 'btn-rematch-rated', title: 'The same game again with the colours swapped, counting for both ratings', onclick: () => action('rematch', 'offer', { rated: true }) }, 'Rated rematch'));
  }

  /** Keeps this browser's seats in the rematch (the seats swap) and opens it. */
  function followRematch() {
    if (!state.rematch) return;
    // A seat played by the account alone needs nothing here: the server keeps the accounts.
    for (const seat of mySeats()) if (tokens[seat]) seats.add(state.rematch, seat === 'first' ? 'second' : 'first', tokens[seat]);
    go(`/games/${state.rematch}`);
  }

  function confirmBox(question, yes, then, danger = true) {
    const dlg = h('div', { class: 'modal-back' },
      h('div', { class: 'modal', role: 'alertdialog', 'aria-label': question },
        h('p', {}, question),
        h('div', { class: 'modal-btns' },
          h('button', { type: 'button', class: danger ? 'btn btn-danger' : 'btn btn-primary', id: 'confirm-yes', onclick: () => { dlg.remove(); then(); } }, yes),
          h('button', { type: 'button', class: 'btn', onclick: () => dlg.remove() }, 'Cancel'))));
    dlg.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') dlg.remove(); });
    document.body.append(dlg);
    dlg.querySelector('#confirm-yes').focus();
  }

  async function showHint() {
    const version = state.version;
    hintBusy = true;
    render();
    try {
      const hint = await api.hint(id);
      if (state.version !== version) return;
      const what = hint.text ? ` — ${hint.text}` : '';
      setFeedback(`Hint: ${hint.move}${what}`, 'advice');
      const cells = builder.cellsOf(hint.move);
      hintShown = { version, cells: new Set(cells), move: hint.move };
    } catch (e) {
      if (e.status === 404) hintAvailable = false;
      setFeedback(e.status === 404 ? 'Hints are not available on this server.' : e.message, 'error');
    } finally {
      hintBusy = false;
      render();
    }
  }

  // ---- keyboard shortcuts outside the board ----
  const onKey = (ev) => {
    if (ev.target.closest('input, textarea, select, .board, .chooser, .modal')) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (!state) return;
    const n = state.moves.length;
    const cur = viewPly === null ? n : viewPly;
    if (ev.key === 'ArrowLeft') viewAt(cur - 1);
    else if (ev.key === 'ArrowRight') viewAt(cur + 1 >= n ? null : cur + 1);
    else if (ev.key === 'Home') viewAt(0);
    else if (ev.key === 'End') viewAt(null);
    else if (ev.key === 'f' || ev.key === 'F') {
      flipped = !isFlipped();
      render();
    } else if (ev.key === 'Escape') builder.reset();
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  // ---- start ----
  let first;
  try {
    first = await api.game(id);
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' },
      h('h1', {}, e.status === 404 ? 'No such game' : 'Cannot load the game'),
      h('p', { class: 'error-text' }, e.message),
      h('p', {}, h('a', { href: '/' }, 'Start a new game'))));
    document.removeEventListener('keydown', onKey);
    return null;
  }
  info = await gameInfo(first.game).catch(() => null);
  hintAvailable = await hasRoute('/api/games/{id}/hint');
  styles = stylesFor(first.game);
  builder = new MoveBuilder(hooks());
  document.title = `${first.title} · boardlab`;
  if (joined) {
    toast(joined.text, joined.kind);
    if (joined.kind === 'error') setFeedback(joined.text, 'error');
  }
  apply(first);
  if (info) el.typedInput.title = `Move notation: ${info.move_examples}`;
  const live = new LiveGame(id, (st) => apply(st), (status) => {
    connection = status;
    render();
  }, {
    tokens: () => [tokens.first, tokens.second],
    onPresence: (p) => {
      presence = p;
      for (const seat of ['first', 'second']) if (p[seat]) seenHere.add(seat);
      saveSeen();
      render();
    },
  });

  // Signed in or out meanwhile: the seats of the account are the player's, or no longer.
  const stopAccount = onAccount(() => {
    if (!state || closed) return;
    builder.setState(state, canMove(), { flipped: isFlipped() });
    render();
  });

  return () => {
    closed = true;
    clearTimeout(tickTimer);
    stopAccount();
    live.close();
    document.removeEventListener('keydown', onKey);
    closeChooser();
  };
}


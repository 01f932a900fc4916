// A board to practise on, for the tutorial and puzzle pages: a position from
// `POST /api/positions`, drawn by BoardView and played by clicks through MoveBuilder, with a
// line saying whose turn it is, a line of feedback and the buttons of moves made by a button.
// The page decides what a move means (a tutorial compares it with the lesson's goal, a puzzle
// asks the judge) and what to say; the browser holds no rules.

import { h, mount, cap } from './util.js';
import { BoardView } from './board.js';
import { MoveBuilder } from './interact.js';
import { openChooser, closeChooser } from './chooser.js';
import { stylesFor } from './games/index.js';
import { resultSentence } from './pages/shared.js';

/**
 * What a page gives a practice board: the game, what a move means, and (each optional) its own
 * words for a refused click, for the turn line and for why moving is not possible now, and a
 * call after each drawing.
 * @typedef {object} PracticeOptions
 * @property {string} game
 * @property {(move: string) => unknown} play
 * @property {(cell: string, message: string) => string | null | undefined} [refuse]
 * @property {(view: any) => string} [turn]
 * @property {() => string} [why]
 * @property {() => void} [rendered]
 */

export class Practice {
  /**
   * @param {PracticeOptions} o {game, play(move), refuse(cell, message) -> words or null (optional),
   *   turn(view) -> words for the turn line (optional), why() -> why moving is not possible now}
   */
  constructor(o) {
    this.o = o;
    this.game = o.game;
    this.styles = stylesFor(o.game);
    this.view = null;
    this.version = 0;
    this.enabled = false;
    this.message = { text: '', kind: '' };
    this.flash = null;
    this.marked = null;
    this.startMarks = true;
    this.el = {
      status: h('div', { class: 'practice-status', role: 'status', 'aria-live': 'polite' }),
      wrap: h('div', { class: 'board-wrap practice-wrap' }),
      feedback: h('div', { class: 'feedback practice-feedback', 'aria-live': 'polite' }),
      actions: h('div', { class: 'move-actions' }),
    };
    this.boardView = new BoardView(this.el.wrap, {
      onCell: (cell, ev, layer) => {
        this.builder.pointerClick = !(ev instanceof KeyboardEvent);
        if (this.message.kind === 'error') this.say('');
        this.builder.click(cell, layer, ev);
      },
      onCursor: (c) => {
        const desc = (c.pieces || []).map((p) => `${p.colour} ${p.kind}`).join(', ');
        this.say(`${c.name}${desc ? `: ${desc}` : ''}`);
        this.renderText();
      },
      zoom: true,
    });
    this.builder = new MoveBuilder({
      play: (move) => o.play(move),
      changed: () => this.render(),
      refuse: (cell, message) => this.refuse(cell, message),
      choose: (options, cell, title) => this.choose(options, cell, title),
      why: () => (o.why ? o.why() : 'Wait a moment.'),
    });
    this.onKey = (ev) => {
      if (ev.key === 'Escape' && !ev.target.closest('input, textarea, select, .chooser')) this.builder.reset();
    };
    document.addEventListener('keydown', this.onKey);
  }

  /** The parts to place on the page: status line, board (and its zoom), feedback, move buttons. */
  parts() {
    return [this.el.status, this.el.wrap, this.boardView.zoomButton, this.el.feedback, this.el.actions];
  }

  /**
   * Shows `view` (an answer of POST /api/positions); clicks make moves when `enabled`. With
   * `startMarks: false` the board does not mark where moves start (where finding them is the task).
   */
  show(view, enabled, { startMarks = true } = {}) {
    closeChooser();
    this.view = view;
    this.version += 1;
    this.enabled = enabled;
    this.startMarks = startMarks;
    this.marked = null;
    this.builder.setState({ ...view, id: 'practice', version: this.version }, enabled);
    this.render();
  }

  /** Turns clicks on or off without changing the position. */
  enable(enabled) {
    this.enabled = enabled;
    this.builder.setState({ ...this.view, id: 'practice', version: this.version }, enabled);
    this.render();
  }

  /** Sets the feedback line: `kind` is '', 'ok', 'error', 'advice' or 'pending'. */
  say(text, kind = '') {
    this.message = { text: text || '', kind };
    this.renderText();
  }

  /** Marks the cells of the legal move `move` (a hint). */
  mark(move) {
    const cells = this.builder.cellsOf(move);
    this.marked = cells.length ? new Set(cells) : null;
    this.render();
  }

  /**
   * A click the game refuses: the page's words for it where it has some, else the game's. The
   * selection stays as the game left it, as on a game page (a click beside a selected piece's
   * targets keeps the piece selected).
   */
  refuse(cell, message) {
    const words = (this.o.refuse && this.o.refuse(cell, message)) || message;
    this.complain(words, cell);
  }

  /** Refuses a move with `words`: the board shakes and the selection is dropped. */
  reject(words, cell = null) {
    this.builder.reset(false);
    this.complain(words, cell);
  }

  /** Says `words` as an error: the board shakes and `cell` flashes. */
  complain(words, cell) {
    this.say(words, 'error');
    this.flash = cell;
    this.render();
    this.el.wrap.classList.remove('shake');
    void this.el.wrap.offsetWidth;
    this.el.wrap.classList.add('shake');
    if (cell) {
      setTimeout(() => {
        if (this.flash === cell) {
          this.flash = null;
          this.render();
        }
      }, 700);
    }
  }

  choose(options, cell, title) {
    return openChooser(this.el.wrap, this.boardView.svg, options, cell, title);
  }

  /** Width / height of the drawn board. */
  aspect() {
    return this.boardView.aspect();
  }

  turnWords() {
    const v = this.view;
    if (!v) return '';
    if (this.o.turn) return this.o.turn(v);
    if (v.result) return resultSentence(v.result.text);
    const colour = v.to_move && v.to_move.colour;
    return colour ? `${cap(colour)} to move` : '';
  }

  renderText() {
    const m = this.message;
    // The game's prompt speaks of marked cells: none are marked where finding them is the task.
    const quiet = !this.startMarks && !this.builder.sel.length && !this.builder.extra;
    const text = m.text || (this.enabled && !quiet ? this.builder.hint() : '');
    this.el.feedback.textContent = text;
    this.el.feedback.className = `feedback practice-feedback ${m.text && m.kind ? `feedback-${m.kind}` : 'feedback-hint'}`;
  }

  render() {
    const v = this.view;
    if (!v) return;
    const hl = this.builder.highlights();
    this.boardView.render(v.board, {
      game: this.game,
      targets: hl.targets,
      selected: hl.selected,
      clickable: this.enabled ? hl.clickable : new Set(),
      order: hl.order,
      last: new Set(v.last_cells || []),
      flash: this.flash,
      cursor: this.boardView.view.cursor,
      zones: this.builder.zones(),
      ghosts: this.styles.ghosts ? this.styles.ghosts(this.builder) : null,
      hint: this.marked,
      showAvailable: this.startMarks && !this.builder.sel.length && !this.builder.extra,
      drag: this.styles.drag === false ? null : this.builder.grabbable(),
    });
    this.boardView.svg.classList.toggle('can-move', this.enabled);
    this.el.status.textContent = this.turnWords();
    this.el.status.classList.toggle('status-over', !!v.result);
    this.renderText();
    const parts = [];
    const pending = this.builder.pending();
    if (pending) {
      parts.push(h('div', { class: 'pending' }, h('span', {}, pending.text),
        h('button', { type: 'button', class: 'btn btn-primary', disabled: !pending.move, onclick: () => pending.move && this.builder.play(pending.move) }, pending.confirmLabel || 'Play'),
        h('button', { type: 'button', class: 'btn', onclick: () => this.builder.reset() }, 'Cancel')));
    }
    if (this.enabled && this.builder.buttons.length) {
      parts.push(h('div', { class: 'move-buttons' }, this.builder.buttons.map((b) =>
        h('button', { type: 'button', class: 'btn btn-move', 'data-move': b.move, title: b.move, onclick: () => this.builder.play(b.move) }, b.label))));
    }
    mount(this.el.actions, parts);
    if (this.o.rendered) this.o.rendered();
  }

  close() {
    document.removeEventListener('keydown', this.onKey);
    closeChooser();
  }
}

/**
 * Sizes the board of `practice` so that it and `below` (elements under it that must stay in
 * view) fit in the window: the board's width follows the height left, within its column.
 */
export function fitBoard(practice, below) {
  const wrap = practice.el.wrap;
  const col = wrap.parentElement;
  if (!col || !wrap.isConnected) return;
  const top = wrap.getBoundingClientRect().top + window.scrollY;
  let under = 0;
  for (const e of [practice.boardView.zoomButton, ...below]) if (e && e.offsetParent !== null) under += e.getBoundingClientRect().height + 8;
  const height = Math.max(170, window.innerHeight - top - under - 12);
  const width = Math.min(col.clientWidth, height * practice.aspect(), 760);
  wrap.style.width = `${Math.floor(width)}px`;
}

// Builds a move from clicks. The server sends, with every position, the game's own description
// of how each legal move is entered (`state.interaction`, made by the game crate): the cells to
// click in order, a label, a chooser group and the kind of target. A click extends the current
// path prefix; the cells that can come next are the highlighted targets; when the clicks spell
// out exactly one move it is played, and when several moves share the clicks (a step with or
// without a spin, carry or leave) a chooser offers them. Moves chosen as a set of cells (Obsidio's
// claims) are selected one cell at a time and confirmed. The browser holds no rules and reads no
// notation: a click that no legal move starts with is refused with the game's own words. A piece
// dragged to a target is the same two clicks: the press picks it up (`click(cell, layer, {grab})`)
// and the release on a target clicks there.

import { fingerSized, clickWord, touchScreen, withEsc } from './util.js';

/**
 * @typedef {object} Entry
 * @property {string} move the legal move's notation
 * @property {string[][]} paths click paths (tokens: `cell`, or `layer:cell` for a layer of a cell)
 * @property {string} label button label in a chooser
 * @property {string} [group] chooser row
 * @property {string} [kind] target style of the last cell: move, capture, special
 * @property {string[]} [claim] cells chosen as a set (the last one chosen last)
 */

/**
 * What the builder asks of the page that uses it. `choose` offers options by `cell` under
 * `title` and resolves with the chosen one (null: cancelled); `why` (optional) says why moving
 * is not possible now.
 * @typedef {object} Hooks
 * @property {(move: string) => unknown} play
 * @property {() => unknown} changed
 * @property {(options: import('./chooser.js').ChooserOption[], cell: string, title: string) => Promise<{value: string} | null | undefined>} choose
 * @property {(cell: string, message: string) => unknown} refuse
 * @property {() => string} [why]
 */

/** @type {Record<string, string>} */
const ARROW = { n: '↑', e: '→', s: '↓', w: '←' };
/** @type {Record<string, string>} */
const OPPOSITE = { n: 's', s: 'n', e: 'w', w: 'e' };

/**
 * The token of a click: its cell, prefixed by its layer where it names one.
 * @param {{cell: string, layer?: string | null}} click
 * @returns {string}
 */
export function tokenOf(click) {
  return click.layer ? `${click.layer}:${click.cell}` : click.cell;
}

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

/** @type {(text: string, values: Record<string, string>) => string} */
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));

export class MoveBuilder {
  /**
   * @param {Hooks} hooks play(move), changed(), choose(options, cell, title), refuse(cell, message), why()
   */
  constructor(hooks) {
    this.hooks = hooks;
    /** @type {Entry[]} */
    this.entries = [];
    /** @type {{move: string, label: string}[]} */
    this.buttons = [];
    /** @type {string[]} */
    this.sel = [];
    /** @type {string[] | null} */
    this.extra = null; // cells chosen for a set move (Obsidio claims)
    /** @type {any} */
    this.state = null;
    /** @type {any} */
    this.ui = null;
    this.enabled = false;
    // Set by the page before each click: whether it came from a pointer (not the keyboard).
    /** @type {boolean | undefined} */
    this.pointerClick = undefined;
  }

  /**
   * A new position (or the same one after a refused move): rebuilds the entries.
   * @param {any} state
   * @param {boolean} enabled
   * @param {{flipped?: boolean}} [ctx]
   */
  setState(state, enabled, ctx = {}) {
    const same = this.state && state && this.state.version === state.version && this.state.id === state.id;
    this.state = state;
    this.enabled = enabled;
    this.ctx = ctx;
    this.ui = (enabled && state && state.interaction) || { prompt: '', moves: [] };
    this.entries = [];
    this.buttons = [];
    for (const m of this.ui.moves || []) {
      const label = m.facing ? `${m.label} ${ARROW[ctx.flipped ? OPPOSITE[m.facing] : m.facing]}` : m.label;
      const paths = (m.paths || []).map((p) => p.map(tokenOf));
      if (paths.length || m.set) this.entries.push({ move: m.move, paths, label, group: m.group, kind: m.kind, claim: m.set });
      else this.buttons.push({ move: m.move, label });
    }
    if (!same) this.reset(false);
  }

  reset(notify = true) {
    this.sel = [];
    this.extra = null;
    if (notify) this.hooks.changed();
  }

  cellOf(token) {
    const i = token.indexOf(':');
    return i < 0 ? token : token.slice(i + 1);
  }

  layerOf(token) {
    const i = token.indexOf(':');
    return i < 0 ? null : token.slice(0, i);
  }

  /** The game's words for what a first click `token` selects. */
  selection(token) {
    return (this.ui.selections || []).find((x) => tokenOf(x.click) === token);
  }

  startsWith(path, prefix) {
    if (path.length < prefix.length) return false;
    for (let i = 0; i < prefix.length; i += 1) if (path[i] !== prefix[i]) return false;
    return true;
  }

  /**
   * Entries with a path starting with `prefix`, as [entry, path] pairs.
   * @param {string[]} prefix
   * @returns {[Entry, string[]][]}
   */
  matching(prefix) {
    /** @type {[Entry, string[]][]} */
    const out = [];
    for (const e of this.entries) {
      for (const p of e.paths) if (this.startsWith(p, prefix)) out.push([e, p]);
    }
    return out;
  }

  /** The next tokens after the current prefix, with the kind of target each is. */
  nextTokens(prefix = this.sel) {
    /** @type {Map<string, string>} */
    const next = new Map();
    for (const [e, p] of this.matching(prefix)) {
      if (p.length > prefix.length) {
        const t = p[prefix.length];
        const last = p.length === prefix.length + 1;
        const kind = last ? e.kind || 'move' : 'move';
        const prev = next.get(t);
        if (!prev || prev === 'move') next.set(t, kind);
      }
    }
    return next;
  }

  /** Completed entries at `prefix` (distinct moves). */
  completed(prefix = this.sel) {
    const seen = new Set();
    /** @type {Entry[]} */
    const out = [];
    for (const [e, p] of this.matching(prefix)) {
      if (p.length === prefix.length && !seen.has(e.move)) {
        seen.add(e.move);
        out.push(e);
      }
    }
    return out;
  }

  /**
   * The set moves (claims).
   * @returns {(Entry & {claim: string[]})[]}
   */
  sets() {
    return /** @type {(Entry & {claim: string[]})[]} */ (this.entries.filter((e) => e.claim));
  }

  /** What the board should highlight: targets, selected cells, cells that start a move. */
  highlights() {
    /** @type {Map<string, string>} */
    const targets = new Map();
    /** @type {Set<string>} */
    const selected = new Set();
    /** @type {Set<string>} */
    const clickable = new Set();
    /** @type {Map<string, number>} */
    const order = new Map();
    if (!this.enabled) return { targets, selected, clickable, order };
    const sets = this.sets();
    for (const e of sets) for (const t of e.claim) clickable.add(t);
    if (this.extra) {
      this.extra.forEach((t, i) => {
        selected.add(t);
        order.set(t, i + 1);
      });
      for (const e of sets) {
        if (this.extra.every((t) => e.claim.includes(t))) {
          for (const t of e.claim) if (!selected.has(t)) targets.set(t, 'special');
        }
      }
      return { targets, selected, clickable, order };
    }
    for (const t of this.sel) selected.add(this.cellOf(t));
    if (this.sel.length) {
      for (const [t, kind] of this.nextTokens()) {
        const c = this.cellOf(t);
        if (!targets.has(c) || targets.get(c) === 'move') targets.set(c, kind);
      }
      if (this.completed().length) targets.set(this.cellOf(this.sel[this.sel.length - 1]), 'confirm');
    }
    for (const t of this.nextTokens([]).keys()) clickable.add(this.cellOf(t));
    return { targets, selected, clickable, order };
  }

  /** The flight zones to show for the current selection (assideum), for the board view. */
  zones() {
    const z = this.enabled && this.sel.length ? (this.selection(this.sel[0]) || {}).zones : null;
    if (!z) return null;
    return z.portal ? { colour: z.colour, portal: z.portal } : z.colour;
  }

  /** A line describing the selection, and what can be done next. */
  hint() {
    if (!this.enabled) return '';
    if (this.extra) {
      const w = this.ui.set_words;
      const cells = this.extra.join(', ');
      const last = this.extra[this.extra.length - 1];
      return w ? fill(this.extra.length === 1 ? w.one : w.many, { cells, last }) : cells;
    }
    if (!this.sel.length) return this.ui.prompt || '';
    const done = this.completed();
    const cells = this.sel.map((t) => this.cellOf(t));
    const more = this.nextTokens().size > 0;
    if (this.sel.length > 1 && done.length === 1 && more) {
      return withEsc(`${done[0].label}: ${clickWord()} ${cells[cells.length - 1]} again, or ${clickWord()} a highlighted target to go on.`);
    }
    const chosen = this.selection(this.sel[0]);
    if (this.sel.length === 1 && chosen) return withEsc(chosen.text);
    return withEsc(`${cells.join(' → ')}: choose a highlighted target.`);
  }

  /** The game's words for a click on `cell` that starts no move. */
  refusal(cell) {
    for (const r of this.ui.refusals || []) {
      if (!r.cells || !r.cells.length || r.cells.includes(cell)) return fill(r.text, { cell });
    }
    return `No legal move starts at ${cell}.`;
  }

  /** A click on a cell of a set move: adds or drops it. Returns whether it was one. */
  clickSet(cell) {
    const sets = this.sets();
    if (!sets.some((e) => e.claim.includes(cell))) return false;
    if (this.sel.length) this.sel = [];
    const sel = this.extra || [];
    const i = sel.indexOf(cell);
    if (i >= 0) sel.splice(i, 1);
    else {
      // Only cells that some set move holds together with the current selection.
      if (!sets.some((e) => sel.every((t) => e.claim.includes(t)) && e.claim.includes(cell))) sel.length = 0;
      sel.push(cell);
    }
    this.extra = sel.length ? sel : null;
    return true;
  }

  /**
   * A click on `cell` (null: cancel); `layer` names the layer clicked (a Fighter's icon). With
   * `how.grab` the click is a press that picks a piece up to drag it: it starts a new selection
   * (whatever was selected before) and, off a layer's icon, means the piece beneath.
   * @param {string | null} cell
   * @param {string | null} [layer]
   * @param {any} [how] the pointer event, or `{grab: true}`
   */
  async click(cell, layer = null, how = null) {
    this.layer = layer;
    this.grab = !!(how && how.grab);
    if (!this.enabled) {
      if (cell) {
        const why = this.hooks.why ? this.hooks.why()
          : this.state && this.state.status === 'finished' ? 'The game is over.' : 'It is not your turn.';
        this.hooks.refuse(cell, why);
      }
      return;
    }
    if (cell === null) {
      this.reset();
      return;
    }
    if (this.grab) {
      this.sel = [];
      this.extra = null;
    }
    if (this.clickSet(cell)) {
      this.hooks.changed();
      return;
    }
    // A click elsewhere drops the chosen set.
    this.extra = null;
    const step = await this.extend(this.sel, cell);
    if (step === 'cancel') return;
    if (step) return;
    // Not a continuation: maybe a new start.
    if (this.sel.length) {
      const kept = this.sel;
      const otherLayer = this.layer && this.layerOf(this.sel[0]) !== this.layer;
      const wasOnly = this.sel.length === 1 && this.cellOf(this.sel[0]) === cell && !otherLayer;
      this.sel = [];
      // Clicking the selected piece again deselects it; so does a click that would play a
      // one-click move at once (a stray click after a selection must not play).
      if (wasOnly || this.playsAtOnce(cell)) {
        this.hooks.changed();
        return;
      }
      const again = await this.extend([], cell);
      if (again) return;
      // Neither a next step nor a new start: the selection stays, and the player is told.
      this.sel = kept;
      const undo = kept.length === 1 ? `${clickWord()} ${this.cellOf(kept[0])} again to let go`
        : touchScreen() ? `${clickWord()} a new starting point` : 'press Esc to start again';
      this.hooks.refuse(cell, `That cannot go to ${cell}: ${clickWord()} one of the marked cells, or ${undo}.`);
      return;
    }
    this.hooks.refuse(cell, this.refusal(cell));
  }

  /**
   * What can be picked up and dragged now: the first clicks (`cell`, or `layer:cell`) of moves
   * whose next click is on another cell, and the cells they are on.
   */
  grabbable() {
    /** @type {Set<string>} */
    const out = new Set();
    if (!this.enabled || this.extra) return out;
    for (const e of this.entries) {
      for (const p of e.paths) {
        if (p.length < 2 || this.cellOf(p[1]) === this.cellOf(p[0])) continue;
        out.add(p[0]);
        out.add(this.cellOf(p[0]));
      }
    }
    return out;
  }

  /** Whether a first click on `cell` would play a move straight away. */
  playsAtOnce(cell) {
    const starts = [...this.nextTokens([]).keys()].filter((t) => this.cellOf(t) === cell);
    return starts.length > 0 && starts.every((t) => this.completed([t]).length > 0 && this.nextTokens([t]).size === 0);
  }

  /**
   * Tries to extend `prefix` by a click on `cell`; plays or opens the chooser when complete.
   * @param {string[]} prefix
   * @param {string} cell
   * @returns {Promise<boolean | 'cancel'>}
   */
  async extend(prefix, cell) {
    const next = this.nextTokens(prefix);
    const done = this.completed(prefix);
    const lastCell = prefix.length ? this.cellOf(prefix[prefix.length - 1]) : null;
    // Clicking the last selected cell again confirms a move that ends there.
    if (done.length && cell === lastCell && ![...next.keys()].some((t) => this.cellOf(t) === cell)) {
      this.sel = prefix;
      await this.finish(done, cell);
      return true;
    }
    let tokens = [...next.keys()].filter((t) => this.cellOf(t) === cell);
    if (!tokens.length) return false;
    const layered = tokens.some((t) => this.layerOf(t));
    if (this.layer && layered) {
      const onLayer = tokens.filter((t) => this.layerOf(t) === this.layer);
      if (onLayer.length) tokens = onLayer;
      else if (prefix.length && this.cellOf(prefix[0]) === cell && this.layerOf(prefix[0]) !== this.layer) return false;
    }
    if (tokens.length > 1 && this.layer === null && layered && prefix.length === 0 && this.pointerClick && (this.grab || !fingerSized())) {
      // A click beside a layer's icon means the piece beneath (with a mouse; a finger is
      // asked which piece it meant, as the icons are small and the cell is one target), and so
      // does a drag: the piece picked up is the one under the pointer.
      const ground = tokens.filter((t) => !this.layerOf(t));
      if (ground.length) tokens = ground;
    }
    if (tokens.length > 1) {
      const pick = await this.hooks.choose(
        tokens.map((t) => ({ label: (this.selection(t) || {}).name || t, value: t })),
        cell,
        `Which piece on ${cell}?`,
      );
      if (!pick) {
        this.hooks.changed();
        return 'cancel';
      }
      tokens = [pick.value];
    }
    const sel = prefix.concat(tokens);
    this.sel = sel;
    const more = this.nextTokens(sel);
    const complete = this.completed(sel);
    const inPlace = sel.length >= 2 && this.cellOf(sel[sel.length - 1]) === this.cellOf(sel[sel.length - 2]);
    if (complete.length && !more.size) {
      if (complete.length === 1 && !inPlace) {
        this.play(complete[0].move);
      } else {
        await this.finish(complete, cell);
      }
      return true;
    }
    this.hooks.changed();
    return true;
  }

  async finish(options, cell) {
    if (options.length === 1 && !this.mustConfirm()) {
      this.play(options[0].move);
      return;
    }
    const from = this.cellOf(this.sel[0]);
    const to = this.cellOf(this.sel[this.sel.length - 1]);
    const pick = await this.hooks.choose(
      options.map((e) => ({ label: e.label, group: e.group, value: e.move, title: e.move })),
      cell,
      from === to ? `On ${from}` : `${from} → ${to}`,
    );
    if (pick) this.play(pick.value);
    else {
      // Cancelled: go back one click, so another target can be chosen.
      this.sel = this.sel.slice(0, -1);
      this.hooks.changed();
    }
  }

  /** A move made by clicking the same cell twice (remove alone, spin) is confirmed first. */
  mustConfirm() {
    const sel = this.sel;
    return sel.length >= 2 && this.cellOf(sel[sel.length - 1]) === this.cellOf(sel[sel.length - 2]);
  }

  play(move) {
    this.sel = [];
    this.extra = null;
    this.hooks.play(move);
  }

  /** The set move about to be confirmed (Obsidio claims), or null. */
  pending() {
    if (!this.enabled || !this.extra || !this.extra.length) return null;
    const sel = this.extra;
    const last = sel[sel.length - 1];
    const e = this.sets().find((x) => sameSet(x.claim, sel) && x.claim[x.claim.length - 1] === last);
    const w = this.ui.set_words || {};
    const values = { cells: sel.join(', '), last };
    return {
      text: !e ? w.invalid || 'No move' : fill(sel.length === 1 ? w.pending_one || '{last}' : w.pending_many || '{cells}', values),
      confirmLabel: w.confirm || 'Play',
      move: e ? e.move : null,
    };
  }

  /** The cells a legal move `move` touches (to mark a suggested move). */
  cellsOf(move) {
    const m = ((this.state && this.state.interaction && this.state.interaction.moves) || []).find((x) => x.move === move);
    return m ? m.cells || [] : [];
  }
}

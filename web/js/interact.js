// Builds a move from clicks. Each game's adapter turns every legal move (notation from the
// server) into one or more click paths: the cells to click in order, plus a label. A click
// extends the current path prefix; the cells that can come next are the highlighted targets;
// when the clicks spell out exactly one move it is played, and when several moves share the
// clicks (a step with or without a spin, carry or leave) a chooser offers them. The browser
// holds no rules: a click that no legal move starts with is refused with feedback.

/**
 * @typedef {object} Entry
 * @property {string} move the legal move's notation
 * @property {string[][]} paths click paths (tokens; `adapter.cellOf(token)` gives the cell)
 * @property {string} label button label in a chooser
 * @property {string} [group] chooser row
 * @property {string} [kind] target style of the last cell: move, capture, special
 */

export class MoveBuilder {
  /**
   * @param {object} adapter the game's adapter (js/games/*.js)
   * @param {object} hooks {play(move), changed(), choose(options, cell) -> Promise<option|null>, refuse(cell, message)}
   */
  constructor(adapter, hooks) {
    this.adapter = adapter;
    this.hooks = hooks;
    this.entries = [];
    this.buttons = [];
    this.sel = [];
    this.extra = null; // adapter-owned selection (Obsidio claims)
    this.state = null;
    this.enabled = false;
  }

  /** A new position (or the same one after a refused move): rebuilds the entries. */
  setState(state, enabled, ctx = {}) {
    const same = this.state && state && this.state.version === state.version && this.state.id === state.id;
    this.state = state;
    this.enabled = enabled;
    this.ctx = ctx;
    this.entries = [];
    this.buttons = [];
    const legal = enabled && state ? state.legal_moves : [];
    for (const m of legal) {
      const e = this.adapter.parse(m, state, ctx);
      if (e && e.paths && e.paths.length) this.entries.push({ move: m, ...e });
      else if (e && e.claim) this.entries.push({ move: m, paths: [], ...e });
      else this.buttons.push({ move: m, label: this.adapter.buttonLabel(m, state, ctx), title: e && e.title });
    }
    if (!same) this.reset(false);
  }

  reset(notify = true) {
    this.sel = [];
    this.extra = null;
    if (notify) this.hooks.changed();
  }

  cellOf(token) {
    return this.adapter.cellOf ? this.adapter.cellOf(token) : token;
  }

  startsWith(path, prefix) {
    if (path.length < prefix.length) return false;
    for (let i = 0; i < prefix.length; i += 1) if (path[i] !== prefix[i]) return false;
    return true;
  }

  /** Entries with a path starting with `prefix`, as [entry, path] pairs. */
  matching(prefix) {
    const out = [];
    for (const e of this.entries) {
      for (const p of e.paths) if (this.startsWith(p, prefix)) out.push([e, p]);
    }
    return out;
  }

  /** The next tokens after the current prefix, with the kind of target each is. */
  nextTokens(prefix = this.sel) {
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
    const out = [];
    for (const [e, p] of this.matching(prefix)) {
      if (p.length === prefix.length && !seen.has(e.move)) {
        seen.add(e.move);
        out.push(e);
      }
    }
    return out;
  }

  /** What the board should highlight: targets, selected cells, cells that start a move. */
  highlights() {
    const targets = new Map();
    const selected = new Set();
    const clickable = new Set();
    if (!this.enabled) return { targets, selected, clickable, order: new Map() };
    if (this.adapter.highlights) {
      const custom = this.adapter.highlights(this);
      if (custom) return custom;
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
    if (this.adapter.moreClickable && !this.sel.length) for (const c of this.adapter.moreClickable(this)) clickable.add(c);
    return { targets, selected, clickable, order: new Map() };
  }

  /** A line describing the selection, and what can be done next. */
  hint() {
    if (!this.enabled) return '';
    if (this.adapter.hint) {
      const custom = this.adapter.hint(this);
      if (custom !== undefined) return custom;
    }
    if (!this.sel.length) return this.adapter.idleHint ? this.adapter.idleHint(this) : '';
    const done = this.completed();
    const cells = this.sel.map((t) => this.cellOf(t));
    const more = this.nextTokens().size > 0;
    if (done.length === 1 && more) {
      return `${done[0].label}: click ${cells[cells.length - 1]} again, or click a highlighted target to go on. Esc cancels.`;
    }
    return `${this.adapter.selectionLabel ? this.adapter.selectionLabel(this.sel, this.state) : cells.join(' → ')}: choose a highlighted target. Esc cancels.`;
  }

  /** A click on `cell` (null: cancel); `layer` is `f` for a click on a Fighter's icon. */
  async click(cell, layer = null) {
    this.layer = layer;
    if (!this.enabled) {
      if (cell) this.hooks.refuse(cell, this.state && this.state.status === 'finished' ? 'The game is over.' : 'It is not your turn.');
      return;
    }
    if (cell === null) {
      this.reset();
      return;
    }
    if (this.adapter.click && this.adapter.click(this, cell)) {
      this.hooks.changed();
      return;
    }
    // A click elsewhere drops the adapter's own selection (Obsidio claims).
    this.extra = null;
    const step = await this.extend(this.sel, cell);
    if (step === 'cancel') return;
    if (step) return;
    // Not a continuation: maybe a new start.
    if (this.sel.length) {
      const otherLayer = this.layer && this.adapter.layerOf && this.adapter.layerOf(this.sel[0]) !== this.layer;
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
      this.hooks.changed();
    }
    this.hooks.refuse(cell, this.adapter.refusal ? this.adapter.refusal(cell, this.state) : `No legal move starts at ${cell}.`);
  }

  /** Whether a first click on `cell` would play a move straight away. */
  playsAtOnce(cell) {
    const starts = [...this.nextTokens([]).keys()].filter((t) => this.cellOf(t) === cell);
    return starts.length > 0 && starts.every((t) => this.completed([t]).length > 0 && this.nextTokens([t]).size === 0);
  }

  /** Tries to extend `prefix` by a click on `cell`; plays or opens the chooser when complete. */
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
    if (this.layer && this.adapter.layerOf) {
      const onLayer = tokens.filter((t) => this.adapter.layerOf(t) === this.layer);
      if (onLayer.length) tokens = onLayer;
      else if (prefix.length && this.cellOf(prefix[0]) === cell && this.adapter.layerOf(prefix[0]) !== this.layer) return false;
    }
    if (tokens.length === 1) {
      // one token: nothing to choose
    } else if (tokens.length > 1 && this.layer === null && this.adapter.layerOf && prefix.length === 0 && this.pointerClick) {
      // A click beside the Fighter icon means the ground piece.
      const ground = tokens.filter((t) => this.adapter.layerOf(t) === 'g');
      if (ground.length) tokens = ground;
    }
    if (tokens.length > 1) {
      const pick = await this.hooks.choose(
        tokens.map((t) => ({ label: this.adapter.tokenLabel ? this.adapter.tokenLabel(t, this.state) : t, value: t })),
        cell,
        this.adapter.layerTitle ? this.adapter.layerTitle(cell) : `What on ${cell}?`,
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
    if (this.adapter.arrange) options = this.adapter.arrange(options, this.state);
    if (options.length === 1 && !this.mustConfirm(options[0])) {
      this.play(options[0].move);
      return;
    }
    const pick = await this.hooks.choose(
      options.map((e) => ({ label: e.label, group: e.group, value: e.move, title: e.move })),
      cell,
      this.adapter.chooserTitle ? this.adapter.chooserTitle(this.sel, this.state, options) : 'Choose the move',
    );
    if (pick) this.play(pick.value);
    else {
      // Cancelled: go back one click, so another target can be chosen.
      this.sel = this.sel.slice(0, -1);
      this.hooks.changed();
    }
  }

  mustConfirm(entry) {
    const sel = this.sel;
    return sel.length >= 2 && this.cellOf(sel[sel.length - 1]) === this.cellOf(sel[sel.length - 2]) && !entry.quick;
  }

  play(move) {
    this.sel = [];
    this.extra = null;
    this.hooks.play(move);
  }

  /** The adapter's pending confirmation (Obsidio claims), or a default one. */
  pending() {
    if (!this.enabled) return null;
    if (this.adapter.pending) return this.adapter.pending(this);
    return null;
  }
}

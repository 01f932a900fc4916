// Obsidio: dark placements (one click), light placements (two clicks: the second token's
// squares appear after the first), claims (select targets, then confirm; the target selected
// last is claimed last and becomes the anchor), swap and pass as buttons.

function claimTargets(move) {
  return move.slice(1).split('+');
}

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

export default {
  name: 'obsidio',

  parse(move) {
    let m;
    if ((m = /^([a-z]\d+),([a-z]\d+)$/.exec(move))) {
      return { paths: [[m[1], m[2]]], label: `Place ${m[1]} and ${m[2]}` };
    }
    if ((m = /^([a-z]\d+)$/.exec(move))) return { paths: [[m[1]]], label: `Place ${m[1]}` };
    if (move.startsWith('+')) return { claim: claimTargets(move), label: `Claim ${claimTargets(move).join(', ')}` };
    return null;
  },

  buttonLabel(move) {
    if (move === 'swap') return 'Swap colours (pie rule)';
    if (move === 'pass') return 'Pass';
    return move;
  },

  // The board marks the anchor and each colour's last move itself.
  lastCells() {
    return [];
  },

  claims(b) {
    return b.entries.filter((e) => e.claim);
  },

  idleHint(b) {
    const claims = this.claims(b).length > 0;
    const place = b.entries.some((e) => !e.claim);
    if (place && claims) return 'Click a marked square to place a token, or a target to claim it.';
    if (claims) return 'Click a target to claim it.';
    if (place) return 'Click a marked square to place a token (on a light square, then a second one).';
    return '';
  },

  /** Claim selection: clicking an unclaimed target that some claim contains. */
  click(b, cell) {
    const claims = this.claims(b);
    if (!claims.some((e) => e.claim.includes(cell))) return false;
    if (b.sel.length) b.sel = [];
    const sel = b.extra || [];
    const i = sel.indexOf(cell);
    if (i >= 0) sel.splice(i, 1);
    else {
      // Only targets that some claim holds together with the current selection.
      const ok = claims.some((e) => sel.every((t) => e.claim.includes(t)) && e.claim.includes(cell));
      if (!ok) {
        sel.length = 0;
      }
      sel.push(cell);
    }
    b.extra = sel.length ? sel : null;
    return true;
  },

  /** The claim move matching the selection: the same targets, the last selected claimed last. */
  claimMove(b) {
    const sel = b.extra;
    if (!sel || !sel.length) return null;
    const last = sel[sel.length - 1];
    const e = this.claims(b).find((x) => sameSet(x.claim, sel) && x.claim[x.claim.length - 1] === last);
    return e ? e.move : null;
  },

  /** Targets that can be claimed start a claim selection. */
  moreClickable(b) {
    const out = new Set();
    for (const e of this.claims(b)) for (const t of e.claim) out.add(t);
    return out;
  },

  /** The first token of a two-token placement, drawn see-through until the second is chosen. */
  ghosts(b) {
    const g = new Map();
    const colour = b.state && b.state.to_move && b.state.to_move.colour;
    if (colour && b.sel.length) g.set(b.sel[0], { colour, r: 0.3 });
    return g;
  },

  highlights(b) {
    const sel = b.extra;
    if (!sel) return undefined;
    const targets = new Map();
    const selected = new Set(sel);
    const order = new Map(sel.map((t, i) => [t, i + 1]));
    for (const e of this.claims(b)) {
      if (sel.every((t) => e.claim.includes(t))) {
        for (const t of e.claim) if (!selected.has(t)) targets.set(t, 'special');
      }
    }
    const clickable = new Set();
    for (const e of this.claims(b)) for (const t of e.claim) clickable.add(t);
    return { targets, selected, clickable, order };
  },

  hint(b) {
    if (b.extra) {
      const sel = b.extra;
      const last = sel[sel.length - 1];
      return sel.length === 1
        ? `Claim ${last}: confirm, or select more targets to claim together (the one selected last is claimed last and becomes the anchor).`
        : `Claim ${sel.join(', ')}; ${last} is claimed last and becomes the anchor. Click a target again to drop it.`;
    }
    if (b.sel.length) {
      return `First token on ${b.sel[0]}: click a highlighted square for the second token. Esc cancels.`;
    }
    return this.idleHint(b);
  },

  pending(b) {
    if (!b.extra) return null;
    const move = this.claimMove(b);
    return {
      text: !move ? 'These targets cannot be claimed together in this order'
        : b.extra.length === 1 ? `Claim ${b.extra[0]}`
          : `Claim ${b.extra.join(', ')} (${b.extra[b.extra.length - 1]} last: it becomes the anchor)`,
      confirmLabel: 'Claim',
      move,
    };
  },

  refusal(cell, state) {
    const c = state.board && state.board.cells.find((x) => x.name === cell);
    if (c && c.shade === 'target') return `${cell} cannot be claimed: a claim needs four of your tokens around an unclaimed target.`;
    if (c && c.pieces && c.pieces.length) return `${cell} is taken.`;
    return `${cell} is not a legal placement now: it must see the anchor when any square of its kind does.`;
  },
};

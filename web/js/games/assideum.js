// assideum: ground steps and slides (piece, then destination; Portals and Rangers then choose a
// facing, Portals also which optional Fighters they carry, and how many of a square's), spins
// (click the piece again), Fighter flights and strikes (click the Fighter, then the destination
// or the Fighter again), Ranger fire (the Ranger, then the target square). Ground pieces are
// tokens `b1`, the Fighters on a square are `f:b1`.

import { cellsIn, cellAt, colourToMove } from './common.js';

const SQ = '[a-h][1-8]';
const NAMES = {
  commander: 'Commander', vedrin: "Ved'rin", striker: 'Striker', cruiser: 'Cruiser',
  portal: 'Portal', ranger: 'Ranger', fighter: 'Fighter',
};
const FACING = { n: 'north', e: 'east', s: 'south', w: 'west' };
const ARROW = { n: '↑', e: '→', s: '↓', w: '←' };
const OPPOSITE = { n: 's', s: 'n', e: 'w', w: 'e' };

function arrow(f, flipped) {
  return ARROW[flipped ? OPPOSITE[f] : f];
}

function facingLabel(f, flipped) {
  return f ? `face ${FACING[f]} ${arrow(f, flipped)}` : 'keep facing';
}

const NUMBER = ['no', 'one', 'two'];

/** The optional Fighters a move carries (`d5:1,e6`): square → how many go, null for all. */
function carriedOf(carry) {
  const out = new Map();
  for (const item of (carry || '').split(',').filter(Boolean)) {
    const [sq, n] = item.split(':');
    out.set(sq, n ? Number(n) : null);
  }
  return out;
}

/** How many Fighters of the side to move stand on `square` (0 when unknown). */
function fightersOn(state, square) {
  const c = cellAt(state && state.board, square);
  const colour = colourToMove(state);
  return c ? (c.pieces || []).filter((p) => p.kind === 'fighter' && p.colour === colour).length : 0;
}

/**
 * What a move does with the optional Fighters on `squares`: `how(sq)` is how many of them go
 * (null: all). Squares whose Fighters all go, or all stay, are named together; a square where
 * only some go gets its own phrase ("carry one of the two Fighters on d5").
 */
function carryPhrases(squares, how, state) {
  const carried = [];
  const left = [];
  const some = [];
  for (const sq of squares) {
    const n = how(sq);
    const total = fightersOn(state, sq);
    if (n === 0) left.push(sq);
    else if (n === null || n >= total) carried.push(sq);
    else some.push(`carry ${NUMBER[n] || n} of the ${NUMBER[total] || total} Fighters on ${sq}`);
  }
  const named = (verb, list) => {
    if (list.length !== 1) return `${verb} the Fighters on ${list.join(' and ')}`;
    const total = fightersOn(state, list[0]);
    if (total === 1) return `${verb} the Fighter on ${list[0]}`;
    if (total === 2) return `${verb} both Fighters on ${list[0]}`;
    return `${verb} the Fighters on ${list[0]}`;
  };
  const parts = [];
  if (carried.length) parts.push(named('carry', carried));
  parts.push(...some);
  if (left.length) parts.push(named('leave', left));
  return parts;
}

function carryGroup(carry, state) {
  const carried = carriedOf(carry);
  if (!carried.size) return 'leave the optional Fighters';
  return carryPhrases([...carried.keys()], (sq) => carried.get(sq), state).join(' and ');
}

function groundName(state, square) {
  const c = cellAt(state && state.board, square);
  const g = c && (c.pieces || []).find((p) => p.kind !== 'fighter');
  return g ? NAMES[g.kind] || g.kind : 'piece';
}

export default {
  name: 'assideum',

  parse(move, state, ctx = {}) {
    const fl = !!ctx.flipped;
    let m;
    if ((m = new RegExp(`^f(${SQ})x$`).exec(move))) {
      return { paths: [[`f:${m[1]}`, `f:${m[1]}`]], label: 'Strike in place', kind: 'capture' };
    }
    if ((m = new RegExp(`^f(${SQ})([-x])(${SQ})$`).exec(move))) {
      const attack = m[2] === 'x';
      return {
        paths: [[`f:${m[1]}`, m[3]]],
        label: attack ? `Fly to ${m[3]} and attack` : `Fly to ${m[3]}`,
        kind: attack ? 'capture' : 'move',
      };
    }
    if ((m = new RegExp(`^r(${SQ})\\*(${SQ})([fg])$`).exec(move))) {
      return {
        paths: [[m[1], m[2]]],
        group: 'Fire',
        label: m[3] === 'f' ? `at the Fighters on ${m[2]}` : `at the ${groundName(state, m[2])} on ${m[2]}`,
        kind: 'special',
      };
    }
    if ((m = new RegExp(`^(${SQ})>([nesw])(?:\\{([a-h1-8,:]*)\\})?$`).exec(move))) {
      return {
        paths: [[m[1], m[1]]],
        verb: 'Spin',
        group: m[3] !== undefined ? `Spin and ${carryGroup(m[3], state)}` : 'Spin in place',
        label: facingLabel(m[2], fl),
        kind: 'special',
        carry: m[3] || '',
      };
    }
    if ((m = new RegExp(`^(${SQ})([-x])(${SQ})(?:>([nesw]))?(?:\\{([a-h1-8,:]*)\\})?$`).exec(move))) {
      const attack = m[2] === 'x';
      const verb = attack ? `Attack ${m[3]}` : `Move to ${m[3]}`;
      return {
        paths: [[m[1], m[3]]],
        verb,
        group: m[5] !== undefined ? `${verb} and ${carryGroup(m[5], state)}` : verb,
        label: facingLabel(m[4], fl),
        kind: attack ? 'capture' : 'move',
        carry: m[5] || '',
      };
    }
    return null;
  },

  /**
   * Chooser rows: one per carry choice, saying what happens to the Fighters of every optional
   * square: carried, some of them carried (the others stay), or left.
   */
  arrange(options, state) {
    const optional = new Set();
    for (const o of options) for (const sq of carriedOf(o.carry).keys()) optional.add(sq);
    if (!optional.size) return options;
    const all = [...optional].sort((a, b) => (a[1] - b[1]) || a.localeCompare(b));
    return options.map((o) => {
      if (!o.verb) return o;
      const carried = carriedOf(o.carry);
      const parts = carryPhrases(all, (sq) => (carried.has(sq) ? carried.get(sq) : 0), state);
      return { ...o, group: `${o.verb}: ${parts.join(', ')}` };
    });
  },

  cellOf(token) {
    return token.startsWith('f:') ? token.slice(2) : token;
  },

  layerOf(token) {
    return token.startsWith('f:') ? 'f' : 'g';
  },

  tokenLabel(token, state) {
    if (token.startsWith('f:')) return 'the Fighter';
    return `the ${groundName(state, token)}`;
  },

  layerTitle(cell) {
    return `Which piece on ${cell}?`;
  },

  chooserTitle(sel) {
    const from = this.cellOf(sel[0]);
    const to = this.cellOf(sel[sel.length - 1]);
    return from === to ? `On ${from}` : `${from} → ${to}`;
  },

  buttonLabel(move) {
    return move;
  },

  lastCells(move, board) {
    return cellsIn(move.replace(/\{.*\}/, ''), board, /[a-h][1-8]/g);
  },

  /** Whose flight zones to show while a Portal or Fighter is selected. */
  zones(b) {
    if (!b.sel.length || !b.state || !b.state.to_move) return null;
    const t = b.sel[0];
    const colour = b.state.to_move.colour;
    if (t.startsWith('f:')) return colour;
    const c = cellAt(b.state.board, t);
    if (c && (c.pieces || []).some((p) => p.kind === 'portal' && p.colour === colour)) {
      // The Portal's own zone, where the server marks it; else the side's zones.
      const own = b.state.board.cells.some((x) => (x.marks || []).includes(`zone-of-${t}`));
      return own ? { colour, portal: t } : colour;
    }
    return null;
  },

  selectionLabel(sel, state) {
    const t = sel[0];
    if (t.startsWith('f:')) return `Fighter on ${t.slice(2)}`;
    return `${groundName(state, t)} on ${t}`;
  },

  idleHint(b) {
    if (!b.entries.length) return '';
    return 'Click a piece or a Fighter, then where it goes; click it again to spin or strike in place.';
  },

  hint(b) {
    if (!b.sel.length) return this.idleHint(b);
    const t = b.sel[0];
    const sq = this.cellOf(t);
    const parts = [];
    const next = b.nextTokens();
    if ([...next.keys()].some((x) => this.cellOf(x) === sq)) {
      parts.push(t.startsWith('f:') ? `click ${sq} again to strike in place` : `click ${sq} again to spin`);
    }
    if ([...next.keys()].some((x) => this.cellOf(x) !== sq)) parts.push('click a highlighted square');
    return `${this.selectionLabel(b.sel, b.state)}: ${parts.join(', or ')}. Esc cancels.`;
  },

  refusal(cell, state) {
    const c = cellAt(state.board, cell);
    const colour = state.to_move && state.to_move.colour;
    if (c && (c.pieces || []).some((p) => p.colour === colour)) return `No legal move for the pieces on ${cell} (a move may not leave your Commander in siege).`;
    return `No legal move starts at ${cell}.`;
  },
};

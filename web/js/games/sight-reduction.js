// Sight Reduction: removals (one click), pair removals (two clicks), the fair set-up's swaps
// and choices, the deterministic set-up's placements.

import { cap } from '../util.js';
import { cellsIn } from './common.js';

export default {
  name: 'sight-reduction',

  parse(move) {
    let m;
    if ((m = /^([a-d]\d)\+([a-d]\d)$/.exec(move))) {
      return { paths: [[m[1], m[2]], [m[2], m[1]]], label: `Remove ${m[1]} and ${m[2]}` };
    }
    if ((m = /^([a-d]\d)$/.exec(move))) return { paths: [[m[1]]], label: `Remove ${m[1]} alone`, kind: 'capture' };
    if ((m = /^swap ([a-d]\d) ([a-d]\d)$/.exec(move))) {
      return { paths: [[m[1], m[2]], [m[2], m[1]]], label: `Swap ${m[1]} and ${m[2]}` };
    }
    if ((m = /^@([a-d]\d)$/.exec(move))) return { paths: [[m[1]]], label: `Place on ${m[1]}` };
    return null;
  },

  buttonLabel(move, state) {
    let m;
    if (move === 'done') return 'Done arranging';
    if ((m = /^colou?r (white|black)$/.exec(move))) return `Take ${cap(m[1])}`;
    if ((m = /^first (white|black)$/.exec(move))) return `${cap(m[1])} removes first`;
    return move;
  },

  lastCells(move, board) {
    return cellsIn(move, board, /[a-z]\d+/g);
  },

  idleHint(b) {
    const moves = b.state ? b.state.legal_moves : [];
    if (moves.some((m) => m.startsWith('@'))) return 'Click a marked square to place a piece.';
    if (moves.some((m) => m.startsWith('swap'))) return 'Swap two pieces of different colours (click one, then the other), or press Done arranging.';
    if (moves.some((m) => m.includes('+'))) return 'Click a marked piece to remove it, or two that see each other to remove the pair.';
    if (b.entries.length) return 'Click a marked piece to remove it.';
    return '';
  },

  hint(b) {
    if (!b.sel.length) return this.idleHint(b);
    const c = b.sel[0];
    const done = b.completed();
    const partners = [...b.nextTokens().keys()];
    if (done.length && partners.length) {
      return `${c} selected: click ${c} again to remove it alone, or a highlighted partner to remove the pair. Esc cancels.`;
    }
    if (b.state && b.state.board && b.state.board.facts && /arrangement/.test(b.state.board.facts.phase || '')) {
      return `${c} selected: click a piece of the other colour to swap them. Esc cancels.`;
    }
    return `${c} selected: click a highlighted piece to complete the pair. Esc cancels.`;
  },

  refusal(cell, state) {
    const phase = state.board && state.board.facts && state.board.facts.phase;
    if (phase === 'placement') return `${cell}: no piece may be placed there now.`;
    if (phase && phase.startsWith('arrangement')) return `${cell}: pick two pieces of different colours to swap.`;
    return `${cell} cannot be removed now: remove one of your own pieces that sees a friendly piece.`;
  },
};

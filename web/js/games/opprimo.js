// Opprimo: King placement (click a castle triangle), King moves (the King's triangle, then an
// adjacent one), soldier steps and conversions (a point, then the destination), pass.

import { cellsIn } from './common.js';

const POINT = '[a-g]\\d{1,2}';
const TRI = '[a-g]\\d{1,2}[a-g]';

export default {
  name: 'opprimo',

  parse(move) {
    let m;
    if ((m = new RegExp(`^k@(${TRI})$`).exec(move))) return { paths: [[m[1]]], label: `Place the King on ${m[1]}` };
    if ((m = new RegExp(`^k(${TRI})-(${TRI})$`).exec(move))) {
      return { paths: [[m[1], m[2]]], label: `King to ${m[2]}` };
    }
    if ((m = new RegExp(`^(${POINT})-(${POINT})$`).exec(move))) return { paths: [[m[1], m[2]]], label: `Step to ${m[2]}` };
    if ((m = new RegExp(`^(${POINT})x(${POINT})$`).exec(move))) {
      return { paths: [[m[1], m[2]]], label: `Jump to ${m[2]}`, kind: 'capture' };
    }
    return null;
  },

  buttonLabel(move) {
    return move === 'pass' ? 'Pass (no other move)' : move;
  },

  lastCells(move, board) {
    return cellsIn(move, board, /[a-g]\d{1,2}[a-g]?/g);
  },

  idleHint(b) {
    const moves = b.state ? b.state.legal_moves : [];
    if (moves.some((m) => m.startsWith('k@'))) return 'Place your King: click a marked triangle of your castle.';
    if (moves.some((m) => /^k[a-g]/.test(m))) return 'Click a soldier and then a point to step or jump to, or your King and then a triangle.';
    if (b.entries.length) return 'Click a soldier and then a point to step or jump to.';
    return '';
  },

  hint(b) {
    if (!b.sel.length) return this.idleHint(b);
    const c = b.sel[0];
    if (/[a-g]$/.test(c)) return `King on ${c}: click a highlighted triangle of the castle. Esc cancels.`;
    return `Soldier on ${c}: click a highlighted point to step there or jump (a jump converts the soldier between). Esc cancels.`;
  },

  refusal(cell, state) {
    const kingToPlace = state.legal_moves.some((m) => m.startsWith('k@'));
    if (kingToPlace) return `Place your King first: click a highlighted triangle of your castle.`;
    return `No legal move starts at ${cell}.`;
  },
};

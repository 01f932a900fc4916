// Helpers shared by the game adapters: reading square names out of move notation.

/** Square names (`b3`) in a move text, in order. */
export function squares(text) {
  return (text.toLowerCase().match(/[a-z]\d+/g) || []);
}

/** The cells named in `text` that exist on `board`, in order. */
export function cellsIn(text, board, pattern = /[a-z]\d+[a-z]?/g) {
  if (!board) return [];
  const names = new Set(board.cells.map((c) => c.name));
  const out = [];
  for (const m of text.toLowerCase().match(pattern) || []) {
    if (names.has(m)) out.push(m);
    else if (names.has(m.slice(0, -1))) out.push(m.slice(0, -1));
  }
  return out;
}

/** The cell named `name`. */
export function cellAt(board, name) {
  return board ? board.cells.find((c) => c.name === name) : undefined;
}

/** The colour of the seat, or the colour to move. */
export function colourToMove(state) {
  return state && state.to_move ? state.to_move.colour : null;
}

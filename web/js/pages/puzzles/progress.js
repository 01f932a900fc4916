// What the puzzle pages keep in this browser (the puzzles solved and the lines left
// unfinished) and the form of a puzzle's id.

const KEY = 'boardlab:puzzles';
/** The game of the puzzles. */
export const GAME = 'sight-reduction';

/** Solved puzzles and unfinished lines: {solved: {id: true}, lines: {id: [moves]}}. */
export const puzzleProgress = {
  get() {
    try {
      const p = JSON.parse(/** @type {string} */ (localStorage.getItem(KEY)));
      return { solved: (p && p.solved) || {}, lines: (p && p.lines) || {} };
    } catch {
      return { solved: {}, lines: {} };
    }
  },
  update(fn) {
    const p = puzzleProgress.get();
    fn(p);
    try {
      localStorage.setItem(KEY, JSON.stringify(p));
    } catch {
      // Without storage, progress lasts until the page closes.
    }
    return p;
  },
};

/** @typedef {{word: string, grade: string, number: number}} PuzzleId */

/**
 * The parts of a puzzle's id (`clear-easy-1`), or null for another string.
 * @param {string} id
 * @returns {PuzzleId | null}
 */
export function parseId(id) {
  const m = /^([a-z]+)-([a-z]+)-([1-9][0-9]*)$/.exec(id);
  return m ? { word: m[1], grade: m[2], number: Number(m[3]) } : null;
}

// What the puzzle pages keep in this browser (the puzzles solved and the lines left
// unfinished), kept by each puzzle's id (`clear-easy-1`).

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

/**
 * The id of puzzle `number` of a kind (its word, `clear` or `win`) and grade: `clear-easy-1`.
 * @param {string} word
 * @param {string} grade
 * @param {number} number
 */
export function puzzleId(word, grade, number) {
  return `${word}-${grade}-${number}`;
}

/**
 * The highest number of a puzzle of this kind and grade solved or started in this browser, or 0.
 * @param {{solved: Record<string, any>, lines: Record<string, any>}} progress
 * @param {string} word
 * @param {string} grade
 */
export function highestKept(progress, word, grade) {
  const prefix = puzzleId(word, grade, 0).slice(0, -1);
  let top = 0;
  for (const id of Object.keys(progress.solved).concat(Object.keys(progress.lines))) {
    const n = id.startsWith(prefix) ? Number(id.slice(prefix.length)) : 0;
    if (Number.isInteger(n) && n > top) top = n;
  }
  return top;
}

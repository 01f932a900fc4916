// What the tutorials keep in this browser: the step reached in each game's tutorial, and how
// each step was done.

const KEY = 'boardlab:learn:';

/** Progress in one game's tutorial: {step, done: {index: 'solved' | 'hinted' | 'shown'}}. */
export const learnProgress = {
  get(game) {
    try {
      const p = JSON.parse(/** @type {string} */ (localStorage.getItem(KEY + game)));
      return p && typeof p === 'object' ? { step: Number(p.step) || 0, done: p.done || {} } : { step: 0, done: {} };
    } catch {
      return { step: 0, done: {} };
    }
  },
  set(game, p) {
    try {
      localStorage.setItem(KEY + game, JSON.stringify(p));
    } catch {
      // Without storage, progress lasts until the page closes.
    }
  },
};

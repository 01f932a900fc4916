// The review of a game kept in this browser (`/games/local-…/review`): its record is made and
// reviewed by the engine in the page, with the progress shown; the finished review is kept
// here too, with the number of moves it covers, so that opening it again is instant.

import { h, mount } from '../../util.js';
import { engineRecord, engineReview, EngineUnavailable } from '../../engine/index.js';
import { localGame, localRequest } from '../../local/games.js';

/** @typedef {import('../../local/games.js').LocalGame} LocalGame */

const KEY = 'boardlab:local-review:';

/**
 * The review kept for `g`, if it covers every move and the same ending.
 * @param {LocalGame} g
 * @returns {any|null}
 */
export function keptReview(g) {
  try {
    const v = JSON.parse(localStorage.getItem(KEY + g.id) || 'null');
    return v && v.moves === g.moves.length && (v.resigned || null) === (g.resigned || null) && v.review ? v.review : null;
  } catch {
    return null;
  }
}

/**
 * Keeps `review` of `g` (nothing happens where the browser refuses: it is worked out again).
 * @param {LocalGame} g
 * @param {any} review
 */
function keepReview(g, review) {
  try {
    localStorage.setItem(KEY + g.id, JSON.stringify({ moves: g.moves.length, resigned: g.resigned || null, review }));
  } catch {
    // storage full or turned off
  }
}

/**
 * Reviews game `g` in the page: its record, then each position, `onProgress` told as it goes.
 * @param {LocalGame} g
 * @param {(p: {done: number, total: number}) => void} onProgress
 */
async function reviewLocal(g, onProgress) {
  const record = await engineRecord(localRequest(g), g.resigned, {
    first: g.seats.first, second: g.seats.second, started: g.created,
    ...(g.status === 'finished' ? { finished: g.updated } : {}),
  });
  const review = await engineReview(record, onProgress);
  keepReview(g, review);
  return review;
}

/**
 * A page of words with a way back, in place of the review.
 * @param {HTMLElement} root
 * @param {string} title
 * @param {string} text
 * @param {string} back the address to go back to
 * @param {string} backText
 */
function notice(root, title, text, back, backText) {
  mount(root, h('section', { class: 'page narrow' }, h('h1', {}, title), h('p', { class: 'error-text' }, text),
    h('p', {}, h('a', { href: back }, backText))));
}

/**
 * Works out (or finds kept) the review of game `id` kept in this browser, showing the progress
 * in `root`. Answers `{game, review}`, or null once `root` shows why there is none (or the page
 * was left meanwhile).
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {Promise<{game: LocalGame, review: any} | null>}
 */
export async function localReview(root, id) {
  const g = localGame(id);
  if (!g) {
    notice(root, 'No such game', 'This browser keeps no game at this address: a game against the computer played in the page is kept only in the browser it was played in.', '/my-games', 'My games');
    return null;
  }
  document.title = `${g.title} review · boardlab`;
  const kept = keptReview(g);
  if (kept) return { game: g, review: kept };
  const here = location.pathname;
  const progress = h('progress', { max: 1, value: 0, 'aria-label': 'Review progress', id: 'review-progress' });
  const note = h('p', { class: 'muted' }, 'The computer looks at every position of the game…');
  mount(root, h('section', { class: 'page narrow review-wait' }, h('h1', {}, `${g.title} — review`), note, progress,
    h('p', {}, h('a', { href: `/games/${id}` }, 'Back to the game'))));
  let review;
  try {
    review = await reviewLocal(g, ({ done, total }) => {
      progress.max = total || 1;
      progress.value = done || 0;
      note.textContent = `The computer looks at every position of the game: ${done} of ${total} done.`;
    });
  } catch (e) {
    if (location.pathname !== here) return null;
    const why = e instanceof EngineUnavailable
      ? 'This browser cannot run the computer that reviews the games kept on this device.'
      : `The game could not be reviewed: ${e.message || e}`;
    notice(root, 'No review', why, `/games/${id}`, 'Back to the game');
    return null;
  }
  // Left for another page meanwhile: the review is kept for the next visit.
  if (location.pathname !== here) return null;
  return { game: g, review };
}

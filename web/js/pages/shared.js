// Pieces of pages used in more than one place: player names, colour swatches, fact labels.

import { h, s, cap } from '../util.js';

/**
 * "You", "Computer (level 5)", an account's name, "Opponent"… for a seat; `tokens`: the seats
 * this browser plays (by token or by account), as `{first, second}`.
 */
export function playerName(state, seat, tokens) {
  const sv = state.seats[seat];
  if (sv.kind === 'computer') return computerName(sv.computer);
  if (state.solitaire) return 'You';
  if (state.same_screen) return seat === 'first' ? 'Player 1' : 'Player 2';
  if (tokens && tokens[seat]) return 'You';
  if (sv.account) return sv.account;
  if (tokens && (tokens.first || tokens.second)) return 'Opponent';
  return seat === 'first' ? 'First player' : 'Second player';
}

/**
 * The computer playing a seat, as the server describes it.
 * @typedef {{ bot: string, level: number | null }} Computer
 */

/**
 * The computer a player name stands for (`computer:level:5`, `computer:random`, `computer`),
 * as the server describes it; null for a person.
 * @param {string | null | undefined} player
 * @returns {Computer | null}
 */
export function computerOf(player) {
  const m = /^computer(?::(.*))?$/.exec(player || '');
  if (!m) return null;
  const bot = m[1] || '';
  const level = /^level:(\d+)$/.exec(bot);
  return { bot, level: level ? Number(level[1]) : null };
}

/**
 * "Computer · level 5", "Computer · random", or "Computer" when the server says no more.
 * @param {Computer | null | undefined} computer
 */
export function computerName(computer) {
  if (computer && computer.level != null) return `Computer · level ${computer.level}`;
  return computer && computer.bot ? `Computer · ${computer.bot}` : 'Computer';
}

/** "White (first seat)". */
export function seatColourName(state, seat) {
  if (!seat) return '';
  const c = state.seats[seat].colour;
  return c ? cap(c) : 'colour not chosen yet';
}

/** A round swatch of a colour, drawn like the game's pieces. */
export function colourSwatch(colour, game) {
  const svg = s('svg', { class: 'swatch', viewBox: '-12 -12 24 24', 'aria-hidden': 'true' });
  if (colour) svg.append(s('circle', { r: 10, fill: `url(#g-${colour})`, class: `swatch-${colour}` }));
  else svg.append(s('circle', { r: 10, class: 'swatch-none' }));
  return svg;
}

/**
 * A seat as a short list of players names it.
 * @typedef {{ computer: Computer | null, account?: string | null }} ListedSeat
 */

/**
 * A short text for a game's players: an account's name, "Human", or the computer.
 * @param {ListedSeat} first
 * @param {ListedSeat} second
 */
export function seatsText(first, second) {
  /** @param {ListedSeat} seat */
  const name = (seat) => seat.account || (seat.computer ? computerName(seat.computer) : 'Human');
  return `${name(first)} vs ${name(second)}`;
}

/**
 * The seats of a line of GET /api/games (`first_computer`, `first_account`, …), for
 * [seatsText].
 * @returns {[ListedSeat, ListedSeat]}
 */
export function listedSeats(seats) {
  return [
    { computer: seats.first_computer, account: seats.first_account },
    { computer: seats.second_computer, account: seats.second_account },
  ];
}

/**
 * A listed game's result for people: `black` → "Black wins", a puzzle not solved with `score`
 * pieces left → "Not solved · 3 pieces left".
 * @param {string | null} tag the record's result tag
 * @param {string | null} termination
 * @param {number | null} [score] the pieces left of a puzzle not solved
 */
export function resultText(tag, termination, score = null) {
  // A side never made a first move: nobody won.
  if (termination === 'aborted' || tag === 'aborted') return 'Aborted';
  if (!tag) return 'Over';
  if (score !== null && score !== undefined) return `Not solved · ${score} pieces left`;
  let t = cap(tag);
  if (['white', 'black', 'yellow', 'red'].includes(tag)) t = `${cap(tag)} wins`;
  if (termination && termination !== 'rules') t += ` (${termination === 'agreement' ? 'agreed' : termination === 'time' ? 'on time' : termination})`;
  return t;
}

/**
 * A result's sentence from the server ("White wins: Black ran out of time"), its first letter a
 * capital unless `start` is false.
 * @param {string} text
 * @param {boolean} [start]
 */
export function resultSentence(text, start = true) {
  const t = String(text || '');
  return start ? cap(t) : t;
}

const ICONS = {
  first: 'M5 4h2v16H5zM19 4v16L8 12z',
  prev: 'M17 4v16L6 12z',
  next: 'M7 4v16l11-8z',
  last: 'M17 4h2v16h-2zM5 4v16l11-8z',
};

/** A small icon for the move navigation buttons. */
export function navIcon(name) {
  return s('svg', { class: 'icon', viewBox: '0 0 24 24', width: 16, height: 16, 'aria-hidden': 'true' }, s('path', { d: ICONS[name], fill: 'currentColor' }));
}

export { h };

/**
 * Sizes a board stack (`.board-stack`: the board and what is stacked with it) so that the board
 * and everything else in the stack fit the window's height: sets its `--reserve`, the height the
 * board leaves to the rest, from where the stack starts and how tall the other parts are.
 */
export function fitStack(stack, boardWrap, svg) {
  const parts = [...stack.children].filter((e) => e !== boardWrap && e.offsetParent !== null);
  const gap = parseFloat(getComputedStyle(stack).rowGap) || 0;
  const used = parts.reduce((sum, e) => sum + e.getBoundingClientRect().height + gap, 0);
  const top = stack.getBoundingClientRect().top + window.scrollY;
  const frame = boardWrap.getBoundingClientRect().height - (svg ? svg.getBoundingClientRect().height : 0);
  const reserve = Math.round(top + used + Math.max(0, frame) + 12);
  if (stack.style.getPropertyValue('--reserve') !== `${reserve}px`) stack.style.setProperty('--reserve', `${reserve}px`);
}

/** A rating as a number, with "?" while it is provisional: "1620?", "1742". */
export function ratingText(r) {
  if (!r || typeof r.rating !== 'number') return '';
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** A rating in full: "1662 ± 290, provisional". */
export function ratingLong(r) {
  if (!r || typeof r.rating !== 'number') return '';
  return `${Math.round(r.rating)} ± ${Math.round(r.deviation)}${r.provisional ? ', provisional' : ''}`;
}

/**
 * The style that draws an evaluation's two shares (a bar, a graph) in the colours of the sides
 * they stand for: `first` the colour of the share drawn first (the bar's filled part, the graph's
 * area), `second` the other. Null where a colour is not known: the shares keep their plain look.
 */
export function shareColours(first, second) {
  return first && second ? `--eval-first: var(--eval-${first}); --eval-second: var(--eval-${second})` : null;
}

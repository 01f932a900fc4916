// The game lists of accounts (My games, player pages): one row per game, from the player's
// side, in words for people: the game, the colour played, the opponent, whose turn or the
// outcome, the moves and the last change; and the filters by game and by result. Games kept
// in this browser (local/games.js) become rows of the same shape, marked as kept on this device.

import { h, mount, cap, ago } from '../util.js';
import { api } from '../api.js';
import { go } from '../nav.js';
import { colourSwatch, computerName, computerOf, resultText } from './shared.js';
import { engineAvailable, engineGame } from '../engine/index.js';
import { localRequest } from '../local/games.js';

/** @typedef {import('../local/games.js').LocalGame} LocalGame */

// The states of games being played (their colours: a swap or a colour choice can change a
// seat's colour), by id and version.
const states = new Map();

/** The opponent in words: their account name, "Computer · level 3", or a guest. */
export function opponentText(g) {
  if (g.opponent) return g.opponent;
  if (g.opponent_computer) return computerName(g.opponent_computer);
  return 'a guest';
}

/**
 * The colour the player plays in a listed game: from the game's state when it was fetched,
 * else from the result (a winner's colour is named), else the catalog's colour of the seat.
 */
function colourOf(g, info) {
  if (g.seat === null) return null;
  if (g.colour !== undefined) return g.colour;
  const st = states.get(`${g.id}@${g.version}`);
  if (st) return st.seats[g.seat].colour;
  const colours = (info && info.colours) || [];
  if (g.winner && colours.includes(g.result)) {
    return g.winner === g.seat ? g.result : colours.find((c) => c !== g.result) || null;
  }
  return colours[g.seat === 'first' ? 0 : 1] || null;
}

/** Fetches the states of the listed games being played (for their colours); true if any came. */
export async function loadColours(games) {
  const todo = games.filter((g) => g.status === 'ongoing' && g.seat && !states.has(`${g.id}@${g.version}`));
  if (!todo.length) return false;
  const queue = [...todo];
  const worker = async () => {
    while (queue.length) {
      const g = queue.shift();
      try {
        states.set(`${g.id}@${g.version}`, await api.game(g.id));
      } catch {
        // the catalog's colour stays
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return true;
}

const ENDED = { resignation: 'by resignation', agreement: 'by agreement', time: 'on time' };

/** The status of a listed game: `{text, cls}`; `you`: the list is the reader's own. */
function statusOf(g, you) {
  if (g.outcome === 'ongoing' || g.status === 'ongoing') {
    if (g.your_turn) return { text: you ? 'Your turn' : 'To move', cls: 'pill-turn' };
    const opp = g.opponent_computer ? 'the computer' : g.opponent || (you ? 'your opponent' : 'the opponent');
    return { text: `Waiting for ${opp}`, cls: 'pill-live' };
  }
  if (g.termination === 'aborted') return { text: 'Aborted', cls: '' };
  const how = ENDED[g.termination] ? ` ${ENDED[g.termination]}` : '';
  if (g.outcome === 'won') return { text: `Won${how}`, cls: 'pill-won' };
  if (g.outcome === 'lost') return { text: `Lost${how}`, cls: 'pill-lost' };
  if (g.outcome === 'drawn') return { text: `Drawn${how}`, cls: 'pill-drawn' };
  if (g.result) return { text: resultText(g.result, g.termination, g.score), cls: '' };
  return { text: g.result_text ? cap(g.result_text) : 'Over', cls: '' };
}

/** One row: a link to the game. */
export function gameRow(g, infos, you = true) {
  const info = infos[g.game];
  const colour = colourOf(g, info);
  const st = statusOf(g, you);
  const moves = `${g.moves} move${g.moves === 1 ? '' : 's'}`;
  return h('li', {},
    h('a', { class: ['game-row', g.your_turn ? 'game-row-turn' : ''], href: `/games/${g.id}`, 'data-game-id': g.id, 'data-outcome': g.outcome },
      h('span', { class: 'gr-main' },
        h('strong', { class: 'gr-title' }, info ? info.title : g.game,
          g.local ? h('span', { class: 'pill pill-you pill-device', title: 'Kept in this browser only' }, 'On this device') : null),
        h('span', { class: ['pill', 'gr-status', st.cls] }, st.text)),
      h('span', { class: 'gr-meta' },
        g.seat === null
          ? h('span', { class: 'gr-who' }, h('span', { class: 'gr-colour' }, 'Both colours, on one screen'))
          : h('span', { class: 'gr-who' },
            h('span', { class: 'gr-colour' }, `${you ? 'You play' : 'Plays'} `, colourSwatch(colour, g.game), colour ? cap(colour) : 'a colour not chosen yet'),
            h('span', { class: 'gr-opp' }, `vs ${opponentText(g)}`)),
        h('span', { class: 'gr-time' },
          h('span', { class: 'gr-moves' }, moves), ' · ',
          h('span', { class: 'gr-when', title: new Date(g.updated).toLocaleString() }, ago(g.updated))))));
}

/** A list of rows under a heading (nothing for no games). */
export function rowGroup(title, games, infos, you, id) {
  if (!games.length) return null;
  return h('section', { class: 'row-group', id },
    h('h2', {}, title, h('span', { class: 'count' }, ` (${games.length})`)),
    h('ul', { class: 'game-rows' }, games.map((g) => gameRow(g, infos, you))));
}

const RESULTS = [['', 'Any result'], ['ongoing', 'Being played'], ['won', 'Won'], ['lost', 'Lost'], ['drawn', 'Drawn']];

/** The filters by game and by result; a change goes to `path` with the new query. */
export function filterBar(path, filter, games) {
  const sel = (name, label, options) => h('label', { class: 'filter' }, h('span', { class: 'filter-label' }, label),
    h('select', {
      id: `filter-${name}`,
      onchange: (ev) => {
        const next = { ...filter, [name]: ev.target.value };
        const q = new URLSearchParams(Object.entries(next).filter(([, v]) => v));
        go(`${path}${q.toString() ? `?${q}` : ''}`, true);
      },
    }, options.map(([v, t]) => h('option', { value: v, selected: v === (filter[name] || '') }, t))));
  return h('div', { class: 'filters row-filters' },
    sel('game', 'Game', [['', 'All games'], ...games.map((g) => [g.name, g.title])]),
    sel('result', 'Result', RESULTS));
}

/** The filters read from the address: `{game, result}` (unknown values dropped). */
export function filterOf(query, games) {
  const game = query.get('game') || '';
  const result = query.get('result') || '';
  return {
    game: games.some((g) => g.name === game) ? game : '',
    result: RESULTS.some(([v]) => v && v === result) ? result : '',
  };
}

/** Fills `el` with the rows of `games` in groups: theirs to move, being played, finished. */
export function groupedRows(el, games, infos, you) {
  const turn = games.filter((g) => g.your_turn);
  const going = games.filter((g) => !g.your_turn && g.outcome === 'ongoing');
  const done = games.filter((g) => g.outcome !== 'ongoing');
  mount(el,
    rowGroup(you ? 'Your turn' : 'To move', turn, infos, you, 'group-turn'),
    rowGroup(you ? 'Waiting for your opponent' : 'Waiting for the opponent', going, infos, you, 'group-waiting'),
    rowGroup('Finished', done, infos, you, 'group-finished'));
}

// ---------------------------------------------------------------- games kept in this browser

/** What the engine made of each game kept here, by id and last change. */
const localStates = new Map();

/**
 * A game kept in this browser as a row of the lists, with the fields of GET /api/games and of
 * GET /api/account/games (from the side of the person playing it), marked `local`. `known` is
 * the engine's view of the game (engineGame): whose turn, the result, the colours; without it
 * the row says what the game keeps in words.
 * @param {LocalGame} g
 * @param {{view: any, seats: any} | null} [known]
 */
export function localRow(g, known = null) {
  const people = /** @type {('first'|'second')[]} */ (['first', 'second']).filter((s) => g.seats[s] === 'human');
  const seat = people.length === 1 ? people[0] : null;
  const other = seat && (seat === 'first' ? 'second' : 'first');
  const result = known ? known.view.result : null;
  const over = g.status === 'finished' || !!result;
  const toMove = known && known.view.to_move ? known.view.to_move.seat : null;
  let outcome = 'ongoing';
  if (over && result && result.winner && seat) outcome = result.winner === seat ? 'won' : 'lost';
  else if (over) outcome = result && result.draw ? 'drawn' : 'finished';
  return {
    id: g.id,
    game: g.game,
    seats: {
      first: g.seats.first, second: g.seats.second,
      first_computer: computerOf(g.seats.first), second_computer: computerOf(g.seats.second),
      first_account: null, second_account: null,
    },
    status: over ? 'finished' : 'ongoing',
    result: result ? result.tag : null,
    score: result && result.score != null ? result.score : null,
    termination: result ? result.termination : (g.resigned ? 'resignation' : null),
    moves: g.moves.length,
    to_move: toMove,
    winner: result ? result.winner : null,
    version: g.moves.length,
    created: g.created,
    updated: g.updated,
    seat,
    opponent: null,
    opponent_player: other ? g.seats[other] : 'human',
    opponent_computer: other ? computerOf(g.seats[other]) : null,
    // Not known without the engine: the game page says whose turn it is.
    your_turn: !over && (seat === null || !known || toMove === seat),
    outcome,
    local: true,
    colour: seat && known ? known.seats[seat] || null : undefined,
    result_text: over ? g.result || '' : '',
  };
}

/**
 * The rows of games kept here (localRow), each worked out by the engine once per change; the
 * rows of words only where the engine cannot run.
 * @param {LocalGame[]} games
 */
export async function localRows(games) {
  const rows = [];
  for (const g of games) {
    const key = `${g.id}@${g.updated}@${g.moves.length}`;
    let known = localStates.get(key) || null;
    if (!known && engineAvailable()) {
      try {
        known = await engineGame(localRequest(g), g.resigned);
        localStates.set(key, known);
      } catch {
        known = null;
      }
    }
    rows.push(localRow(g, known));
  }
  return rows;
}

/**
 * Whether a row passes the filters (`{game, result}`, as filterOf reads them).
 * @param {any} row
 * @param {{game: string, result: string}} filter
 */
export function rowPasses(row, filter) {
  return (!filter.game || row.game === filter.game) && (!filter.result || row.outcome === filter.result);
}

// The game lists of accounts (My games, player pages): one row per game, from the player's
// side, in words for people: the game, the colour played, the opponent, whose turn or the
// outcome, the moves and the last change; and the filters by game and by result.

import { h, mount, cap, ago } from '../util.js';
import { api } from '../api.js';
import { go } from '../nav.js';
import { colourSwatch, computerName } from './shared.js';

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
  return { text: 'Over', cls: '' };
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
        h('strong', { class: 'gr-title' }, info ? info.title : g.game),
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

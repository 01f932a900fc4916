// The start page's parts drawn from its state: the hero, the game cards, the set-up form (how
// to play, the level and the side, the options, the advanced fields) and the recent games.
// The buttons call what `on` gives.

import { h, cap, ago, count } from '../../util.js';
import { seatsText, listedSeats, resultText } from '../shared.js';
import { emblem } from '../../games/emblems.js';
import { accountName, sameName } from '../../account.js';
import { clockPicker } from '../../clock.js';
import { optionControl } from './options.js';
import { LEVELS, info, solitaire, colourOf } from './state.js';

/** @typedef {import('./state.js').HomeState} HomeState */

/**
 * What the start page's controls do.
 * @typedef {object} HomeActions
 * @property {() => void} redrawCards draws the game cards again
 * @property {() => void} redrawForm draws the form again
 * @property {(err: HTMLElement, btn: HTMLButtonElement) => void} create starts the game set up
 */

/** A small number in words ("four"), larger ones in figures. */
function countWord(n) {
  return ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'][n] || String(n);
}

/**
 * The page's head: what the site is and where to learn.
 * @param {HomeState} hs
 * @returns {HTMLElement}
 */
export function heroView(hs) {
  return h('section', { class: 'hero' },
    h('h1', {}, 'Play abstract strategy games'),
    h('p', {}, `${cap(countWord(hs.cat.games.length))} games with exact rules: play on one screen, against the computer, or online with a friend.`),
    h('p', { class: 'hero-links' }, 'New to a game? ', h('a', { href: '/learn' }, 'Learn it step by step'), ', or try the ', h('a', { href: '/puzzles' }, 'Sight Reduction puzzles'), '.'));
}

/**
 * A card for each game, the one picked on.
 * @param {HomeState} hs
 * @param {HomeActions} on
 * @returns {HTMLElement[]}
 */
export function cardsView(hs, on) {
  const { pick } = hs;
  return hs.games.map((g) => h('button', {
    type: 'button', role: 'radio', class: ['game-card', g.name === pick.game ? 'on' : ''], 'aria-checked': String(g.name === pick.game), 'data-game': g.name,
    onclick: () => {
      if (pick.game !== g.name) {
        pick.game = g.name;
        pick.options = {};
      }
      on.redrawCards();
      on.redrawForm();
    },
  }, emblem(g.name), h('span', { class: 'gc-title' }, g.title), h('span', { class: 'gc-sum' }, g.summary)));
}

/**
 * A way to play (`value` a mode), off but for the same screen in a solitaire.
 * @param {HomeState} hs
 * @param {HomeActions} on
 * @param {string} value
 * @param {string} title
 * @param {string} text
 * @returns {HTMLElement}
 */
function modeCard(hs, on, value, title, text) {
  const { pick } = hs;
  return h('button', {
    type: 'button', role: 'radio', class: ['mode-card', pick.mode === value ? 'on' : ''], 'aria-checked': String(pick.mode === value), 'data-mode': value,
    disabled: solitaire(hs) && value !== 'same',
    onclick: () => { pick.mode = value; on.redrawForm(); },
  }, h('strong', {}, title), h('span', {}, text));
}

/**
 * The side the player takes.
 * @param {HomeState} hs
 * @param {HomeActions} on
 * @returns {HTMLElement}
 */
function seatPickView(hs, on) {
  const { pick } = hs;
  return h('div', { class: 'seat-pick' }, h('span', { class: 'opt-label' }, 'You play'),
    h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Your seat' },
      [['first', `${colourOf(hs, 'first')} (moves first)`], ['second', colourOf(hs, 'second')], ['random', 'Random']].map(([v, t]) => h('button', {
        type: 'button', role: 'radio', class: ['seg', pick.seat === v ? 'on' : ''], 'aria-checked': String(pick.seat === v), 'data-seat': v,
        onclick: () => { pick.seat = v; on.redrawForm(); },
      }, t))));
}

/**
 * The computer's level.
 * @param {HomeState} hs
 * @returns {HTMLElement}
 */
function levelView(hs) {
  const { pick } = hs;
  const levelOut = h('output', { for: 'level', class: 'level-out' }, String(pick.level));
  return h('div', { class: 'level-pick' },
    h('label', { for: 'level', class: 'opt-label' }, 'Computer level'),
    h('div', { class: 'level-row' },
      h('span', { class: 'lv-end' }, 'easy'),
      h('input', { id: 'level', type: 'range', min: LEVELS.min, max: LEVELS.max, step: 1, value: pick.level, oninput: (ev) => { pick.level = Number(ev.target.value); levelOut.textContent = ev.target.value; } }),
      h('span', { class: 'lv-end' }, 'strong'), levelOut),
    h('div', { class: 'opt-desc' }, 'Levels 1–6 think briefly; 7–10 take up to a few seconds a move.'));
}

/**
 * The advanced fields: the seed and, where the game has a position text, the start position.
 * @param {HomeState} hs
 * @param {any} g the game in the catalog
 * @returns {HTMLElement}
 */
function advancedView(hs, g) {
  const { pick } = hs;
  return h('details', { class: 'options advanced' }, h('summary', {}, 'Advanced'),
    h('div', { class: 'opt-grid' },
      h('div', { class: 'opt' }, h('label', { for: 'seed', class: 'opt-label' }, 'seed'),
        h('input', { id: 'seed', type: 'number', min: 0, step: 1, value: pick.seed, placeholder: 'random', onchange: (ev) => { pick.seed = ev.target.value; } }),
        h('div', { class: 'opt-desc' }, 'Random set-ups and the computer follow this number; the same seed gives the same game.')),
      g.has_position_text ? h('div', { class: 'opt opt-wide' }, h('label', { for: 'position', class: 'opt-label' }, 'start position'),
        h('input', { id: 'position', type: 'text', value: pick.position, placeholder: 'position text (see the rules page)', onchange: (ev) => { pick.position = ev.target.value.trim(); } }),
        h('div', { class: 'opt-desc' }, 'Start from a position written in the game\'s position text.')) : null));
}

/**
 * What the set-up form holds for the game picked: its title and links, how to play, the level,
 * side and clock where they apply, its options, the advanced fields and the start button.
 * @param {HomeState} hs
 * @param {HomeActions} on
 * @returns {(HTMLElement | null)[]}
 */
export function formView(hs, on) {
  const { pick } = hs;
  const g = info(hs);
  const opts = g.options.map((spec) => optionControl(spec, pick.options[spec.name] ?? spec.default, (v) => {
    if (v === spec.default) delete pick.options[spec.name];
    else pick.options[spec.name] = v;
    if (spec.name === 'mode' || spec.name === 'first') on.redrawForm();
  }));
  const mode = solitaire(hs) ? 'same' : pick.mode;
  const seatPick = seatPickView(hs, on);
  const level = levelView(hs);
  // A clock for games against the computer or a friend (not on one screen).
  const clock = clockPicker(pick.clock, (c) => { pick.clock = c; });
  const err = h('div', { class: 'form-error', role: 'alert' });
  const start = h('button', { type: 'button', class: 'btn btn-primary btn-big', id: 'start-game', onclick: () => on.create(err, start) }, 'Start game');
  return [
    h('h2', {}, `${g.title}`),
    h('p', { class: 'lead' }, g.summary, ' ', h('a', { href: `/rules/${g.name}` }, 'Read the rules'), ' or ',
      h('a', { href: `/learn/${g.name}`, id: 'home-learn' }, 'learn step by step'), '; ',
      h('a', { href: `/findings/${g.name}`, id: 'home-findings' }, 'how it plays'), '.'),
    h('div', { class: 'modes', role: 'radiogroup', 'aria-label': 'How to play' },
      modeCard(hs, on, 'computer', 'Against the computer', 'Pick a level and a side.'),
      modeCard(hs, on, 'same', solitaire(hs) ? 'Solitaire' : 'Same screen', solitaire(hs) ? 'One person removes for both colours.' : 'Two people take turns on this device.'),
      modeCard(hs, on, 'online', 'Online with a friend', 'Get an invite link to send.')),
    mode === 'computer' ? h('div', { class: 'mode-extra' }, level, seatPick, clock) : null,
    mode === 'online' ? h('div', { class: 'mode-extra' }, seatPick, clock) : null,
    g.options.length ? h('details', { class: 'options', open: Object.keys(pick.options).length > 0 || g.options.length <= 3 },
      h('summary', {}, 'Options'), h('div', { class: 'opt-grid' }, opts)) : null,
    advancedView(hs, g),
    h('div', { class: 'start-row' }, start),
    err,
  ];
}

/**
 * The recent games: each with its players, how it stands, whether it is the viewer's and when
 * it last moved.
 * @param {HomeState} hs
 * @param {any[]} list the games, newest first
 * @param {Set<string>} mine the games whose seats this browser holds
 * @returns {HTMLElement[]}
 */
export function recentView(hs, list, mine) {
  const titles = Object.fromEntries(hs.games.map((g) => [g.name, g.title]));
  return [h('div', { class: 'card-head' }, h('h2', {}, 'Recent games'), h('a', { href: '/games' }, 'All games')),
    h('ul', { class: 'recent-list' }, list.map((g) => h('li', {},
      h('a', { href: `/games/${g.id}`, 'data-game-id': g.id },
        h('strong', {}, titles[g.game] || g.game),
        h('span', { class: 'muted' }, playersText(g)),
        h('span', { class: ['pill', g.status === 'ongoing' ? 'pill-live' : ''] }, g.status === 'ongoing' ? `${count(g.moves, 'move')} · ${g.local && g.your_turn ? 'your turn' : 'playing'}` : finishedText(g)),
        g.local ? h('span', { class: 'pill pill-you pill-device', title: 'Kept in this browser only' }, 'on this device')
          : mine.has(g.id) || [g.seats.first_account, g.seats.second_account].some((a) => sameName(a, accountName())) ? h('span', { class: 'pill pill-you' }, 'you') : null,
        h('span', { class: 'muted small' }, ago(g.updated))))))];
}

/**
 * The players of a listed game in words; in a game kept here (`local`), the person is "You".
 * @param {any} g
 */
function playersText(g) {
  const [first, second] = listedSeats(g.seats);
  if (g.local && g.seat) (g.seat === 'first' ? first : second).account = 'You';
  return seatsText(first, second);
}

/**
 * A finished listed game's result; a game kept here whose result the engine could not work
 * out keeps its own words.
 * @param {any} g
 */
function finishedText(g) {
  if (g.local && !g.result && g.result_text) return cap(g.result_text);
  return resultText(g.result, g.termination, g.score);
}

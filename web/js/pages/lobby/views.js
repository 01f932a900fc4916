// The lobby's parts drawn from its state: the page's frame, a challenge in the list, the list,
// the way to sign in and the form to post a challenge. The buttons call what `on` gives.

import { h, cap, ago } from '../../util.js';
import { currentAccount } from '../../account.js';
import { optionControl } from '../home/options.js';
import { clockPicker, clockWords, clockSentence } from '../../clock.js';
import { colourSwatch, ratingText, ratingLong } from '../shared.js';
import { info, puzzleOnly, optionsWords, seatColours, ratedChoice } from './state.js';

/** @typedef {import('./state.js').LobbyState} LobbyState */

/**
 * What the lobby's controls do.
 * @typedef {object} LobbyActions
 * @property {(ch: any, btn: HTMLButtonElement) => void} accept
 * @property {(ch: any, btn: HTMLButtonElement) => void} cancel
 * @property {(err: HTMLElement, btn: HTMLButtonElement, label: string) => void} post
 * @property {() => void} redraw draws the form again
 * @property {() => void} focusName puts the focus in the field of the player's name
 */

/**
 * The page: its head with the links, the list of challenges and, beside it, `side`.
 * @param {HTMLElement} side
 * @param {HTMLElement} listNote
 * @param {HTMLElement} list
 * @returns {HTMLElement}
 */
export function lobbyView(side, listNote, list) {
  return h('section', { class: 'page lobby' },
    h('div', { class: 'page-head' },
      h('h1', {}, 'Play online'),
      h('p', { class: 'head-note' },
        h('a', { href: '#lobby-side', class: 'lobby-jump', onclick: (ev) => { ev.preventDefault(); side.scrollIntoView({ behavior: 'smooth', block: 'start' }); } }, 'Post a challenge'), h('span', { class: 'lobby-jump' }, ' · '),
        h('a', { href: '/ratings', id: 'lobby-ratings' }, 'Ratings'), ' · ',
        h('a', { href: '/games?status=ongoing', id: 'lobby-watch' }, 'Watch games'), ' · ',
        h('a', { href: '/' }, 'Play on this device'))),
    h('div', { class: 'lobby-grid' },
      h('div', { class: 'lobby-main' },
        h('div', { class: 'card-head' }, h('h2', {}, 'Open challenges'), h('span', { class: 'live-tag', title: 'New challenges appear here as they are posted' }, 'live')),
        listNote, list),
      side));
}

// ---- the challenges ----

/**
 * Who posted challenge `ch`, with their rating in its game.
 * @param {LobbyState} ls
 * @param {any} ch
 * @returns {HTMLElement}
 */
function whoView(ls, ch) {
  const r = ch.rating;
  return h('span', { class: 'ch-who' },
    h('a', { href: `/players/${encodeURIComponent(ch.by)}`, class: 'ch-name' }, ch.by),
    r ? h('span', { class: 'ch-rating', title: `${ls.infos[ch.game] ? ls.infos[ch.game].title : ''} rating ${ratingLong(r)}` }, ratingText(r)) : null);
}

/**
 * The colours of challenge `ch`.
 * @param {any} ch
 * @param {any} info its game in the catalog
 * @returns {HTMLElement}
 */
function colourView(ch, info) {
  if (ch.seat === 'random' || !ch.colour) {
    return h('span', { class: 'ch-colour' }, ch.seat === 'random' ? 'random colours' : 'colours chosen in the game');
  }
  // The server names the author's colour; the other is the game's other colour.
  const other = ((info && info.colours) || []).find((c) => c !== ch.colour);
  const text = ch.yours ? `you play ${cap(ch.colour)}` : `plays ${cap(ch.colour)}${other ? ` (you: ${cap(other)})` : ''}`;
  return h('span', { class: 'ch-colour' }, colourSwatch(ch.colour, ch.game), text);
}

/**
 * Challenge `ch` in the list, with its button to accept or withdraw it.
 * @param {LobbyState} ls
 * @param {LobbyActions} on
 * @param {any} ch
 * @returns {HTMLElement}
 */
function challengeView(ls, on, ch) {
  const info = ls.infos[ch.game];
  const opts = optionsWords(ch, info);
  const me = currentAccount();
  const toYou = ch.opponent && me && ch.opponent.toLowerCase() === me.name.toLowerCase();
  /** @type {HTMLElement | null} */
  let act = null;
  if (ch.yours) {
    act = h('button', { type: 'button', class: 'btn', id: `cancel-${ch.id}`, onclick: (ev) => on.cancel(ch, ev.currentTarget) }, 'Cancel');
  } else if (ch.acceptable && me) {
    act = h('button', { type: 'button', class: 'btn btn-primary', id: `accept-${ch.id}`, onclick: (ev) => on.accept(ch, ev.currentTarget) }, 'Accept');
  }
  return h('li', { class: ['challenge', ch.yours ? 'challenge-yours' : '', toYou ? 'challenge-to-you' : ''], 'data-challenge-id': ch.id },
    h('div', { class: 'ch-words' },
      h('div', { class: 'ch-top' },
        h('strong', { class: 'ch-game' }, ch.title || (info ? info.title : ch.game)),
        h('span', { class: 'ch-clock', title: clockSentence(ch.time_control) }, cap(clockWords(ch.time_control))),
        h('span', { class: ['pill', ch.rated ? 'pill-rated' : 'pill-casual'] }, ch.rated ? 'Rated' : 'Casual')),
      h('div', { class: 'ch-meta' },
        ch.yours ? h('span', { class: 'ch-who' }, h('strong', {}, 'Your challenge')) : whoView(ls, ch),
        colourView(ch, info),
        ch.opponent ? h('span', { class: 'ch-to' }, toYou ? 'for you' : `for ${ch.opponent}`) : null,
        h('span', { class: 'ch-when', title: new Date(ch.created).toLocaleString() }, ago(ch.created))),
      opts.length ? h('div', { class: 'ch-opts' }, opts.map((o) => h('span', { class: 'ch-opt', title: o.title }, o.text))) : null,
      ch.yours ? h('div', { class: 'ch-wait muted small' }, ch.opponent ? `Waiting for ${ch.opponent} to accept: the game opens here when they do.` : 'Waiting for someone to accept: the game opens here when they do.') : null),
    act ? h('div', { class: 'ch-act' }, act) : null);
}

/**
 * What the list shows: a wait, a word that there is none, or the challenges, the viewer's own
 * and those made to them first.
 * @param {LobbyState} ls
 * @param {LobbyActions} on
 * @returns {HTMLElement}
 */
export function listView(ls, on) {
  const { challenges } = ls;
  if (!challenges) return h('p', { class: 'muted' }, 'Loading…');
  if (!challenges.length) {
    return h('p', { class: 'empty', id: 'lobby-empty' }, 'No open challenges right now. ',
      currentAccount() ? 'Post one: it appears here for everyone.' : 'Sign in to post one.');
  }
  const me = currentAccount();
  const mine = (c) => (c.yours ? 0 : me && c.opponent && c.opponent.toLowerCase() === me.name.toLowerCase() ? 1 : 2);
  const sorted = [...challenges].sort((a, b) => mine(a) - mine(b));
  return h('ul', { class: 'challenges' }, sorted.map((ch) => challengeView(ls, on, ch)));
}

// ---- the form ----

/**
 * What the side shows signed out.
 * @returns {HTMLElement}
 */
export function signInView() {
  return h('div', { class: 'card lobby-signin', id: 'lobby-signin' },
    h('h2', {}, 'Sign in to play'),
    h('p', {}, 'With an account you can post a challenge, accept one, and get a rating in each game. You can watch the challenges come and go without one.'),
    h('p', {}, h('a', { class: 'btn btn-primary', href: '/account?next=/lobby', id: 'lobby-signin-link' }, 'Sign in or create an account')));
}

/**
 * A segmented choice: `items` as [value, text], `value` on; `onPick(value)` on a click.
 * @param {string} label
 * @param {string} id
 * @param {string[][]} items
 * @param {string} value
 * @param {(v: string) => void} onPick
 * @returns {HTMLElement}
 */
function segmented(label, id, items, value, onPick) {
  return h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': label, id },
    items.map(([v, t]) => h('button', {
      type: 'button', role: 'radio', class: ['seg', v === value ? 'on' : ''], 'aria-checked': String(v === value), 'data-value': v,
      onclick: () => onPick(v),
    }, t)));
}

/**
 * The field of the name of the player challenged (hidden unless one is).
 * @param {LobbyState} ls
 * @returns {HTMLElement}
 */
function nameFieldView(ls) {
  const { pick } = ls;
  return h('div', { class: 'field lobby-name', hidden: pick.opponent !== 'player' },
    h('label', { for: 'lobby-opponent-name' }, 'Player\'s name'),
    h('input', {
      id: 'lobby-opponent-name', type: 'text', value: pick.name, autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', maxlength: 20,
      oninput: (ev) => { pick.name = ev.target.value.trim(); },
    }));
}

/**
 * The computer's level (hidden unless the opponent is the computer).
 * @param {LobbyState} ls
 * @returns {HTMLElement}
 */
function levelView(ls) {
  const { pick, levels } = ls;
  const levelOut = h('output', { for: 'lobby-level', class: 'level-out' }, String(pick.level));
  return h('div', { class: 'level-pick', hidden: pick.opponent !== 'computer' },
    h('label', { for: 'lobby-level', class: 'opt-label' }, 'Computer level'),
    h('div', { class: 'level-row' },
      h('span', { class: 'lv-end' }, 'easy'),
      h('input', { id: 'lobby-level', type: 'range', min: levels.min, max: levels.max, step: 1, value: pick.level, oninput: (ev) => { pick.level = Number(ev.target.value); levelOut.textContent = ev.target.value; } }),
      h('span', { class: 'lv-end' }, 'strong'), levelOut));
}

/**
 * The switch of rated or casual, remembered by the browser.
 * @param {LobbyState} ls
 * @returns {HTMLElement}
 */
function ratedView(ls) {
  const { pick } = ls;
  return h('div', { class: 'opt lobby-rated' },
    h('label', { class: 'switch' },
      h('input', { id: 'lobby-rated', type: 'checkbox', checked: pick.rated, onchange: (ev) => { pick.rated = ev.target.checked; ratedChoice.set(pick.rated); } }),
      h('span', { class: 'switch-track' }), h('span', { class: 'switch-text' }, 'Rated')),
    h('div', { class: 'opt-desc' }, 'A rated game counts for both players\' ratings in this game.'));
}

/**
 * The form of a new challenge: the game, the opponent, the colour, rated, the clock, the
 * game's options (those of a puzzle left out) and the button that posts it.
 * @param {LobbyState} ls
 * @param {LobbyActions} on
 * @returns {HTMLElement}
 */
export function formView(ls, on) {
  const { pick, cat } = ls;
  const g = info(ls);
  const vsComputer = pick.opponent === 'computer';
  const cols = seatColours(g, pick.options);
  const colourName = (i) => (cols[i] ? cap(cols[i]) : i === 0 ? 'First' : 'Second');
  const specs = g.options.filter((spec) => !puzzleOnly(g, spec));
  const opts = specs.map((spec) => optionControl(spec, pick.options[spec.name] ?? spec.default, (v) => {
    if (v === spec.default) delete pick.options[spec.name];
    else pick.options[spec.name] = v;
    if (spec.name === 'first') on.redraw();
  }));
  const err = h('div', { class: 'form-error', role: 'alert', id: 'lobby-error' });
  const postLabel = vsComputer ? 'Play the computer' : pick.opponent === 'player' ? 'Send the challenge' : 'Post the challenge';
  const post = h('button', { type: 'submit', class: 'btn btn-primary btn-big', id: 'lobby-post' }, postLabel);
  return h('form', {
    class: 'card lobby-form', id: 'lobby-form', novalidate: true, 'aria-labelledby': 'lobby-form-title',
    onsubmit: (ev) => {
      ev.preventDefault();
      on.post(err, post, postLabel);
    },
  },
  h('h2', { id: 'lobby-form-title' }, 'New challenge'),
  h('div', { class: 'opt' }, h('span', { class: 'opt-label' }, 'Game'),
    segmented('Game', 'lobby-game', cat.games.map((x) => [x.name, x.title]), pick.game, (v) => {
      if (v !== pick.game) {
        pick.game = v;
        pick.options = {};
      }
      on.redraw();
    })),
  h('div', { class: 'opt' }, h('span', { class: 'opt-label' }, 'Opponent'),
    segmented('Opponent', 'lobby-opponent', [['anyone', 'Anyone'], ['player', 'A player'], ['computer', 'The computer']], pick.opponent, (v) => {
      pick.opponent = v;
      on.redraw();
      if (v === 'player') on.focusName();
    }),
    nameFieldView(ls), levelView(ls)),
  h('div', { class: 'opt' }, h('span', { class: 'opt-label' }, 'You play'),
    segmented('Your colour', 'lobby-seat', [['first', `${colourName(0)} (moves first)`], ['second', colourName(1)], ['random', 'Random']], pick.seat, (v) => {
      pick.seat = v;
      on.redraw();
    })),
  vsComputer ? null : ratedView(ls),
  clockPicker(pick.clock, (c) => { pick.clock = c; }, { id: 'lobby-clock' }),
  specs.length ? h('details', { class: 'options', open: Object.keys(pick.options).length > 0 },
    h('summary', {}, 'Options'), h('div', { class: 'opt-grid' }, opts)) : null,
  h('div', { class: 'start-row' }, post),
  err);
}

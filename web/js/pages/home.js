// The start page: choose a game, its options (generated from the catalog's schema), and how to
// play: on this screen, against the computer, or online with an invite link.

import { h, s, mount, cap, ago, count } from '../util.js';
import { api, catalog, seats } from '../api.js';
import { go } from '../nav.js';
import { seatsText, listedSeats, resultText } from './shared.js';
import { emblem } from '../games/emblems.js';
import { accountName, sameName, claimGame } from '../account.js';
import { clockPicker } from '../clock.js';

const LEVELS = { min: 1, max: 10, def: 3 };

/** A small number in words ("four"), larger ones in figures. */
function countWord(n) {
  return ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'][n] || String(n);
}

/**
 * The control of one option of the catalog's schema (a segmented choice, a list, a switch, a
 * number or a text) with its label and description; `onChange(value)` with the value as a string.
 */
export function optionControl(spec, value, onChange) {
  const id = `opt-${spec.name}`;
  const v = spec.values;
  const name = spec.label || spec.name;
  const label = h('label', { for: id, class: 'opt-label' }, name);
  const desc = h('div', { class: 'opt-desc' }, spec.description);
  let control;
  if (v.kind === 'choice') {
    if (v.choices.length <= 4) {
      control = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': name, id },
        v.choices.map((c) => h('button', {
          type: 'button', role: 'radio', class: ['seg', c === value ? 'on' : ''], 'aria-checked': String(c === value), 'data-value': c,
          onclick: (ev) => {
            for (const b of ev.target.parentElement.children) {
              b.classList.toggle('on', b === ev.target);
              b.setAttribute('aria-checked', String(b === ev.target));
            }
            onChange(c);
          },
        }, c)));
    } else {
      control = h('select', { id, onchange: (ev) => onChange(ev.target.value) },
        v.choices.map((c) => h('option', { value: c, selected: c === value }, c)));
    }
  } else if (v.kind === 'bool') {
    control = h('label', { class: 'switch' },
      h('input', { id, type: 'checkbox', checked: value === 'true', onchange: (ev) => onChange(String(ev.target.checked)) }),
      h('span', { class: 'switch-track' }), h('span', { class: 'switch-text' }, value === 'true' ? 'on' : 'off'));
    control.querySelector('input').addEventListener('change', (ev) => {
      control.querySelector('.switch-text').textContent = ev.target.checked ? 'on' : 'off';
    });
  } else if (v.kind === 'int') {
    control = h('input', { id, type: 'number', min: v.min, max: v.max, step: 1, value, inputmode: 'numeric', onchange: (ev) => onChange(ev.target.value) });
  } else if (v.kind === 'intor') {
    const isWord = value === v.word;
    const num = h('input', { type: 'number', min: v.min, max: v.max, step: 1, value: isWord ? '' : value, disabled: isWord, placeholder: `${v.min}–${v.max}`, 'aria-label': `${name}: a number`, onchange: (ev) => onChange(ev.target.value) });
    const chk = h('input', { id, type: 'checkbox', checked: isWord, onchange: (ev) => { num.disabled = ev.target.checked; onChange(ev.target.checked ? v.word : num.value || String(v.min)); } });
    control = h('div', { class: 'intor' }, h('label', {}, chk, ` ${v.word}`), num);
  } else {
    control = h('input', { id, type: 'text', value: value || '', placeholder: v.accepted, onchange: (ev) => onChange(ev.target.value.trim()) });
  }
  return h('div', { class: 'opt' }, label, control, desc);
}

export async function homePage(root, query) {
  root.className = 'home-root';
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'Cannot reach the server'), h('p', { class: 'error-text' }, e.message)));
    return null;
  }
  const games = cat.games;
  if (cat.levels) {
    LEVELS.min = cat.levels.min ?? LEVELS.min;
    LEVELS.max = cat.levels.max ?? LEVELS.max;
    LEVELS.def = cat.levels.default ?? LEVELS.def;
  }
  const pick = {
    game: games.some((g) => g.name === query.get('game')) ? query.get('game') : games[0].name,
    options: {},
    mode: ['same', 'computer', 'online'].includes(query.get('mode')) ? query.get('mode') : 'computer',
    level: 0,
    seat: ['first', 'second', 'random'].includes(query.get('seat')) ? query.get('seat') : 'first',
    seed: '',
    position: '',
    clock: query.get('clock') || '',
  };
  for (const [k, v] of query) if (k.startsWith('o.')) pick.options[k.slice(2)] = v;
  pick.level = Math.min(LEVELS.max, Math.max(LEVELS.min, Number(query.get('level')) || LEVELS.def));

  const cards = h('div', { class: 'game-cards', role: 'radiogroup', 'aria-label': 'Game' });
  const form = h('div', { class: 'setup' });
  const recent = h('div', { class: 'recent-mini' });

  function info() {
    return games.find((g) => g.name === pick.game);
  }

  function renderCards() {
    mount(cards, games.map((g) => h('button', {
      type: 'button', role: 'radio', class: ['game-card', g.name === pick.game ? 'on' : ''], 'aria-checked': String(g.name === pick.game), 'data-game': g.name,
      onclick: () => {
        if (pick.game !== g.name) {
          pick.game = g.name;
          pick.options = {};
        }
        renderCards();
        renderForm();
      },
    }, emblem(g.name), h('span', { class: 'gc-title' }, g.title), h('span', { class: 'gc-sum' }, g.summary))));
  }

  function solitaire() {
    return pick.options.mode === 'solitaire';
  }

  function colourOf(seat) {
    const g = info();
    const cols = [...(g.colours || [])];
    // A game whose `first` option names the colour that moves first gives it to the first seat.
    const first = pick.options.first;
    if (first && cols.includes(first)) cols.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
    return cols.length ? cap(cols[seat === 'first' ? 0 : 1]) : seat;
  }

  function renderForm() {
    const g = info();
    const opts = g.options.map((spec) => optionControl(spec, pick.options[spec.name] ?? spec.default, (v) => {
      if (v === spec.default) delete pick.options[spec.name];
      else pick.options[spec.name] = v;
      if (spec.name === 'mode' || spec.name === 'first') renderForm();
    }));
    const modeCard = (value, title, text) => h('button', {
      type: 'button', role: 'radio', class: ['mode-card', pick.mode === value ? 'on' : ''], 'aria-checked': String(pick.mode === value), 'data-mode': value,
      disabled: solitaire() && value !== 'same',
      onclick: () => { pick.mode = value; renderForm(); },
    }, h('strong', {}, title), h('span', {}, text));
    const mode = solitaire() ? 'same' : pick.mode;
    const seatPick = h('div', { class: 'seat-pick' }, h('span', { class: 'opt-label' }, 'You play'),
      h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Your seat' },
        [['first', `${colourOf('first')} (moves first)`], ['second', colourOf('second')], ['random', 'Random']].map(([v, t]) => h('button', {
          type: 'button', role: 'radio', class: ['seg', pick.seat === v ? 'on' : ''], 'aria-checked': String(pick.seat === v), 'data-seat': v,
          onclick: () => { pick.seat = v; renderForm(); },
        }, t))));
    const levelOut = h('output', { for: 'level', class: 'level-out' }, String(pick.level));
    const level = h('div', { class: 'level-pick' },
      h('label', { for: 'level', class: 'opt-label' }, 'Computer level'),
      h('div', { class: 'level-row' },
        h('span', { class: 'lv-end' }, 'easy'),
        h('input', { id: 'level', type: 'range', min: LEVELS.min, max: LEVELS.max, step: 1, value: pick.level, oninput: (ev) => { pick.level = Number(ev.target.value); levelOut.textContent = ev.target.value; } }),
        h('span', { class: 'lv-end' }, 'strong'), levelOut),
      h('div', { class: 'opt-desc' }, 'Levels 1–6 think briefly; 7–10 take up to a few seconds a move.'));
    // A clock for games against the computer or a friend (not on one screen).
    const clock = clockPicker(pick.clock, (c) => { pick.clock = c; });
    const err = h('div', { class: 'form-error', role: 'alert' });
    const start = h('button', { type: 'button', class: 'btn btn-primary btn-big', id: 'start-game', onclick: () => create(err, start) }, 'Start game');
    mount(form,
      h('h2', {}, `${g.title}`),
      h('p', { class: 'lead' }, g.summary, ' ', h('a', { href: `/rules/${g.name}` }, 'Read the rules'), ' or ',
        h('a', { href: `/learn/${g.name}`, id: 'home-learn' }, 'learn step by step'), '; ',
        h('a', { href: `/findings/${g.name}`, id: 'home-findings' }, 'how it plays'), '.'),
      h('div', { class: 'modes', role: 'radiogroup', 'aria-label': 'How to play' },
        modeCard('computer', 'Against the computer', 'Pick a level and a side.'),
        modeCard('same', solitaire() ? 'Solitaire' : 'Same screen', solitaire() ? 'One person removes for both colours.' : 'Two people take turns on this device.'),
        modeCard('online', 'Online with a friend', 'Get an invite link to send.')),
      mode === 'computer' ? h('div', { class: 'mode-extra' }, level, seatPick, clock) : null,
      mode === 'online' ? h('div', { class: 'mode-extra' }, seatPick, clock) : null,
      g.options.length ? h('details', { class: 'options', open: Object.keys(pick.options).length > 0 || g.options.length <= 3 },
        h('summary', {}, 'Options'), h('div', { class: 'opt-grid' }, opts)) : null,
      h('details', { class: 'options advanced' }, h('summary', {}, 'Advanced'),
        h('div', { class: 'opt-grid' },
          h('div', { class: 'opt' }, h('label', { for: 'seed', class: 'opt-label' }, 'seed'),
            h('input', { id: 'seed', type: 'number', min: 0, step: 1, value: pick.seed, placeholder: 'random', onchange: (ev) => { pick.seed = ev.target.value; } }),
            h('div', { class: 'opt-desc' }, 'Random set-ups and the computer follow this number; the same seed gives the same game.')),
          g.has_position_text ? h('div', { class: 'opt opt-wide' }, h('label', { for: 'position', class: 'opt-label' }, 'start position'),
            h('input', { id: 'position', type: 'text', value: pick.position, placeholder: 'position text (see the rules page)', onchange: (ev) => { pick.position = ev.target.value.trim(); } }),
            h('div', { class: 'opt-desc' }, 'Start from a position written in the game\'s position text.')) : null)),
      h('div', { class: 'start-row' }, start),
      err);
  }

  async function create(err, btn) {
    err.textContent = '';
    const mode = solitaire() ? 'same' : pick.mode;
    let mySeat = pick.seat === 'random' ? (Math.random() < 0.5 ? 'first' : 'second') : pick.seat;
    const body = { game: pick.game, options: { ...pick.options }, seats: { first: 'human', second: 'human' } };
    if (mode === 'same') body.same_screen = true;
    if (mode === 'computer') body.seats[mySeat === 'first' ? 'second' : 'first'] = `computer:level:${pick.level}`;
    if (pick.seed !== '') body.seed = Number(pick.seed);
    if (pick.position) body.position = pick.position;
    if (pick.clock && mode !== 'same') body.clock = pick.clock;
    btn.disabled = true;
    btn.textContent = 'Starting…';
    try {
      const res = await api.create(body);
      const tokens = {};
      if (mode === 'online') {
        tokens[mySeat] = res.tokens[mySeat];
        const other = mySeat === 'first' ? 'second' : 'first';
        tokens.invite = { seat: other, token: res.tokens[other] };
      } else {
        Object.assign(tokens, res.tokens);
      }
      seats.set(res.id, tokens);
      // Signed in: the seats this browser keeps become the account's (never the invite's).
      if (accountName()) {
        btn.textContent = 'Adding to your games…';
        await claimGame(res.id, tokens);
      }
      go(`/games/${res.id}`);
    } catch (e) {
      err.textContent = e.message;
      btn.disabled = false;
      btn.textContent = 'Start game';
    }
  }

  async function loadRecent() {
    const mine = new Set(seats.mine());
    try {
      const { games: list } = await api.list({ limit: 8 });
      const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
      if (!list.length) {
        mount(recent);
        return;
      }
      mount(recent, h('div', { class: 'card-head' }, h('h2', {}, 'Recent games'), h('a', { href: '/games' }, 'All games')),
        h('ul', { class: 'recent-list' }, list.map((g) => h('li', {},
          h('a', { href: `/games/${g.id}` },
            h('strong', {}, titles[g.game] || g.game),
            h('span', { class: 'muted' }, seatsText(...listedSeats(g.seats))),
            h('span', { class: ['pill', g.status === 'ongoing' ? 'pill-live' : ''] }, g.status === 'ongoing' ? `${count(g.moves, 'move')} · playing` : resultText(g.result, g.termination)),
            mine.has(g.id) || [g.seats.first_account, g.seats.second_account].some((a) => sameName(a, accountName())) ? h('span', { class: 'pill pill-you' }, 'you') : null,
            h('span', { class: 'muted small' }, ago(g.updated)))))));
    } catch {
      mount(recent);
    }
  }

  mount(root,
    h('section', { class: 'hero' },
      h('h1', {}, 'Play abstract strategy games'),
      h('p', {}, `${cap(countWord(cat.games.length))} games with exact rules: play on one screen, against the computer, or online with a friend.`),
      h('p', { class: 'hero-links' }, 'New to a game? ', h('a', { href: '/learn' }, 'Learn it step by step'), ', or try the ', h('a', { href: '/puzzles' }, 'Sight Reduction puzzles'), '.')),
    h('section', { class: 'page home' }, cards, h('div', { class: 'home-grid' }, h('div', { class: 'card setup-card' }, form), recent)));
  renderCards();
  renderForm();
  loadRecent();
  document.title = 'boardlab';
  return null;
}

// The lobby ("Play online"): the open challenges, kept live, each with who posted it (and
// their rating in that game), the game, its options, colours, rated or casual and the clock,
// to accept or withdraw; and the form to post one: to anyone, to a named player, or a game
// against the computer at once.

import { h, mount, cap, ago, toast } from '../util.js';
import { api, catalog } from '../api.js';
import { go } from '../nav.js';
import { currentAccount, onAccount, onChallengeStarted, refreshGames } from '../account.js';
import { optionControl } from './home.js';
import { clockPicker, clockWords, clockSentence } from '../clock.js';
import { colourSwatch, ratingText, ratingLong } from './shared.js';

/**
 * Options of a game's one-person mode (a puzzle): not for a challenge.
 * @param {{ solitaire_options: string[] }} game the game in the catalog
 * @param {{ name: string }} spec one of its options
 */
function puzzleOnly(game, spec) {
  return game.solitaire_options.includes(spec.name);
}

/** An option's value in words: on / off for switches, the value otherwise. */
function valueWords(v) {
  if (v === 'true' || v === true) return 'on';
  if (v === 'false' || v === false) return 'off';
  return String(v);
}

/** The options of a challenge that differ from the game's defaults, by their labels. */
function optionsWords(ch, info) {
  const specs = (info && info.options) || [];
  const out = [];
  for (const spec of specs) {
    const v = ch.options ? ch.options[spec.name] : undefined;
    if (v === undefined || v === null || String(v) === String(spec.default)) continue;
    out.push({ text: `${spec.label || 'Option'}: ${valueWords(v)}`, title: spec.description });
  }
  return out;
}

/** The colours of a game's seats, in seat order (a `first` option names the colour moving first). */
function seatColours(info, options = {}) {
  const cols = [...((info && info.colours) || [])];
  const first = options.first;
  if (first && cols.includes(first)) cols.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
  return cols;
}

/** The last choice of rated or casual, kept by the browser: the next challenge starts with it. */
const ratedChoice = {
  key: 'boardlab:lobby-rated',
  get() {
    try {
      return localStorage.getItem(this.key) === 'true';
    } catch {
      return false;
    }
  },
  set(on) {
    try {
      localStorage.setItem(this.key, String(!!on));
    } catch {
      // without storage the choice lasts while the page is open
    }
  },
};

export async function lobbyPage(root) {
  root.className = 'lobby-root';
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    mount(root, h('section', { class: 'page narrow' }, h('h1', {}, 'Cannot reach the server'), h('p', { class: 'error-text' }, e.message)));
    return null;
  }
  const infos = Object.fromEntries(cat.games.map((g) => [g.name, g]));
  const levels = { min: 1, max: 10, def: 3, ...(cat.levels ? { min: cat.levels.min ?? 1, max: cat.levels.max ?? 10, def: cat.levels.default ?? 3 } : {}) };
  const pick = { game: cat.games[0].name, options: {}, seat: 'random', rated: ratedChoice.get(), clock: '', opponent: 'anyone', name: '', level: levels.def };
  let closed = false;
  /** @type {any[] | null} */
  let challenges = null; // the last listing
  let listError = '';

  const list = h('div', { id: 'lobby-list', class: 'lobby-list', 'aria-live': 'polite' });
  const listNote = h('div', { class: 'form-error', role: 'alert', id: 'lobby-list-error' });
  const side = h('div', { class: 'lobby-side', id: 'lobby-side' });

  mount(root, h('section', { class: 'page lobby' },
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
      side)));
  document.title = 'Play online · boardlab';

  // ---- the challenges ----

  function who(ch) {
    const r = ch.rating;
    return h('span', { class: 'ch-who' },
      h('a', { href: `/players/${encodeURIComponent(ch.by)}`, class: 'ch-name' }, ch.by),
      r ? h('span', { class: 'ch-rating', title: `${infos[ch.game] ? infos[ch.game].title : ''} rating ${ratingLong(r)}` }, ratingText(r)) : null);
  }

  function colourPart(ch, info) {
    if (ch.seat === 'random' || !ch.colour) {
      return h('span', { class: 'ch-colour' }, ch.seat === 'random' ? 'random colours' : 'colours chosen in the game');
    }
    // The server names the author's colour; the other is the game's other colour.
    const other = ((info && info.colours) || []).find((c) => c !== ch.colour);
    const text = ch.yours ? `you play ${cap(ch.colour)}` : `plays ${cap(ch.colour)}${other ? ` (you: ${cap(other)})` : ''}`;
    return h('span', { class: 'ch-colour' }, colourSwatch(ch.colour, ch.game), text);
  }

  function row(ch) {
    const info = infos[ch.game];
    const opts = optionsWords(ch, info);
    const me = currentAccount();
    const toYou = ch.opponent && me && ch.opponent.toLowerCase() === me.name.toLowerCase();
    /** @type {HTMLElement | null} */
    let act = null;
    if (ch.yours) {
      act = h('button', { type: 'button', class: 'btn', id: `cancel-${ch.id}`, onclick: (ev) => cancel(ch, ev.currentTarget) }, 'Cancel');
    } else if (ch.acceptable && me) {
      act = h('button', { type: 'button', class: 'btn btn-primary', id: `accept-${ch.id}`, onclick: (ev) => accept(ch, ev.currentTarget) }, 'Accept');
    }
    return h('li', { class: ['challenge', ch.yours ? 'challenge-yours' : '', toYou ? 'challenge-to-you' : ''], 'data-challenge-id': ch.id },
      h('div', { class: 'ch-words' },
        h('div', { class: 'ch-top' },
          h('strong', { class: 'ch-game' }, ch.title || (info ? info.title : ch.game)),
          h('span', { class: 'ch-clock', title: clockSentence(ch.time_control) }, cap(clockWords(ch.time_control))),
          h('span', { class: ['pill', ch.rated ? 'pill-rated' : 'pill-casual'] }, ch.rated ? 'Rated' : 'Casual')),
        h('div', { class: 'ch-meta' },
          ch.yours ? h('span', { class: 'ch-who' }, h('strong', {}, 'Your challenge')) : who(ch),
          colourPart(ch, info),
          ch.opponent ? h('span', { class: 'ch-to' }, toYou ? 'for you' : `for ${ch.opponent}`) : null,
          h('span', { class: 'ch-when', title: new Date(ch.created).toLocaleString() }, ago(ch.created))),
        opts.length ? h('div', { class: 'ch-opts' }, opts.map((o) => h('span', { class: 'ch-opt', title: o.title }, o.text))) : null,
        ch.yours ? h('div', { class: 'ch-wait muted small' }, ch.opponent ? `Waiting for ${ch.opponent} to accept: the game opens here when they do.` : 'Waiting for someone to accept: the game opens here when they do.') : null),
      act ? h('div', { class: 'ch-act' }, act) : null);
  }

  function drawList() {
    listNote.textContent = listError;
    if (!challenges) {
      mount(list, h('p', { class: 'muted' }, 'Loading…'));
      return;
    }
    if (!challenges.length) {
      mount(list, h('p', { class: 'empty', id: 'lobby-empty' }, 'No open challenges right now. ',
        currentAccount() ? 'Post one: it appears here for everyone.' : 'Sign in to post one.'));
      return;
    }
    // The viewer's own and those made to them first.
    const me = currentAccount();
    const mine = (c) => (c.yours ? 0 : me && c.opponent && c.opponent.toLowerCase() === me.name.toLowerCase() ? 1 : 2);
    const sorted = [...challenges].sort((a, b) => mine(a) - mine(b));
    mount(list, h('ul', { class: 'challenges' }, sorted.map(row)));
  }

  /** @type {Promise<void> | null} */
  let loading = null;
  let again = false;
  async function load() {
    if (loading) {
      again = true;
      return;
    }
    loading = api.lobby().then((res) => {
      const before = challenges || [];
      const listed = /** @type {any[]} */ (res.challenges || []);
      challenges = listed;
      listError = '';
      // A challenge of the player's gone without being withdrawn here was most likely accepted:
      // the live channel says so at once; if its word was missed (a reconnection), the new
      // game is looked for among the player's games.
      const now = new Set(listed.map((c) => c.id));
      for (const c of before) if (c.yours && !now.has(c.id) && !withdrawn.has(c.id)) lookForGame(c);
    }).catch((e) => {
      listError = `Cannot load the challenges: ${e.message}`;
    }).finally(() => {
      loading = null;
      if (closed) return;
      drawList();
      if (again) {
        again = false;
        load();
      }
    });
  }

  const withdrawn = new Set();

  /** Goes to the game a vanished challenge `c` of the player's started, if there is one. */
  function lookForGame(c) {
    setTimeout(async () => {
      if (closed) return;
      try {
        const res = await api.myGames({ game: c.game, result: 'ongoing', limit: 10 });
        const g = res.games.find((x) => x.opponent_player === 'human' && Date.parse(x.created) >= Date.parse(c.created));
        if (g && !closed) go(`/games/${g.id}`);
      } catch {
        // the list stays; the player's games are a click away
      }
    }, 2500);
  }

  async function accept(ch, btn) {
    listError = '';
    btn.disabled = true;
    btn.textContent = 'Starting…';
    try {
      const res = await api.accept(ch.id);
      refreshGames();
      go(`/games/${res.game}`);
    } catch (e) {
      listError = cap(e.status === 404 ? `${e.message} (accepted by someone else, withdrawn or expired)` : e.message);
      load();
      drawList();
    }
  }

  async function cancel(ch, btn) {
    listError = '';
    btn.disabled = true;
    try {
      withdrawn.add(ch.id);
      await api.cancelChallenge(ch.id);
      toast('Challenge withdrawn.', 'ok');
    } catch (e) {
      listError = cap(e.message);
    }
    load();
  }

  // ---- the form ----

  function info() {
    return infos[pick.game];
  }

  function segmented(label, id, items, value, onPick) {
    return h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': label, id },
      items.map(([v, t]) => h('button', {
        type: 'button', role: 'radio', class: ['seg', v === value ? 'on' : ''], 'aria-checked': String(v === value), 'data-value': v,
        onclick: () => onPick(v),
      }, t)));
  }

  function drawForm() {
    const acc = currentAccount();
    for (const e of root.querySelectorAll('.lobby-jump')) e.hidden = !acc;
    if (!acc) {
      mount(side, h('div', { class: 'card lobby-signin', id: 'lobby-signin' },
        h('h2', {}, 'Sign in to play'),
        h('p', {}, 'With an account you can post a challenge, accept one, and get a rating in each game. You can watch the challenges come and go without one.'),
        h('p', {}, h('a', { class: 'btn btn-primary', href: '/account?next=/lobby', id: 'lobby-signin-link' }, 'Sign in or create an account'))));
      return;
    }
    const g = info();
    const vsComputer = pick.opponent === 'computer';
    const cols = seatColours(g, pick.options);
    const colourName = (i) => (cols[i] ? cap(cols[i]) : i === 0 ? 'First' : 'Second');
    const specs = g.options.filter((spec) => !puzzleOnly(g, spec));
    const opts = specs.map((spec) => optionControl(spec, pick.options[spec.name] ?? spec.default, (v) => {
      if (v === spec.default) delete pick.options[spec.name];
      else pick.options[spec.name] = v;
      if (spec.name === 'first') drawForm();
    }));
    const err = h('div', { class: 'form-error', role: 'alert', id: 'lobby-error' });
    const postLabel = vsComputer ? 'Play the computer' : pick.opponent === 'player' ? 'Send the challenge' : 'Post the challenge';
    const post = h('button', { type: 'submit', class: 'btn btn-primary btn-big', id: 'lobby-post' }, postLabel);
    const nameField = h('div', { class: 'field lobby-name', hidden: pick.opponent !== 'player' },
      h('label', { for: 'lobby-opponent-name' }, 'Player\'s name'),
      h('input', {
        id: 'lobby-opponent-name', type: 'text', value: pick.name, autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', maxlength: 20,
        oninput: (ev) => { pick.name = ev.target.value.trim(); },
      }));
    const levelOut = h('output', { for: 'lobby-level', class: 'level-out' }, String(pick.level));
    const level = h('div', { class: 'level-pick', hidden: !vsComputer },
      h('label', { for: 'lobby-level', class: 'opt-label' }, 'Computer level'),
      h('div', { class: 'level-row' },
        h('span', { class: 'lv-end' }, 'easy'),
        h('input', { id: 'lobby-level', type: 'range', min: levels.min, max: levels.max, step: 1, value: pick.level, oninput: (ev) => { pick.level = Number(ev.target.value); levelOut.textContent = ev.target.value; } }),
        h('span', { class: 'lv-end' }, 'strong'), levelOut));
    const form = h('form', {
      class: 'card lobby-form', id: 'lobby-form', novalidate: true, 'aria-labelledby': 'lobby-form-title',
      onsubmit: (ev) => {
        ev.preventDefault();
        postChallenge(err, post, postLabel);
      },
    },
    h('h2', { id: 'lobby-form-title' }, 'New challenge'),
    h('div', { class: 'opt' }, h('span', { class: 'opt-label' }, 'Game'),
      segmented('Game', 'lobby-game', cat.games.map((x) => [x.name, x.title]), pick.game, (v) => {
        if (v !== pick.game) {
          pick.game = v;
          pick.options = {};
        }
        drawForm();
      })),
    h('div', { class: 'opt' }, h('span', { class: 'opt-label' }, 'Opponent'),
      segmented('Opponent', 'lobby-opponent', [['anyone', 'Anyone'], ['player', 'A player'], ['computer', 'The computer']], pick.opponent, (v) => {
        pick.opponent = v;
        drawForm();
        if (v === 'player') /** @type {HTMLElement} */ (side.querySelector('#lobby-opponent-name')).focus();
      }),
      nameField, level),
    h('div', { class: 'opt' }, h('span', { class: 'opt-label' }, 'You play'),
      segmented('Your colour', 'lobby-seat', [['first', `${colourName(0)} (moves first)`], ['second', colourName(1)], ['random', 'Random']], pick.seat, (v) => {
        pick.seat = v;
        drawForm();
      })),
    vsComputer ? null : h('div', { class: 'opt lobby-rated' },
      h('label', { class: 'switch' },
        h('input', { id: 'lobby-rated', type: 'checkbox', checked: pick.rated, onchange: (ev) => { pick.rated = ev.target.checked; ratedChoice.set(pick.rated); } }),
        h('span', { class: 'switch-track' }), h('span', { class: 'switch-text' }, 'Rated')),
      h('div', { class: 'opt-desc' }, 'A rated game counts for both players\' ratings in this game.')),
    clockPicker(pick.clock, (c) => { pick.clock = c; }, { id: 'lobby-clock' }),
    specs.length ? h('details', { class: 'options', open: Object.keys(pick.options).length > 0 },
      h('summary', {}, 'Options'), h('div', { class: 'opt-grid' }, opts)) : null,
    h('div', { class: 'start-row' }, post),
    err);
    mount(side, form);
  }

  async function postChallenge(err, btn, label) {
    err.textContent = '';
    const body = { game: pick.game, options: { ...pick.options }, seat: pick.seat };
    // Options that make a puzzle are not offered; their values are left to the defaults.
    for (const spec of info().options) if (puzzleOnly(info(), spec)) delete body.options[spec.name];
    if (pick.clock) body.clock = pick.clock;
    if (pick.opponent === 'computer') {
      body.opponent = `computer:level:${pick.level}`;
    } else {
      body.rated = pick.rated;
      if (pick.opponent === 'player') {
        if (!pick.name) {
          err.textContent = 'Enter the name of the player to challenge.';
          /** @type {HTMLElement} */ (side.querySelector('#lobby-opponent-name')).focus();
          return;
        }
        body.opponent = pick.name;
      }
    }
    btn.disabled = true;
    btn.textContent = pick.opponent === 'computer' ? 'Starting…' : 'Posting…';
    try {
      const res = await api.challenge(body);
      if (res.game) {
        refreshGames();
        go(`/games/${res.game}`);
        return;
      }
      toast(pick.opponent === 'player' ? `Challenge sent to ${pick.name}.` : 'Challenge posted: it waits for an opponent here.', 'ok');
      btn.disabled = false;
      btn.textContent = label;
      load();
    } catch (e) {
      err.textContent = cap(e.message);
      btn.disabled = false;
      btn.textContent = label;
    }
  }

  // ---- live ----

  /** @type {EventSource | null} */
  let source = null;
  if (typeof EventSource === 'function') {
    source = new EventSource('/api/lobby/live');
    // `hello` on every (re)connection: what changed meanwhile is fetched then.
    source.addEventListener('hello', () => load());
    source.addEventListener('lobby', () => load());
  }
  drawList();
  drawForm();
  load();
  // A challenge of the player's accepted while this page is shown: to the game at once.
  const stopStarted = onChallengeStarted((game) => {
    if (closed) return false;
    toast('Your challenge was accepted: the game starts.', 'ok');
    go(`/games/${game}`);
    return true;
  });
  const stopAccount = onAccount(() => {
    drawForm();
    load();
  });
  return () => {
    closed = true;
    if (source) source.close();
    stopStarted();
    stopAccount();
  };
}

// Time controls (docs/api.md, "Clocks"): the presets offered when a game or a challenge is
// made, a control in words ("5 min + 3 s", "3 days per move"), the time left as a clock shows
// it, and the picker used by the start page and the lobby.

import { h } from './util.js';

/** The time controls offered first: `M+S` (real time) or `Nd` (days per move); '' is none. */
export const CLOCK_PRESETS = ['', '1+0', '3+2', '5+3', '10+5', '15+10', '1d', '3d'];

/** "1 min 30 s" for a number of seconds. */
function secondsWords(total) {
  const t = Math.round(total);
  if (t < 60) return `${t} s`;
  const m = Math.floor(t / 60);
  const s = t % 60;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** A time control in words: "5 min + 3 s", "3 days per move", "no clock". */
export function clockWords(control) {
  if (!control) return 'no clock';
  const rt = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(control);
  if (rt) return `${secondsWords(Number(rt[1]) * 60)} + ${Number(rt[2])} s`;
  const d = /^(\d+)d$/.exec(control);
  if (d) return `${d[1]} day${d[1] === '1' ? '' : 's'} per move`;
  return control;
}

/** A longer sentence for a control, for a title or a screen reader. */
export function clockSentence(control) {
  if (!control) return 'No clock: take as long as you like.';
  const rt = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(control);
  if (rt) {
    const add = Number(rt[2]);
    return `${secondsWords(Number(rt[1]) * 60)} for the whole game${add ? `, and ${add} s more after each move` : ''}. Whoever runs out of time loses.`;
  }
  const d = /^(\d+)d$/.exec(control);
  if (d) return `Up to ${d[1]} day${d[1] === '1' ? '' : 's'} for each move. Whoever runs out of time loses.`;
  return control;
}

const pad = (n) => String(n).padStart(2, '0');

/**
 * The time left as a clock shows it: "4:53", "1:02:10", "0:09.4" under ten seconds; a
 * correspondence clock with an hour or more left in days, hours and minutes ("2 d 23 h"), the
 * hours always told under three days ("1 d 0 h"), where they matter.
 */
export function clockText(ms, kind = 'realtime') {
  const left = Math.max(0, ms);
  if (kind === 'correspondence' && left >= 3600000) {
    // By the minute, rounded up as the seconds are below: a fresh day shows "1 d".
    const mins = Math.ceil(left / 60000);
    const d = Math.floor(mins / 1440);
    const hr = Math.floor((mins % 1440) / 60);
    const min = mins % 60;
    if (d) return hr || d < 3 ? `${d} d ${hr} h` : `${d} d`;
    return min ? `${hr} h ${min} min` : `${hr} h`;
  }
  if (left < 10000) {
    const tenths = Math.floor(left / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.ceil(left / 1000);
  const hr = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  return hr ? `${hr}:${pad(min)}:${pad(sec)}` : `${min}:${pad(sec)}`;
}

/** The time left in words, for screen readers: "4 minutes 53 seconds", "2 days 23 hours". */
export function clockSpoken(ms, kind = 'realtime') {
  const left = Math.max(0, ms);
  const unit = (n, word) => (n ? `${n} ${word}${n === 1 ? '' : 's'}` : '');
  if (kind === 'correspondence' && left >= 3600000) {
    const mins = Math.ceil(left / 60000);
    const d = Math.floor(mins / 1440);
    const hr = Math.floor((mins % 1440) / 60);
    const min = mins % 60;
    return [unit(d, 'day'), unit(hr, 'hour'), d ? '' : unit(min, 'minute')].filter(Boolean).join(' ');
  }
  const total = Math.ceil(left / 1000);
  const hr = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  return [unit(hr, 'hour'), unit(min, 'minute'), unit(sec, 'second')].filter(Boolean).join(' ') || 'no time';
}

const CUSTOM_RT = 'custom-realtime';
const CUSTOM_DAYS = 'custom-days';

/**
 * The clock picker: a list of the presets and two ways to give another control (minutes for the
 * game plus seconds a move, or days a move). Calls `onChange(control)` with `M+S`, `Nd` or ''.
 */
export function clockPicker(value, onChange, { id = 'clock' } = {}) {
  let choice = CLOCK_PRESETS.includes(value || '') ? value || '' : /d$/.test(value) ? CUSTOM_DAYS : CUSTOM_RT;
  const rt = /^(\d+(?:\.\d+)?)\+(\d+)$/.exec(value || '');
  const dm = /^(\d+)d$/.exec(value || '');
  const minutes = /** @type {HTMLInputElement} */ (h('input', {
    id: `${id}-minutes`, type: 'number', min: 0.25, max: 180, step: 'any', value: rt ? rt[1] : '5', inputmode: 'decimal',
    'aria-label': 'Minutes for the whole game', oninput: () => emit(),
  }));
  const seconds = /** @type {HTMLInputElement} */ (h('input', {
    id: `${id}-seconds`, type: 'number', min: 0, max: 180, step: 1, value: rt ? rt[2] : '3', inputmode: 'numeric',
    'aria-label': 'Seconds added after each move', oninput: () => emit(),
  }));
  const days = /** @type {HTMLInputElement} */ (h('input', {
    id: `${id}-days`, type: 'number', min: 1, max: 14, step: 1, value: dm ? dm[1] : '2', inputmode: 'numeric',
    'aria-label': 'Days for each move', oninput: () => emit(),
  }));
  const customRt = h('div', { class: 'clock-custom', id: `${id}-custom-realtime` }, minutes, h('span', { 'aria-hidden': 'true' }, 'min +'), seconds, h('span', { 'aria-hidden': 'true' }, 's'));
  const customDays = h('div', { class: 'clock-custom', id: `${id}-custom-days` }, days, h('span', { 'aria-hidden': 'true' }, 'days a move'));
  const desc = h('div', { class: 'opt-desc', id: `${id}-desc` });
  const select = h('select', {
    id, 'aria-describedby': `${id}-desc`,
    onchange: (ev) => {
      choice = ev.target.value;
      emit();
    },
  },
  CLOCK_PRESETS.map((c) => h('option', { value: c, selected: c === choice }, c ? clockWords(c) : 'No clock')),
  h('option', { value: CUSTOM_RT, selected: choice === CUSTOM_RT }, 'Other: minutes + seconds…'),
  h('option', { value: CUSTOM_DAYS, selected: choice === CUSTOM_DAYS }, 'Other: days per move…'));

  function current() {
    if (choice === CUSTOM_RT) return `${minutes.value.trim() || '0'}+${seconds.value.trim() || '0'}`;
    if (choice === CUSTOM_DAYS) return `${days.value.trim() || '0'}d`;
    return choice;
  }

  function emit(tell = true) {
    customRt.hidden = choice !== CUSTOM_RT;
    customDays.hidden = choice !== CUSTOM_DAYS;
    const control = current();
    desc.textContent = clockSentence(control);
    if (tell) onChange(control);
  }
  emit(false);
  return h('div', { class: 'opt clock-pick' },
    h('label', { for: id, class: 'opt-label' }, 'Clock'),
    select, customRt, customDays, desc);
}

// Time controls (docs/api.md, "Clocks"): the presets offered when a game or a challenge is
// made, a control in words ("5 min + 3 s", "3 days per move"), the time left as a clock shows
// it, and the picker used by the start page and the lobby.

import { h } from './util.js';

/**
 * A time control in numbers, as the server gives it (`time_control` of a clock or a challenge).
 * @typedef {object} TimeControl
 * @property {'realtime' | 'correspondence'} kind
 * @property {number | null} initial_ms
 * @property {number | null} increment_ms
 * @property {number | null} per_move_ms
 */

const DAY_MS = 86400000;

/**
 * A real-time control of `minutes` for the game and `seconds` added a move.
 * @param {number} minutes
 * @param {number} seconds
 * @returns {TimeControl}
 */
function realTime(minutes, seconds) {
  return { kind: 'realtime', initial_ms: minutes * 60000, increment_ms: seconds * 1000, per_move_ms: null };
}

/**
 * A correspondence control of `days` a move.
 * @param {number} days
 * @returns {TimeControl}
 */
function perMove(days) {
  return { kind: 'correspondence', initial_ms: null, increment_ms: null, per_move_ms: days * DAY_MS };
}

/**
 * The time controls offered first, as the text a request names them by (`M+S` real time, `Nd`
 * days per move; '' is none) and in numbers.
 * @type {[string, TimeControl | null][]}
 */
const PRESETS = [
  ['', null], ['1+0', realTime(1, 0)], ['3+2', realTime(3, 2)], ['5+3', realTime(5, 3)],
  ['10+5', realTime(10, 5)], ['15+10', realTime(15, 10)], ['1d', perMove(1)], ['3d', perMove(3)],
];

/** "1 min 30 s" for a number of seconds. */
function secondsWords(total) {
  const t = Math.round(total);
  if (t < 60) return `${t} s`;
  const m = Math.floor(t / 60);
  const s = t % 60;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** "3 days" for a correspondence control. */
function daysWords(tc) {
  const d = Math.round((tc.per_move_ms || 0) / DAY_MS);
  return `${d} day${d === 1 ? '' : 's'}`;
}

/**
 * A time control in words: "5 min + 3 s", "3 days per move", "no clock".
 * @param {TimeControl | null | undefined} tc
 * @returns {string}
 */
export function clockWords(tc) {
  if (!tc) return 'no clock';
  if (tc.kind === 'correspondence') return `${daysWords(tc)} per move`;
  return `${secondsWords((tc.initial_ms || 0) / 1000)} + ${(tc.increment_ms || 0) / 1000} s`;
}

/**
 * A longer sentence for a control, for a title or a screen reader.
 * @param {TimeControl | null | undefined} tc
 * @returns {string}
 */
export function clockSentence(tc) {
  if (!tc) return 'No clock: take as long as you like.';
  if (tc.kind === 'correspondence') return `Up to ${daysWords(tc)} for each move. Whoever runs out of time loses.`;
  const add = (tc.increment_ms || 0) / 1000;
  return `${secondsWords((tc.initial_ms || 0) / 1000)} for the whole game${add ? `, and ${add} s more after each move` : ''}. Whoever runs out of time loses.`;
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
 * The numbers a custom control's fields start with, from the text a page was opened with
 * (`?clock=…`, which this app writes itself): `M+S` or `Nd`.
 * @param {string} value
 */
function customFields(value) {
  const fields = { minutes: '5', seconds: '3', days: '2' };
  if (value.endsWith('d')) {
    const days = value.slice(0, -1);
    if (days && Number.isInteger(Number(days))) fields.days = days;
  } else {
    const [minutes, seconds] = value.split('+');
    if (seconds !== undefined && Number.isFinite(Number(minutes)) && Number.isInteger(Number(seconds))) {
      fields.minutes = minutes;
      fields.seconds = seconds;
    }
  }
  return fields;
}

/**
 * The clock picker: a list of the presets and two ways to give another control (minutes for the
 * game plus seconds a move, or days a move). Calls `onChange(control)` with `M+S`, `Nd` or ''.
 * @param {string} value the control chosen first
 * @param {(control: string) => void} onChange
 * @param {{ id?: string }} [where]
 */
export function clockPicker(value, onChange, { id = 'clock' } = {}) {
  let choice = PRESETS.some(([text]) => text === (value || '')) ? value || '' : (value || '').endsWith('d') ? CUSTOM_DAYS : CUSTOM_RT;
  const start = customFields(value || '');
  const minutes = /** @type {HTMLInputElement} */ (h('input', {
    id: `${id}-minutes`, type: 'number', min: 0.25, max: 180, step: 'any', value: start.minutes, inputmode: 'decimal',
    'aria-label': 'Minutes for the whole game', oninput: () => emit(),
  }));
  const seconds = /** @type {HTMLInputElement} */ (h('input', {
    id: `${id}-seconds`, type: 'number', min: 0, max: 180, step: 1, value: start.seconds, inputmode: 'numeric',
    'aria-label': 'Seconds added after each move', oninput: () => emit(),
  }));
  const days = /** @type {HTMLInputElement} */ (h('input', {
    id: `${id}-days`, type: 'number', min: 1, max: 14, step: 1, value: start.days, inputmode: 'numeric',
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
  PRESETS.map(([c, tc]) => h('option', { value: c, selected: c === choice }, tc ? clockWords(tc) : 'No clock')),
  h('option', { value: CUSTOM_RT, selected: choice === CUSTOM_RT }, 'Other: minutes + seconds…'),
  h('option', { value: CUSTOM_DAYS, selected: choice === CUSTOM_DAYS }, 'Other: days per move…'));

  /** The control chosen, as the request names it and in numbers. */
  function current() {
    if (choice === CUSTOM_RT) {
      const [m, sec] = [minutes.value.trim() || '0', seconds.value.trim() || '0'];
      return { text: `${m}+${sec}`, tc: realTime(Number(m), Number(sec)) };
    }
    if (choice === CUSTOM_DAYS) {
      const d = days.value.trim() || '0';
      return { text: `${d}d`, tc: perMove(Number(d)) };
    }
    const preset = PRESETS.find(([text]) => text === choice);
    return { text: choice, tc: preset ? preset[1] : null };
  }

  function emit(tell = true) {
    customRt.hidden = choice !== CUSTOM_RT;
    customDays.hidden = choice !== CUSTOM_DAYS;
    const control = current();
    desc.textContent = clockSentence(control.tc);
    if (tell) onChange(control.text);
  }
  emit(false);
  return h('div', { class: 'opt clock-pick' },
    h('label', { for: id, class: 'opt-label' }, 'Clock'),
    select, customRt, customDays, desc);
}

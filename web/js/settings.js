// The reader's settings, kept in this browser, in one menu at the end of the top bar: the theme
// (the device's, light or dark), colour-blind-safe colours and the move sound. The theme and the
// colours are attributes of <html> (data-theme, data-palette) that the stylesheet follows;
// index.html sets them before the page is first drawn, so a reload does not flash.

import { h } from './util.js';
import { soundOn, setSound } from './sound.js';

const THEME = 'boardlab:theme';
const PALETTE = 'boardlab:colour-blind';

const THEMES = [['system', 'Same as this device'], ['light', 'Light'], ['dark', 'Dark']];

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Without storage the choice lasts while the page is open.
  }
}

/** The chosen theme: 'system' (the device's), 'light' or 'dark'. */
export function theme() {
  const t = read(THEME);
  return t === 'light' || t === 'dark' ? t : 'system';
}

/** Whether the colour-blind-safe colours are on. */
export function colourBlind() {
  return read(PALETTE) === 'on';
}

/** Sets <html>'s data-theme and data-palette from the stored choices. */
export function applySettings() {
  const root = document.documentElement;
  const t = theme();
  if (t === 'system') delete root.dataset.theme;
  else root.dataset.theme = t;
  if (colourBlind()) root.dataset.palette = 'colour-blind';
  else delete root.dataset.palette;
}

function setting(id, words, about, checked, onChange) {
  return h('div', { class: 'setting' },
    h('label', { class: 'switch' },
      h('input', { id, type: 'checkbox', checked, onchange: (ev) => onChange(ev.target.checked) }),
      h('span', { class: 'switch-track' }), h('span', {}, words)),
    h('p', { class: 'opt-desc' }, about));
}

/** Fills the top bar's settings menu (<details id="settings">) and keeps it in step. */
export function installSettings() {
  applySettings();
  // Another tab of this site changed a setting.
  window.addEventListener('storage', (ev) => {
    if (ev.key === THEME || ev.key === PALETTE || ev.key === null) applySettings();
  });
  const details = /** @type {HTMLDetailsElement | null} */ (document.getElementById('settings'));
  if (!details) return;
  const themes = h('fieldset', {},
    h('legend', {}, 'Theme'),
    h('div', { class: 'segmented' }, THEMES.map(([value, words]) => h('label', { class: 'seg' },
      h('input', {
        type: 'radio', name: 'theme', value, checked: theme() === value,
        onchange: () => { write(THEME, value === 'system' ? null : value); applySettings(); },
      }), words))));
  const palette = setting('set-colour-blind', 'Colour-blind-safe colours', 'Blue and orange in place of green and red, with shapes as well.',
    colourBlind(), (on) => { write(PALETTE, on ? 'on' : null); applySettings(); });
  const sound = setting('set-sound', 'Move sound', 'A soft click when a move is played.', soundOn(), setSound);
  details.append(h('div', { class: 'settings-menu', id: 'settings-menu' }, h('h2', {}, 'Settings'), themes, palette, sound));
  // Opening shows the stored choices (another tab may have changed them).
  details.addEventListener('toggle', () => {
    if (!details.open) return;
    for (const r of themes.querySelectorAll('input')) r.checked = r.value === theme();
    palette.querySelector('input').checked = colourBlind();
    sound.querySelector('input').checked = soundOn();
  });
  // A click elsewhere or Escape closes the menu.
  document.addEventListener('click', (ev) => {
    if (details.open && !details.contains(/** @type {Node | null} */ (ev.target))) details.open = false;
  });
  details.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Escape' || !details.open) return;
    details.open = false;
    /** @type {HTMLElement} */ (details.querySelector('summary')).focus();
    ev.stopPropagation();
  });
}

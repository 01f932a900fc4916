// The account's controls on the page: the person icon of the top bar, and the switches for
// notifications (one for pages, one in the settings menu).

import { h, mount } from '../util.js';
import { notificationsPossible, notifyOn, setNotify, onNotify } from './notify.js';

/** @typedef {import('../types.js').Account} Account */

const PERSON = 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5z';

/** The person of the top bar's account links. */
export function personIcon() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  p.setAttribute('d', PERSON);
  p.setAttribute('fill', 'currentColor');
  svg.append(p);
  return svg;
}

/**
 * A control for notifications, for pages: "Notify me when it is my turn" (asks the browser's
 * permission when pressed), or that they are on, with a way to turn them off.
 */
export function notifyControl() {
  const box = h('div', { class: 'notify-control', id: 'notify-control' });
  let note = '';
  const draw = () => {
    if (!notificationsPossible()) {
      mount(box);
      return;
    }
    if (notifyOn()) {
      mount(box, h('span', { class: 'notify-on' }, 'Notifications are on: you hear when a game waits for your move.'),
        h('button', { type: 'button', class: 'btn', id: 'btn-notify-off', onclick: async () => { await setNotify(false); draw(); } }, 'Turn off'));
      return;
    }
    mount(box, h('button', {
      type: 'button', class: 'btn', id: 'btn-notify',
      onclick: async () => {
        const res = await setNotify(true);
        note = res.why === 'blocked' ? 'The browser blocks notifications from this site: allow them in its site settings, then try again.' : '';
        draw();
      },
    }, 'Notify me when it is my turn'), note ? h('span', { class: 'notify-note', role: 'status' }, note) : null);
  };
  draw();
  // Follows the setting (changed in the settings menu) while the control is on the page.
  const stop = onNotify(() => {
    if (box.isConnected) draw();
    else stop();
  });
  return box;
}

// ---- the settings menu: notifications ----

/**
 * The settings menu's switch for notifications, shown while someone is signed in.
 * @param {boolean} signedIn
 * @param {(fn: (account: Account | null) => void) => unknown} onAccount
 */
export function installNotifySetting(signedIn, onAccount) {
  const menu = document.getElementById('settings-menu');
  if (!menu || !notificationsPossible()) return;
  const about = h('p', { class: 'opt-desc', id: 'notify-about' }, 'A browser notification when one of your games waits for your move.');
  const input = h('input', {
    id: 'set-notify', type: 'checkbox', checked: notifyOn(),
    onchange: async (ev) => {
      const res = await setNotify(ev.target.checked);
      ev.target.checked = res.on;
      about.textContent = res.why === 'blocked'
        ? 'The browser blocks notifications from this site: allow them in its site settings, then try again.'
        : 'A browser notification when one of your games waits for your move.';
    },
  });
  const row = h('div', { class: 'setting', id: 'notify-setting', hidden: !signedIn },
    h('label', { class: 'switch' }, input, h('span', { class: 'switch-track' }), h('span', {}, 'Notify me when it is my turn')), about);
  menu.append(row);
  onAccount((a) => {
    row.hidden = !a;
  });
  onNotify((on) => {
    input.checked = on;
  });
  /** @type {HTMLElement} */ (document.getElementById('settings')).addEventListener('toggle', () => {
    input.checked = notifyOn();
  });
}

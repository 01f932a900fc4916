// The account page: sign in or create an account (both optional: every game can be played
// without one), or, when signed in, the ways to one's games and to sign out.

import { h, mount, toast } from '../util.js';
import { go } from '../nav.js';
import { currentAccount, onAccount, signIn, signOut, notifyControl, notificationsPossible } from '../account.js';

/** Where to go after signing in: `?next=/path` on this site, else My games. */
function nextPath(query) {
  const next = query.get('next') || '';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/my-games';
}

function field(id, label, attrs, hint) {
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, name: attrs.autocomplete === 'username' ? 'username' : 'password', required: true, ...attrs }),
    hint ? h('div', { class: 'opt-desc', id: `${id}-hint` }, hint) : null);
}

const NAME_MAX = 20;
const NAME_HINT = `3 to ${NAME_MAX} letters, digits, _ or -`;

/** Says, as the name is typed, when it is longer than a name may be. */
function nameLength(input, form) {
  const hint = form.querySelector(`#${input.id}-hint`);
  if (!hint) return;
  const n = [...input.value.trim()].length;
  const over = n > NAME_MAX;
  hint.textContent = over ? `Too long: ${n} characters, and a name has at most ${NAME_MAX}.` : NAME_HINT;
  hint.classList.toggle('hint-error', over);
  input.setAttribute('aria-invalid', String(over));
}

function accountForm(kind, query) {
  const create = kind === 'signup';
  const err = h('div', { class: 'form-error', role: 'alert', id: `${kind}-error` });
  const button = h('button', { type: 'submit', class: ['btn', create ? '' : 'btn-primary'], id: `${kind}-submit` }, create ? 'Create account' : 'Sign in');
  const form = h('form', {
    class: 'card account-form', id: `${kind}-form`, novalidate: true, 'aria-labelledby': `${kind}-title`,
    onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = '';
      const name = form.querySelector(`#${kind}-name`).value.trim();
      const password = form.querySelector(`#${kind}-password`).value;
      if (!name || !password) {
        err.textContent = 'Enter a name and a password.';
        return;
      }
      if (create && [...name].length > NAME_MAX) {
        err.textContent = `A name has at most ${NAME_MAX} characters; this one has ${[...name].length}.`;
        form.querySelector(`#${kind}-name`).focus();
        return;
      }
      button.disabled = true;
      button.textContent = create ? 'Creating…' : 'Signing in…';
      try {
        const res = await signIn(name, password, create);
        const added = res.claimed ? ` ${res.claimed} game${res.claimed === 1 ? '' : 's'} from this browser added to your account.` : '';
        toast(`${create ? 'Welcome' : 'Signed in as'} ${res.account.name}.${added}`, 'ok', 4500);
        go(nextPath(query), true);
      } catch (e) {
        // The server's own words: wrong name or password, a name taken, a wait after too many
        // tries (a 429 `rate_limited` says how long itself), too many passwords checked at once.
        let text = e.message || String(e);
        if (e.status === 429 && e.retryAfter && e.code !== 'rate_limited') text += ` (try again in ${e.retryAfter} s)`;
        err.textContent = text.charAt(0).toUpperCase() + text.slice(1);
        button.disabled = false;
        button.textContent = create ? 'Create account' : 'Sign in';
        form.querySelector(e.status === 409 ? `#${kind}-name` : `#${kind}-password`).focus();
      }
    },
  },
  h('h2', { id: `${kind}-title` }, create ? 'New here? Create an account' : 'Sign in'),
  // No maxlength: a longer name is not cut short without a word, the limit is said instead.
  field(`${kind}-name`, 'Name', {
    type: 'text', autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', 'aria-describedby': create ? `${kind}-name-hint` : null,
    oninput: create ? (ev) => nameLength(ev.target, form) : null,
  }, create ? NAME_HINT : null),
  field(`${kind}-password`, 'Password', { type: 'password', autocomplete: create ? 'new-password' : 'current-password', maxlength: 128, 'aria-describedby': create ? `${kind}-password-hint` : null },
    create ? 'At least 8 characters' : null),
  h('div', { class: 'form-row' }, button),
  err);
  return form;
}

function signedOutView(query) {
  return h('section', { class: 'page narrow account-page' },
    h('h1', {}, 'Sign in'),
    h('p', { class: 'lead account-lead' }, 'An account is optional. With one, your games follow you to any browser, ',
      h('strong', {}, 'My games'), ' shows where it is your move, and you get a player page. The games this browser holds are added when you sign in.'),
    h('div', { class: 'account-forms' }, accountForm('signin', query), accountForm('signup', query)));
}

function signedInView(acc) {
  const out = h('div', { class: 'form-error', role: 'alert', id: 'signout-error' });
  const everywhere = h('button', {
    type: 'button', class: 'btn btn-danger', id: 'btn-signout-everywhere',
    onclick: async () => {
      out.textContent = '';
      everywhere.disabled = true;
      try {
        const res = await signOut(true);
        const n = res && res.sessions_ended;
        toast(n ? `Signed out everywhere (${n} session${n === 1 ? '' : 's'} ended).` : 'Signed out everywhere.', 'ok', 4500);
      } catch (e) {
        out.textContent = e.message;
        everywhere.disabled = false;
      }
    },
  }, 'Sign out everywhere');
  return h('section', { class: 'page narrow account-page' },
    h('h1', {}, 'Your account'),
    h('p', { class: 'lead' }, 'Signed in as ', h('a', { href: `/players/${encodeURIComponent(acc.name)}`, id: 'account-player-link' }, h('strong', {}, acc.name)), '.'),
    h('div', { class: 'account-links' },
      h('a', { class: 'btn btn-primary', href: '/my-games', id: 'account-my-games' }, 'My games', h('span', { class: 'turn-badge', hidden: true, 'aria-hidden': 'true' }, '0')),
      h('a', { class: 'btn', href: `/players/${encodeURIComponent(acc.name)}` }, 'Your player page')),
    notificationsPossible() ? h('div', { class: 'card account-card' }, h('h2', {}, 'Notifications'), notifyControl()) : null,
    h('div', { class: 'card account-card' },
      h('h2', {}, 'Sign out'),
      h('div', { class: 'account-out' },
        h('button', {
          type: 'button', class: 'btn', id: 'btn-signout',
          onclick: async () => {
            try {
              await signOut(false);
              toast('Signed out.', 'ok');
            } catch (e) {
              out.textContent = e.message;
            }
          },
        }, 'Sign out'),
        everywhere),
      h('p', { class: 'opt-desc' }, 'Sign out everywhere ends your sessions in every browser and on every device, this one too: use it after signing in on a computer that is not yours.'),
      out));
}

export async function accountPage(root, query) {
  root.className = 'account-root';
  const draw = () => {
    const acc = currentAccount();
    mount(root, acc ? signedInView(acc) : signedOutView(query));
    document.title = acc ? 'Your account · boardlab' : 'Sign in · boardlab';
    // The badge follows the count the top bar keeps.
    const top = /** @type {HTMLElement | null} */ (document.querySelector('#account-bar .turn-badge'));
    const mine = root.querySelector('.turn-badge');
    if (top && mine) {
      mine.textContent = top.textContent;
      mine.hidden = top.hidden;
    }
    const first = root.querySelector('#signin-name');
    if (first && !matchMedia('(pointer: coarse)').matches) first.focus();
  };
  draw();
  // Signed in or out meanwhile (here or in another tab).
  return onAccount(() => draw());
}

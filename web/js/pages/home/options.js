// The control of one option of a game, drawn from the catalog's schema: the start page and the
// lobby both offer a game's options with it.

import { h } from '../../util.js';

/**
 * The control of one option of the catalog's schema (a segmented choice, a list, a switch, a
 * number or a text) with its label and description; `onChange(value)` with the value as a string.
 * @param {any} spec the option in the catalog
 * @param {string} value
 * @param {(value: string) => void} onChange
 * @returns {HTMLElement}
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

// The tutorial page's parts, each drawn from what it is given: the way back, the step dots,
// the step's title, the buttons and the page at the end.

import { h } from '../../util.js';

/**
 * How the tutorial went, in one sentence: steps done alone, with a hint, or shown ("You worked
 * through all 6 steps: 4 on your own, 1 with a hint, 1 shown.").
 * @param {string[]} marks
 * @param {number} total
 * @returns {string}
 */
function endWords(marks, total) {
  const n = (mark) => marks.filter((d) => d === mark).length;
  const alone = n('solved');
  if (alone === total) return `You worked through all ${total} steps, every one on your own.`;
  const parts = [`${alone} on your own`];
  if (n('hinted')) parts.push(`${n('hinted')} with a hint`);
  if (n('shown')) parts.push(`${n('shown')} shown`);
  return `You worked through all ${total} steps: ${parts.join(', ')}.`;
}

/**
 * The way back: all tutorials, and the game's rules.
 * @param {string} game
 * @param {string} title the tutorial's title
 * @returns {(HTMLElement|string)[]}
 */
export function crumbsView(game, title) {
  return [h('a', { href: '/learn' }, 'Tutorials'), ' · ', h('a', { href: `/rules/${game}` }, `${title} rules`)];
}

/**
 * A dot for each step (`load` opens it), marked with how it was done.
 * @param {any[]} steps
 * @param {number} index the step shown
 * @param {Record<string, string>} done how each step was done
 * @param {(i: number) => void} load
 * @returns {HTMLElement[]}
 */
export function dotsView(steps, index, done, load) {
  return steps.map((x, i) => {
    const mark = done[i];
    return h('li', {}, h('button', {
      type: 'button', class: ['step-dot', i === index ? 'on' : '', mark ? `dot-${mark}` : ''],
      'aria-label': `Step ${i + 1}: ${x.title}${mark === 'solved' ? ' (done)' : mark === 'hinted' ? ' (done with a hint)' : ''}`, 'aria-current': i === index ? 'step' : null,
      title: x.title, onclick: () => load(i),
    }, mark === 'solved' || mark === 'hinted' ? '✓' : String(i + 1)));
  });
}

/**
 * What the buttons do.
 * @typedef {object} StepActions
 * @property {() => void} hint
 * @property {() => void} show
 * @property {() => void} again
 * @property {() => void} next
 */

/**
 * The buttons: hint, show me, try again, and next (finish at the last step).
 * @param {string} state 'play' | 'solved' | 'shown' | 'busy'
 * @param {boolean} last the last step is shown
 * @param {StepActions} on
 * @returns {HTMLElement[]}
 */
export function buttonsView(state, last, on) {
  const btn = (label, attrs) => h('button', { type: 'button', class: 'btn', ...attrs }, label);
  const playing = state === 'play';
  return [
    btn('Hint', { id: 'btn-hint', disabled: !playing, onclick: on.hint }),
    btn('Show me', { id: 'btn-show', disabled: !playing, onclick: on.show }),
    btn('Try again', { id: 'btn-again', disabled: state === 'busy' || playing, onclick: on.again }),
    btn(last ? 'Finish' : 'Next', {
      id: 'btn-next', class: ['btn', state === 'solved' || state === 'shown' ? 'btn-primary' : ''],
      disabled: state === 'busy', onclick: on.next,
    })];
}

/**
 * The page at the end of the tutorial: how it went, and where to go next (`again` starts it
 * over).
 * @param {string} game
 * @param {any} tutorial
 * @param {Record<string, string>} done how each step was done
 * @param {() => void} again
 * @returns {HTMLElement}
 */
export function endView(game, tutorial, done, again) {
  return h('section', { class: 'page narrow learn-end' },
    h('h1', {}, `${tutorial.title}: tutorial complete`),
    h('p', { class: 'lead', id: 'learn-summary' }, endWords(Object.values(done), tutorial.steps.length)),
    h('div', { class: 'start-row' },
      h('a', { class: 'btn btn-primary', href: `/?game=${game}` }, `Play ${tutorial.title}`),
      game === 'sight-reduction' ? h('a', { class: 'btn', href: '/puzzles' }, 'Puzzles') : null,
      h('a', { class: 'btn', href: `/rules/${game}` }, 'Full rules'),
      h('button', { type: 'button', class: 'btn', onclick: again }, 'Start again')),
    h('p', {}, h('a', { href: '/learn' }, 'Other tutorials')));
}

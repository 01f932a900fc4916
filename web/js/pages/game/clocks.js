// The clocks of the player bars, kept running between the states the server sends.

import { cap } from '../../util.js';
import { clockText, clockSpoken } from '../../clock.js';
import { refresh } from './connection.js';

/** The time `seat` has left now (ms): its time in the state, less what has run since. */
function timeLeft(ps, seat) {
  const { state } = ps;
  const c = state.clock;
  const left = c[`${seat}_ms`];
  if (typeof left !== 'number') return null;
  return c.running === seat && state.status === 'ongoing' ? left - (performance.now() - ps.receivedAt) : left;
}

/**
 * Shows both clocks as they stand now and plans the next update: every tenth of a second
 * under a minute of real time, else when the second (or, by the day, the minute) shown changes.
 * @param {import('./state.js').Page} pg
 */
export function tickClocks(pg) {
  const { ps } = pg;
  clearTimeout(pg.tickTimer);
  if (!ps.state || ps.closed || !ps.state.clock) return;
  const state = ps.state;
  const c = state.clock;
  let next = 0;
  for (const seat of ['first', 'second']) {
    const span = pg.clockEls[seat];
    const left = timeLeft(ps, seat);
    if (!span || left === null) continue;
    const running = c.running === seat && state.status === 'ongoing';
    const text = clockText(left, c.kind);
    if (span.textContent !== text) span.textContent = text;
    span.classList.toggle('clock-running', running);
    span.classList.toggle('clock-low', c.kind === 'realtime' && left < 10000 && (running || left <= 0));
    span.classList.toggle('clock-out', left <= 0);
    const colour = state.seats[seat].colour;
    const label = `${colour ? `${cap(colour)}'s clock` : 'Clock'}: ${clockSpoken(left, c.kind)} left${running ? ', running' : ''}`;
    if (span.getAttribute('aria-label') !== label) span.setAttribute('aria-label', label);
    if (!running) continue;
    if (left <= 0) {
      // Out of time: the server flags the game and says so; ask once if no word comes.
      if (ps.flagAsked !== state.version) {
        ps.flagAsked = state.version;
        setTimeout(() => {
          if (!ps.closed && ps.state && ps.state.status === 'ongoing' && ps.state.version === ps.flagAsked) refresh(pg);
        }, 2000);
      }
      continue;
    }
    next = c.kind === 'realtime' && left < 60000 ? 100 : (left % 1000) + 20;
  }
  if (next) pg.tickTimer = setTimeout(() => tickClocks(pg), next);
}

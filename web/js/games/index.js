// The adapter of each game: how clicks become moves, and which cells a move touches.

import sightReduction from './sight-reduction.js';
import obsidio from './obsidio.js';
import opprimo from './opprimo.js';
import assideum from './assideum.js';
import { cellsIn } from './common.js';

const ADAPTERS = {
  'sight-reduction': sightReduction,
  obsidio,
  opprimo,
  assideum,
};

/** A fallback for a game without an adapter: moves are typed or chosen from buttons. */
const generic = {
  name: 'generic',
  parse: () => null,
  buttonLabel: (m) => m,
  lastCells: (m, board) => cellsIn(m, board),
};

export function adapterFor(game) {
  return ADAPTERS[game] || generic;
}

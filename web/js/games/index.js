// Drawing styles of the games that have one beyond what the board description says. The rules,
// the move clicks and the words come from the server with each position (the game's own
// presentation); a game without an entry here is drawn from its board description alone.

import obsidio from './obsidio.js';

const STYLES = {
  obsidio,
  // Sight Reduction removes pieces where they stand (a pair is two clicks, neither piece goes
  // anywhere): nothing to drag.
  'sight-reduction': { drag: false },
};

export function stylesFor(game) {
  return STYLES[game] || {};
}

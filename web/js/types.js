// Shapes of the server's JSON (docs/api.md) that several modules read, for the type check
// only (JSDoc, nothing at run time). Fields a module does not read are left out.

/**
 * The signed-in account, as GET /api/account answers it.
 * @typedef {{name: string}} Account
 */

/**
 * A line of GET /api/account/games (a line of GET /api/games plus the player's view of it).
 * @typedef {object} MyGame
 * @property {string} id
 * @property {string} game the game's key (`obsidio`)
 * @property {string | null} [seat] the player's seat; null when they hold both
 * @property {string | null} [opponent] the opponent's account name
 * @property {string | null} [opponent_player] `human` or `computer:SPEC`
 * @property {import('./pages/shared.js').Computer | null} [opponent_computer] the computer
 *   playing the other seat; null for a person
 * @property {boolean} [your_turn]
 * @property {string} [outcome] `won`, `lost`, `drawn` or `ongoing`
 * @property {number} [moves]
 */

/**
 * GET /api/account/games: the player's games, theirs to move first.
 * @typedef {object} MyGamesListing
 * @property {number} [your_turn] how many games wait for the player
 * @property {MyGame[]} games
 */

/**
 * News on the account's live channel (the `games` event's data), or passed between tabs:
 * `{game, started}` when a challenge was accepted, `{challenge, from, title}` when a player
 * challenged this one by name.
 * @typedef {object} LiveNews
 * @property {string} [game]
 * @property {boolean} [started]
 * @property {string} [challenge]
 * @property {string} [from]
 * @property {string} [title]
 */

export {};

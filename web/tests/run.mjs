// Browser tests of the boardlab web UI: starts a real server (the built binary, a loopback
// port, a temporary SQLite database), drives Debian's Chromium headless with playwright-core,
// and saves screenshots of every board.
//
//   node web/tests/run.mjs [--bin PATH] [--artifacts DIR] [--only NAME] [--chromium PATH] [--dev]
//
// --bin: the boardlab binary (runs `serve`), or boardlab-server; default: the first of
// target/release/boardlab-server, target/release/boardlab, target/debug/… that exists.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { drawnPictures, compareWithCommitted } from './figures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const argv = process.argv.slice(2);
const arg = (name, def) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : def;
};

const artifacts = path.resolve(repo, arg('--artifacts', 'target/ui-artifacts'));
const only = arg('--only', process.env.UI_TEST_ONLY || '');
const chromiumPath = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function findBinary() {
  const given = arg('--bin', process.env.BOARDLAB_BIN || '');
  const candidates = given ? [given] : [
    'target/release/boardlab-server', 'target/release/boardlab',
    'target/debug/boardlab-server', 'target/debug/boardlab',
  ];
  for (const c of candidates) {
    const p = path.resolve(repo, c);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`no server binary found (tried ${candidates.join(', ')}); build it or pass --bin`);
}

// ---------------------------------------------------------------- server

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'boardlab-ui-'));
const dbFile = path.join(tmp, 'games.db');
const bin = findBinary();
let port = 0;
let server = null;
let serverLog = '';

async function startServer() {
  const base = path.basename(bin);
  const args = base.startsWith('boardlab-server') ? [] : ['serve'];
  args.push('--addr', `127.0.0.1:${port}`, '--database', `sqlite://${dbFile}`);
  // The account tests sign up and in a dozen times within a minute from one address.
  args.push('--logins-per-minute', '120');
  if (dev) args.push('--web-dir', path.resolve(here, '..'));
  server = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: 'warn' } });
  const grab = (d) => {
    serverLog += d.toString();
    if (serverLog.length > 200000) serverLog = serverLog.slice(-100000);
  };
  server.stdout.on('data', grab);
  server.stderr.on('data', grab);
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${serverLog}`);
    try {
      const r = await fetch(`${origin()}/api/health`);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`the server did not start:\n${serverLog}`);
}

async function stopServer(signal = 'SIGTERM') {
  if (!server || server.exitCode !== null) return;
  const done = new Promise((r) => server.once('exit', r));
  server.kill(signal);
  await Promise.race([done, sleep(10000)]);
}

const origin = () => `http://127.0.0.1:${port}`;
// --dev: the server reads the web/ folder holding this script (`serve --web-dir`), so edits to
// the app need no rebuild, and a binary built from another checkout serves this one's app.
const dev = argv.includes('--dev');
const pageOrigin = () => origin();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function apiGet(p) {
  const r = await fetch(origin() + p);
  if (!r.ok) throw new Error(`GET ${p}: ${r.status} ${await r.text()}`);
  return r.json();
}

// ---------------------------------------------------------------- browser

const browsers = [];

/**
 * A fresh browser with its own profile directory (its own storage). `options` go to Playwright's
 * context: `{ colorScheme: 'dark' }` for a device set to dark, `hasTouch`, `reducedMotion`…
 */
async function newBrowser(viewport = { width: 1280, height: 900 }, options = {}) {
  const dir = fs.mkdtempSync(path.join(tmp, 'profile-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    acceptDownloads: true,
    // Service workers only where a test asks for them (`serviceWorkers: 'allow'`).
    serviceWorkers: 'block',
    ...options,
  });
  browsers.push(ctx);
  ctx.setDefaultTimeout(15000);
  const page = ctx.pages()[0] || (await ctx.newPage());
  page.on('pageerror', (e) => pageErrors.push(`${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource|WebSocket connection/.test(m.text())) pageErrors.push(`console: ${m.text()}`);
  });
  return { ctx, page };
}

const pageErrors = [];

async function shot(page, name) {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false, animations: 'disabled' });
}

// ---------------------------------------------------------------- helpers on a game page

/** Reads the game page's data attributes. */
async function pageState(page) {
  return page.evaluate(() => {
    const r = document.querySelector('main');
    return {
      version: Number(r.dataset.version || -1),
      status: r.dataset.status || '',
      canMove: r.dataset.canMove === 'true',
      ply: Number(r.dataset.ply || 0),
    };
  });
}

function gameId(page) {
  const m = /\/games\/([a-z0-9-]+)/.exec(page.url());
  if (!m) throw new Error(`not on a game page: ${page.url()}`);
  return m[1];
}

/** Waits until the page may move or the game is over. */
async function waitTurn(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const r = document.querySelector('main');
    return r.dataset.status === 'finished' || r.dataset.canMove === 'true';
  }, null, { timeout, polling: 50 });
  return pageState(page);
}

/** Cells the board shows as clickable now: [{cell, layer, target}]. */
async function clickables(page) {
  return page.evaluate(() => [...document.querySelectorAll('.board .hit')]
    .filter((e) => e.classList.contains('hit-target') || e.classList.contains('hit-active'))
    .map((e) => ({ cell: e.dataset.cell, layer: e.dataset.layer || '', target: e.classList.contains('hit-target') })));
}

async function clickCell(page, cell, layer = '') {
  const sel = layer ? `.board .hit[data-cell="${cell}"][data-layer="${layer}"]` : `.board .hit[data-cell="${cell}"]:not([data-layer])`;
  await page.locator(sel).first().click();
}

/** A small seeded random generator, so failures can be replayed. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 1000000) / 1000000;
  };
}

/**
 * Plays one move by clicking: a highlighted cell (or a move button), then highlighted targets,
 * chooser buttons and the claim confirmation, until the version changes. Prefers attacks when
 * `aggressive`.
 */
async function playOneByClicks(page, rand, { aggressive = false } = {}) {
  const start = await pageState(page);
  for (let step = 0; step < 40; step += 1) {
    const now = await pageState(page);
    if (now.version !== start.version || now.status === 'finished') return true;
    const chooser = page.locator('.chooser .chooser-btn');
    if (await chooser.count()) {
      const n = await chooser.count();
      await chooser.nth(Math.floor(rand() * n)).click();
      await waitChange(page, start.version, 3000);
      continue;
    }
    const confirm = page.locator('.pending .btn-primary:not([disabled])');
    const cells = await clickables(page);
    const targets = cells.filter((c) => c.target);
    if (await confirm.count() && (rand() < 0.6 || !targets.length)) {
      await confirm.click();
      await waitChange(page, start.version, 3000);
      continue;
    }
    if (targets.length) {
      let pool = targets;
      if (aggressive) {
        const caps = await page.evaluate(() => [...document.querySelectorAll('.board .tgt.target-capture, .board .tgt.target-special')].length);
        if (caps && rand() < 0.8) {
          const capCells = await page.evaluate(() => {
            const out = [];
            for (const hit of document.querySelectorAll('.board .hit-target')) out.push(hit.dataset.cell);
            return out;
          });
          pool = targets.filter((t) => capCells.includes(t.cell));
        }
      }
      const t = pool[Math.floor(rand() * pool.length)];
      await clickCell(page, t.cell, t.layer);
      await sleep(30);
      continue;
    }
    const buttons = page.locator('.move-buttons .btn-move');
    const nb = await buttons.count();
    if (nb && (!cells.length || rand() < 0.15)) {
      await buttons.nth(Math.floor(rand() * nb)).click();
      await waitChange(page, start.version, 3000);
      continue;
    }
    if (!cells.length) {
      if (nb) continue;
      await sleep(100);
      continue;
    }
    const c = cells[Math.floor(rand() * cells.length)];
    await clickCell(page, c.cell, c.layer);
    await sleep(30);
  }
  throw new Error('could not complete a move by clicking in 40 steps');
}

async function waitChange(page, version, timeout) {
  try {
    await page.waitForFunction((v) => {
      const r = document.querySelector('main');
      return Number(r.dataset.version) !== v || !document.querySelector('.chooser');
    }, version, { timeout, polling: 30 });
  } catch {
    // the caller looks again
  }
}

/** Creates a game from the start page. */
async function createFromStartPage(page, { game, mode, level = 1, seat = 'first', options = {}, position = '', seed = null, clock = '' }) {
  await page.goto(`${pageOrigin()}/`);
  await page.locator(`.game-card[data-game="${game}"]`).click();
  await page.locator(`.mode-card[data-mode="${mode}"]`).click();
  if (mode === 'computer') {
    await page.locator('#level').fill(String(level));
  }
  if (mode !== 'same') await page.locator(`.seg[data-seat="${seat}"]`).click();
  if (clock) await page.selectOption('#clock', clock);
  if (Object.keys(options).length) {
    const det = page.locator('details.options:not(.advanced)');
    if (!(await det.evaluate((d) => d.open))) await det.locator('summary').click();
    for (const [k, v] of Object.entries(options)) {
      const seg = page.locator(`#opt-${k} .seg[data-value="${v}"]`);
      if (await seg.count()) await seg.click();
      else {
        const input = page.locator(`#opt-${k}`);
        const [tag, type] = await input.evaluate((e) => [e.tagName.toLowerCase(), e.type]);
        if (tag === 'select') await input.selectOption(v);
        else if (type === 'checkbox') await input.setChecked(v === 'true', { force: true });
        else {
          await input.fill(String(v));
          await input.dispatchEvent('change');
        }
      }
    }
  }
  if (position || seed !== null) {
    await page.locator('details.advanced summary').click();
    if (seed !== null) {
      await page.locator('#seed').fill(String(seed));
      await page.locator('#seed').dispatchEvent('change');
    }
    if (position) {
      await page.locator('#position').fill(position);
      await page.locator('#position').dispatchEvent('change');
    }
  }
  await page.locator('#start-game').click();
  await page.waitForURL(/\/games\/[a-z0-9-]+$/);
  await page.waitForSelector('.board .hit');
  return gameId(page);
}

// ---------------------------------------------------------------- tests

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const GAMES = {
  'sight-reduction': { options: {}, mid: 6 },
  obsidio: { options: { size: '7' }, mid: 8 },
  opprimo: { options: { 'max-plies': '100' }, mid: 14 },
  assideum: { options: { 'quiet-plies': '30' }, mid: 12, aggressive: true },
};

for (const [game, cfg] of Object.entries(GAMES)) {
  test(`${game}: a full game against the computer, played by clicking`, async () => {
    const { page } = await newBrowser();
    // The game's seed fixes the set-up and the computer's choices, and the clicks come from a
    // seeded generator, so a run replays exactly; UI_TEST_SEED explores other games.
    const seed = Number(process.env.UI_TEST_SEED || 0) + game.length * 7919 + 17;
    const id = await createFromStartPage(page, { game, mode: 'computer', level: 1, options: cfg.options, seed });
    await shot(page, `${game}-1-start`);
    const rand = rng(seed);
    let moves = 0;
    for (;;) {
      const st = await waitTurn(page, 90000);
      if (st.status === 'finished') break;
      await playOneByClicks(page, rand, { aggressive: cfg.aggressive });
      moves += 1;
      if (moves === cfg.mid) await shot(page, `${game}-2-middle`);
      assert(moves < 2000, 'the game did not end');
    }
    await page.waitForSelector('.result-banner');
    await shot(page, `${game}-3-end`);
    // Against the computer with no clock, the game is kept in this browser.
    const kept = await keptGame(page, id);
    assert(kept.status === 'finished', `the game is kept as ${kept.status}`);
    assert(kept.result, 'no result');
    const banner = await page.locator('.result-banner').innerText();
    assert(banner.length > 5, 'empty result banner');
    // The moves shown are the moves kept.
    const shown = await page.locator('.move-list .mv[data-ply]').allInnerTexts();
    assert(shown.join(' ') === kept.moves.join(' '), 'the move list differs from the moves kept');
    console.log(`    ${kept.moves.length} plies; ${kept.result}`);
  });
}

test('online: two browsers play through the invite link, with live updates', async () => {
  const a = await newBrowser();
  const id = await createFromStartPage(a.page, { game: 'sight-reduction', mode: 'online', seat: 'first' });
  const link = await a.page.locator('#invite-link').inputValue();
  assert(link.includes(`/games/${id}#join=second.`), `unexpected invite link ${link}`);
  const b = await newBrowser({ width: 1100, height: 850 });
  await b.page.goto(link);
  await b.page.waitForSelector('.board .hit');
  assert(!b.page.url().includes('#join'), 'the token stays in the address bar');
  const bName = await b.page.locator('.player-bar.bottom .pname strong').innerText();
  assert(bName === 'You', `the invited player is shown as '${bName}'`);
  const rand = rng(42);
  let turns = 0;
  for (;;) {
    const [sa, sb] = await Promise.all([pageState(a.page), pageState(b.page)]);
    if (sa.status === 'finished' && sb.status === 'finished') break;
    const mover = sa.canMove ? a.page : sb.canMove ? b.page : null;
    if (!mover) {
      await sleep(50);
      continue;
    }
    const other = mover === a.page ? b.page : a.page;
    const before = (await pageState(mover)).version;
    // The other side cannot move now.
    assert(!(await pageState(other)).canMove, 'both browsers may move at once');
    await playOneByClicks(mover, rand);
    // The other browser sees the move without reloading.
    await other.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, before, { timeout: 10000 });
    turns += 1;
    if (turns === 4) {
      await shot(a.page, 'online-1-first-player');
      await shot(b.page, 'online-2-second-player');
    }
    assert(turns < 200, 'the online game did not end');
  }
  const [ra, rb] = await Promise.all([a.page.locator('.result-banner .banner-head').innerText(), b.page.locator('.result-banner .banner-head').innerText()]);
  assert(new Set([ra, rb]).size === 2 && [ra, rb].includes('You win!'), `banners: ${ra} / ${rb}`);
  await shot(b.page, 'online-3-end');
});

test('illegal click and illegal typed move: feedback, no state change', async () => {
  const { page } = await newBrowser();
  const id = await createFromStartPage(page, { game: 'obsidio', mode: 'same', options: { size: '9' } });
  // Two moves so that the anchor restricts placements.
  await playOneByClicks(page, rng(5));
  await waitTurn(page);
  await playOneByClicks(page, rng(6));
  await waitTurn(page);
  const before = await apiGet(`/api/games/${id}`);
  const legalFirst = new Set(before.legal_moves.map((m) => m.replace(/^\+/, '').split(/[,+]/)[0]));
  const empty = before.board.cells.find((c) => !(c.pieces || []).length && !legalFirst.has(c.name) && c.shade !== 'target');
  assert(empty, 'no illegal square found');
  await clickCell(page, empty.name);
  await page.waitForSelector('.feedback-error');
  const msg = await page.locator('.feedback-error').innerText();
  assert(msg.includes(empty.name), `feedback does not name the square: ${msg}`);
  await shot(page, 'illegal-click-feedback');
  // A taken square.
  const taken = before.board.cells.find((c) => (c.pieces || []).length);
  await clickCell(page, taken.name);
  await page.waitForSelector('.feedback-error');
  const after = await apiGet(`/api/games/${id}`);
  assert(after.version === before.version && after.position === before.position, 'the state changed');
  const ui = await pageState(page);
  assert(ui.version === before.version, 'the page moved on');
  // A typed move that is illegal here, and one that is malformed.
  await page.locator('#typed-move').fill(empty.name);
  await page.locator('.typed-move button').click();
  await page.waitForFunction(() => /illegal|not legal|cannot/i.test(document.querySelector('.feedback').textContent));
  await page.locator('#typed-move').fill('zz99');
  await page.locator('.typed-move button').click();
  await page.waitForFunction(() => document.querySelector('.feedback-error') && /zz99/i.test(document.querySelector('.feedback').textContent));
  const after2 = await apiGet(`/api/games/${id}`);
  assert(after2.version === before.version, 'a refused typed move changed the game');
  // A legal typed move is played.
  await page.locator('#typed-move').fill(before.legal_moves[0].toUpperCase());
  await page.locator('.typed-move button').click();
  await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, before.version);
});

test('reload in the middle of a game restores it', async () => {
  const { page } = await newBrowser();
  const id = await createFromStartPage(page, { game: 'opprimo', mode: 'computer', level: 1 });
  const rand = rng(99);
  for (let i = 0; i < 4; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  await waitTurn(page);
  const before = await keptGame(page, id);
  const movesBefore = await page.locator('.move-list .mv[data-ply]').allInnerTexts();
  await page.reload();
  await page.waitForSelector('.board .hit');
  const st = await waitTurn(page);
  assert(st.version === before.version, `after reload version ${st.version}, expected ${before.version}`);
  assert(st.canMove, 'after reload the player cannot move');
  const movesAfter = await page.locator('.move-list .mv[data-ply]').allInnerTexts();
  assert(movesAfter.join(' ') === movesBefore.join(' '), 'the move list changed');
  await playOneByClicks(page, rand);
  await shot(page, 'reload-restored');
});

test('undo, draw offer and resignation in an online game; record downloads', async () => {
  const a = await newBrowser();
  await createFromStartPage(a.page, { game: 'obsidio', mode: 'online', options: { size: '7' } });
  const id = gameId(a.page);
  const link = await a.page.locator('#invite-link').inputValue();
  await a.page.waitForSelector('#presence-second');
  assert((await a.page.locator('#presence-second').innerText()) === 'not joined yet', 'before the link is opened');
  const b = await newBrowser();
  await b.page.goto(link);
  await b.page.waitForSelector('.board .hit');
  // Each sees the other here.
  await a.page.waitForFunction(() => document.querySelector('#presence-second')?.textContent === 'here');
  await b.page.waitForFunction(() => document.querySelector('#presence-first')?.textContent === 'here');
  await waitTurn(a.page);
  await playOneByClicks(a.page, rng(1));
  await waitTurn(b.page);
  // A asks to take back; B accepts.
  await a.page.locator('#btn-undo').click();
  await b.page.waitForSelector('.offer-in');
  await shot(b.page, 'online-undo-request');
  await b.page.locator('.offer-in .btn-primary').click();
  await a.page.waitForFunction(() => document.querySelector('main').dataset.ply === '0');
  // A moves, B offers a draw, A declines; then B resigns.
  await waitTurn(a.page);
  await playOneByClicks(a.page, rng(2));
  await waitTurn(b.page);
  await b.page.locator('#btn-draw').click();
  await a.page.waitForSelector('.offer-in');
  await a.page.locator('.offer-in .btn:not(.btn-primary)').click();
  // B is told the offer was declined.
  await b.page.waitForSelector('#offer-declined');
  const told = await b.page.locator('#offer-declined').innerText();
  assert(told === 'Your opponent declined your draw offer.', `B is told: ${told}`);
  await shot(b.page, 'online-draw-declined');
  await b.page.locator('#btn-resign').click();
  await b.page.locator('#confirm-yes').click();
  await a.page.waitForSelector('.result-banner');
  const head = await a.page.locator('.result-banner .banner-head').innerText();
  assert(head === 'You win!', `after the resignation A sees '${head}'`);
  // Downloads.
  for (const [sel, ext] of [['#dl-pgn', 'pgn'], ['#dl-json', 'json']]) {
    const [dl] = await Promise.all([a.page.waitForEvent('download'), a.page.locator(sel).click()]);
    const file = path.join(artifacts, `record.${ext}`);
    await dl.saveAs(file);
    const text = fs.readFileSync(file, 'utf8');
    assert(text.includes('obsidio'), `the ${ext} record does not name the game`);
    if (ext === 'json') JSON.parse(text);
  }
  const api = await apiGet(`/api/games/${id}`);
  assert(api.result.termination === 'resignation', 'not ended by resignation');
  // B closes the game: A sees B away.
  await b.page.goto('about:blank');
  await a.page.waitForFunction(() => document.querySelector('#presence-second')?.textContent === 'away');
});

test('move list navigation shows earlier positions', async () => {
  const { page } = await newBrowser();
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' });
  const rand = rng(3);
  for (let i = 0; i < 4; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  await waitTurn(page);
  const api = await apiGet(`/api/games/${id}`);
  const routes = Object.keys((await apiGet('/api/openapi.json')).paths || {});
  const hasAt = await fetch(`${origin()}/api/games/${id}/at/2`).then((r) => r.ok);
  await page.locator('.move-list .mv[data-ply="2"]').click();
  if (!hasAt) {
    // Without the server's route the page says so and stays at the current position.
    await page.waitForSelector('.feedback-error');
    const msg = await page.locator('.feedback-error').innerText();
    assert(/not available/.test(msg), `unexpected message: ${msg}`);
    assert((await pageState(page)).canMove, 'the page did not stay at the current position');
    console.log(`    (the server has no /api/games/{id}/at/{ply} route yet${routes.length ? '' : ''}: earlier boards not checked)`);
    return;
  }
  await page.waitForFunction(() => document.querySelector('main').dataset.ply === '2');
  await page.waitForSelector('.viewing:not([hidden])');
  // Clicking the board now does not move.
  assert(!(await pageState(page)).canMove, 'moves are allowed while looking back');
  const at2 = await apiGet(`/api/games/${id}/at/2`);
  await page.waitForFunction((n) => document.querySelectorAll('.board .cell-pieces .pc').length === n,
    at2.board.cells.reduce((n, c) => n + (c.pieces || []).length, 0));
  await shot(page, 'history-ply-2');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('main').dataset.ply === '1');
  await page.keyboard.press('End');
  await page.waitForFunction((n) => document.querySelector('main').dataset.ply === String(n), api.moves.length);
  assert((await pageState(page)).canMove, 'back at the current position the player can move again');
});

test('keyboard: cursor, Enter to select and play; Escape cancels', async () => {
  const { page } = await newBrowser();
  await createFromStartPage(page, { game: 'opprimo', mode: 'same' });
  await waitTurn(page);
  const v0 = (await pageState(page)).version;
  await page.locator('.board').focus();
  // The first arrow press puts the cursor on a cell that starts a move: a castle triangle.
  await page.keyboard.press('ArrowUp');
  const cursor = await page.evaluate(() => document.querySelector('.board .hit-cursor').dataset.cell);
  assert(cursor, 'no keyboard cursor');
  await page.keyboard.press('Enter');
  await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, v0);
  await waitTurn(page);
  // Escape clears a selection.
  const cells = await clickables(page);
  await clickCell(page, cells[0].cell);
  await page.keyboard.press('Escape');
  const sel = await page.evaluate(() => document.querySelectorAll('.board .pt-selected, .board .tri-selected, .board .selected').length);
  assert(sel === 0, 'Escape left a selection');
});

test('reconnection: the page follows the game after the server restarts', async () => {
  const a = await newBrowser();
  const id = await createFromStartPage(a.page, { game: 'sight-reduction', mode: 'online' });
  const link = await a.page.locator('#invite-link').inputValue();
  await waitTurn(a.page);
  await playOneByClicks(a.page, rng(8));
  await stopServer();
  await a.page.waitForSelector('.conn-offline', { timeout: 15000 });
  await shot(a.page, 'reconnecting');
  await startServer();
  await a.page.waitForSelector('.conn-live', { timeout: 20000 });
  // The other player moves through the API; the page shows it.
  const b = await newBrowser();
  await b.page.goto(link);
  await waitTurn(b.page);
  await playOneByClicks(b.page, rng(9));
  await a.page.waitForFunction(() => document.querySelector('main').dataset.ply === '2', null, { timeout: 10000 });
  const api = await apiGet(`/api/games/${id}`);
  assert(api.moves.length === 2, 'moves were lost');
});

test('assideum: chooser for step and spin, Fighter flights, flight zones', async () => {
  const { page } = await newBrowser();
  await createFromStartPage(page, { game: 'assideum', mode: 'same' });
  await waitTurn(page);
  // The Portal on b1 with its landed Fighter: click the Portal itself, then b2? b2 holds a
  // Ved'rin, so spin it in place: click b1 twice.
  await clickCell(page, 'b1');
  await clickCell(page, 'b1');
  await page.waitForSelector('.chooser');
  await shot(page, 'assideum-spin-chooser');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.chooser', { state: 'detached' });
  // The Portal on b1 alone: its own zone is shaded (where the server marks each Portal's zone).
  // (Escape left the Portal selected; a second Escape clears the selection.)
  await page.keyboard.press('Escape');
  await clickCell(page, 'b1');
  const st0 = await apiGet(`/api/games/${gameId(page)}`);
  const own = st0.board.cells.filter((c) => (c.marks || []).includes('zone-of-b1')).length;
  if (own) {
    const shaded = await page.evaluate(() => document.querySelectorAll('.board .zone:not(.zone-faint)').length);
    assert(shaded === own, `${shaded} squares shaded for the b1 Portal's zone of ${own}`);
    await shot(page, 'assideum-portal-zone');
  }
  await page.keyboard.press('Escape');
  // The Fighter on b1: flights appear with the zones.
  await clickCell(page, 'b1', 'fighter');
  const zones = await page.evaluate(() => document.querySelectorAll('.board .zone-white').length);
  assert(zones > 0, 'no flight zone shown for a selected Fighter');
  await shot(page, 'assideum-fighter-selected');
  const targets = (await clickables(page)).filter((c) => c.target).map((c) => c.cell);
  assert(targets.includes('b4'), `b4 is not a flight target: ${targets}`);
  const v = (await pageState(page)).version;
  await clickCell(page, 'b4');
  await page.waitForFunction((x) => Number(document.querySelector('main').dataset.version) > x, v);
  const state = await apiGet(`/api/games/${gameId(page)}`);
  assert(state.moves[0].move === 'fb1-b4', `played ${state.moves[0].move}`);
  await shot(page, 'assideum-after-flight');
});

test('obsidio: two-token placement and a claim', async () => {
  const { page } = await newBrowser();
  const id = await createFromStartPage(page, { game: 'obsidio', mode: 'same', options: { size: '7', pie: 'false' } });
  await waitTurn(page);
  // Play until a claim is possible, placing tokens by clicks.
  const rand = rng(11);
  let claimed = false;
  for (let i = 0; i < 60 && !claimed; i += 1) {
    const st = await waitTurn(page);
    if (st.status === 'finished') break;
    const s = await apiGet(`/api/games/${id}`);
    const claim = s.legal_moves.find((m) => m.startsWith('+') && m.split('+').length === 2);
    if (claim) {
      const t = claim.slice(1);
      await clickCell(page, t);
      await page.waitForSelector('.pending');
      await shot(page, 'obsidio-claim-selected');
      await page.locator('.pending .btn-primary').click();
      await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, st.version);
      const after = await apiGet(`/api/games/${id}`);
      assert(after.moves[after.moves.length - 1].move.startsWith('+'), 'the claim was not played');
      claimed = true;
      break;
    }
    const two = s.legal_moves.find((m) => m.includes(','));
    if (two && rand() < 0.7) {
      const [x, y] = two.split(',');
      await clickCell(page, x);
      const tg = (await clickables(page)).filter((c) => c.target).map((c) => c.cell);
      assert(tg.includes(y), `after ${x} the square ${y} is not offered`);
      if (i < 3) await shot(page, 'obsidio-second-token');
      await clickCell(page, y);
      await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, st.version);
    } else {
      await playOneByClicks(page, rand);
    }
  }
  assert(claimed, 'no claim came up');
});

/** Plays `move` by clicking `clicks` (cells, `f:cell` for a Fighter, `=label` for a chooser
 * button, `!label` for a move button, `ok` for the claim confirmation) and checks it was played. */
async function playClicks(page, id, clicks, expected) {
  const before = (await pageState(page)).version;
  for (const c of clicks) {
    if (c.startsWith('=')) await page.locator('.chooser .chooser-btn', { hasText: c.slice(1) }).first().click();
    else if (c.startsWith('#')) await page.locator(`.chooser .chooser-btn[data-move="${c.slice(1)}"]`).click();
    else if (c.startsWith('!')) await page.locator('.move-buttons .btn-move', { hasText: c.slice(1) }).first().click();
    else if (c === 'ok') await page.locator('.pending .btn-primary').click();
    else if (c.startsWith('f:')) await clickCell(page, c.slice(2), 'f');
    else await clickCell(page, c);
  }
  await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, before);
  const st = await apiGet(`/api/games/${id}`);
  const last = st.moves[st.moves.length - 1].move;
  assert(last === expected, `clicks ${clicks.join(' ')} played ${last}, expected ${expected}`);
  return st;
}

test('sight-reduction: the fair set-up, pair removals and a solitaire', async () => {
  const { page } = await newBrowser();
  let id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'same', options: { setup: 'fair', removal: 'pair' } });
  let st = await apiGet(`/api/games/${id}`);
  // Swap the first White and the first Black piece in square order.
  const colourAt = Object.fromEntries(st.board.cells.map((c) => [c.name, c.pieces && c.pieces[0] && c.pieces[0].colour]));
  const names = st.board.cells.map((c) => c.name);
  const w = names.find((n) => colourAt[n] === 'white');
  const b = names.find((n) => colourAt[n] === 'black');
  const swap = st.legal_moves.find((m) => m === `swap ${w} ${b}` || m === `swap ${b} ${w}`);
  await playClicks(page, id, [b, w], swap);
  await shot(page, 'sight-reduction-fair-arranging');
  await playClicks(page, id, ['!Done arranging'], 'done');
  await playClicks(page, id, ['!Take Black'], 'color black');
  await shot(page, 'sight-reduction-fair-first-choice');
  await playClicks(page, id, ['!White removes first'], 'first white');
  st = await waitTurn(page) && await apiGet(`/api/games/${id}`);
  // A pair by clicking both pieces, then a single by clicking one piece twice.
  const pair = st.legal_moves.find((m) => m.includes('+'));
  assert(pair, 'no pair removal offered');
  const [p1, p2] = pair.split('+');
  await clickCell(page, p2);
  await shot(page, 'sight-reduction-pair-partner');
  await playClicks(page, id, [p1], pair);
  await waitTurn(page);
  st = await apiGet(`/api/games/${id}`);
  const single = st.legal_moves.find((m) => !m.includes('+'));
  const withPair = st.legal_moves.some((m) => m.includes('+') && m.split('+').includes(single));
  await playClicks(page, id, withPair ? [single, single] : [single], single);
  // A solitaire with a goal, played to its end.
  id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'same', options: { mode: 'solitaire', keep: 'b2,c7' } });
  await page.waitForSelector('.board .goal');
  await shot(page, 'sight-reduction-solitaire');
  const rand = rng(77);
  for (let i = 0; i < 40; i += 1) {
    const s2 = await waitTurn(page);
    if (s2.status === 'finished') break;
    await playOneByClicks(page, rand);
  }
  await page.waitForSelector('.result-banner');
  const head = await page.locator('.result-banner .banner-head').innerText();
  assert(/Solved|Puzzle over/.test(head), `solitaire banner '${head}'`);
  await shot(page, 'sight-reduction-solitaire-end');
});

test('obsidio: a claim of two targets, the last one chosen as the anchor', async () => {
  const { page } = await newBrowser();
  const position = '......./.+.+.+./......./.+.+.+./......./.+b+.+./bbbbb.. b supply=- anchor=e1 swap=closed';
  const id = await createFromStartPage(page, { game: 'obsidio', mode: 'same', options: { size: '7' }, position });
  const st = await apiGet(`/api/games/${id}`);
  assert(st.legal_moves.includes('+b2+d2') && st.legal_moves.includes('+d2+b2'), `claims: ${st.legal_moves.filter((m) => m.startsWith('+'))}`);
  await clickCell(page, 'd2');
  await clickCell(page, 'b2');
  await page.waitForSelector('.board .order-badge');
  await shot(page, 'obsidio-multi-claim');
  await playClicks(page, id, ['ok'], '+d2+b2');
  const after = await apiGet(`/api/games/${id}`);
  assert(after.board.cells.find((c) => c.name === 'b2').marks.includes('anchor'), 'b2 is not the anchor');
});

test('assideum: carry or leave a Fighter, Ranger fire', async () => {
  const { page } = await newBrowser();
  // Figure 14 of the rules: Portals on b5 (facing east) and e4 (facing north); the Fighter on
  // e6 lies in both zones.
  let id = await createFromStartPage(page, { game: 'assideum', mode: 'same', position: '7k/2[psf]3[rs]1/4[F]3/1[Pe]1[f]4/4[PnF]3/8/8/K7 w 0' });
  await clickCell(page, 'b5');
  await clickCell(page, 'a5');
  await page.waitForSelector('.chooser');
  await shot(page, 'assideum-carry-chooser');
  const rows = await page.locator('.chooser .chooser-group').allInnerTexts();
  assert(rows.some((r) => /carry the Fighters? on e6/.test(r)) && rows.some((r) => /leave the Fighters? on e6/.test(r)), `chooser rows: ${rows}`);
  await playClicks(page, id, ['=face north'], 'b5-a5>n');
  // Two Fighters on d5, which both White zones cover: none, one or both go along.
  id = await createFromStartPage(page, { game: 'assideum', mode: 'same', position: '7k/8/8/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0' });
  await clickCell(page, 'c3');
  await clickCell(page, 'c4');
  await page.waitForSelector('.chooser');
  await shot(page, 'assideum-carry-how-many');
  const counts = await page.locator('.chooser .chooser-group').allInnerTexts();
  for (const re of [/leave both Fighters on d5/, /carry one of the two Fighters on d5/, /carry both Fighters on d5/]) {
    assert(counts.some((r) => re.test(r)), `chooser rows: ${counts}`);
  }
  const carried = await playClicks(page, id, ['#c3-c4{d5:1}'], 'c3-c4{d5:1}');
  const whiteFighters = (sq) => carried.board.cells.find((c) => c.name === sq).pieces.filter((p) => p.kind === 'fighter' && p.colour === 'white').length;
  assert(whiteFighters('d5') === 1 && whiteFighters('d6') === 1, 'one Fighter carried from d5 to d6');
  // Ranger fire: Black's Ranger on g7 faces south at a White Fighter on g6.
  id = await createFromStartPage(page, { game: 'assideum', mode: 'same', position: '7k/2[psf]3[rs]1/6[F]1/1[Pe]1[f]2V1/4[PnF]3/8/8/K7 b 0' });
  await waitTurn(page);
  await clickCell(page, 'g7');
  await clickCell(page, 'g6');
  await page.waitForSelector('.chooser');
  await shot(page, 'assideum-fire-chooser');
  await playClicks(page, id, ['=at the Fighters'], 'rg7*g6f');
  await shot(page, 'assideum-after-fire');
});

test('hints from the computer, where the server gives them', async () => {
  const routes = Object.keys((await apiGet('/api/openapi.json')).paths || {});
  const { page } = await newBrowser();
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' });
  await waitTurn(page);
  if (!routes.includes('/api/games/{id}/hint')) {
    assert(!(await page.locator('#btn-hint').count()), 'a Hint button without the route');
    console.log('    (the server has no hint route: the button is hidden)');
    return;
  }
  await page.locator('#btn-hint').click();
  await page.waitForSelector('.feedback-advice', { timeout: 30000 });
  const text = await page.locator('.feedback-advice').innerText();
  const move = /Hint: (\S+)/.exec(text)[1];
  const st = await apiGet(`/api/games/${id}`);
  assert(st.legal_moves.includes(move), `the hint ${move} is not a legal move`);
  assert(await page.locator('.board .hint-mark').count() > 0, 'the hint is not marked on the board');
  await shot(page, 'sight-reduction-hint');
  // The rules page comes from the server's Markdown.
  await page.goto(`${pageOrigin()}/rules/sight-reduction`);
  await page.waitForSelector('.rules h2');
  const h2 = await page.locator('.rules h2').allInnerTexts();
  assert(h2.length >= 3, `the rules page has ${h2.length} sections`);
});

/** Whether the element matched by `selector` lies wholly inside the viewport (no scrolling). */
async function inView(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  const vp = page.viewportSize();
  return !!box && box.x >= -1 && box.y >= -1 && box.x + box.width <= vp.width + 1 && box.y + box.height <= vp.height + 1;
}

test('bug: a click on the board while an earlier position is shown goes back to the game', async () => {
  const { page } = await newBrowser();
  await createFromStartPage(page, { game: 'sight-reduction', mode: 'computer', level: 1 });
  const rand = rng(5);
  for (let i = 0; i < 2; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  const now = await waitTurn(page);
  assert(now.ply >= 4, `only ${now.ply} moves played`);
  // A piece that may be removed now (the moves the page offers to type).
  const legal = await page.locator('#legal-moves option').evaluateAll((os) => os.map((o) => o.value));
  await page.locator('.move-list .mv[data-ply="3"]').click();
  await page.waitForFunction(() => document.querySelector('main').dataset.ply === '3');
  const cell = legal.find((m) => /^[a-d][1-8]$/.test(m));
  await clickCell(page, cell);
  // Back at the game, where the click counted (a removal is one click).
  await page.waitForFunction((n) => Number(document.querySelector('main').dataset.ply) >= n, now.ply);
  const said = await page.locator('.feedback').innerText();
  assert(!/not your turn/i.test(said), `the page said '${said}'`);
});

test('bug: draws only where the rules have them, and agreed on one screen only after a question', async () => {
  const { page } = await newBrowser();
  await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' });
  await waitTurn(page);
  assert(!(await page.locator('#btn-draw').count()), 'Sight Reduction has no draws but offers one');
  await createFromStartPage(page, { game: 'obsidio', mode: 'same', options: { size: '7' } });
  await waitTurn(page);
  await page.locator('#btn-draw').click();
  await page.waitForSelector('.modal #confirm-yes');
  await page.locator('.modal .btn:not(#confirm-yes)').click();
  assert((await pageState(page)).status === 'ongoing', 'the draw was agreed without asking');
  await page.locator('#btn-draw').click();
  await page.locator('#confirm-yes').click();
  await page.waitForFunction(() => document.querySelector('main').dataset.status === 'finished');
  const head = await page.locator('.result-banner .banner-head').innerText();
  assert(head === 'Draw', `banner '${head}'`);
});

test('bug: the fair set-up says whose turn it is and keeps its buttons in view', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    await createFromStartPage(page, { game: 'sight-reduction', mode: 'same', options: { setup: 'fair' } });
    await waitTurn(page);
    const status = await page.locator('#status').innerText();
    assert(!/You to move/.test(status), `status '${status}'`);
    const sub = await page.locator('.game-sub').innerText();
    assert(/Set-up: fair/.test(sub) && !/setup=/.test(sub), `options shown as '${sub}'`);
    await page.waitForSelector('.move-buttons .btn-move');
    await page.waitForTimeout(200);
    for (const sel of ['.board', '.move-buttons .btn-move', '.player-bar.active', '.feedback']) {
      assert(await inView(page, sel), `${sel} is outside the ${viewport.width}x${viewport.height} window`);
    }
    if (viewport.width > 1000) assert(await inView(page, '#status'), 'the status is outside the window');
    await shot(page, `layout-fair-${viewport.width}`);
  }
});

test('bug: a solitaire lists its moves in one run and the game list says it is unsolved', async () => {
  const { page } = await newBrowser();
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'same', options: { mode: 'solitaire' } });
  const rand = rng(8);
  for (let i = 0; i < 3; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  assert(!(await page.locator('.move-list .mv-empty').count()), 'placeholders in the move list');
  const nums = await page.locator('.move-list .mv-num').allInnerTexts();
  assert(nums.join(' ') === '1. 2. 3.', `move numbers ${nums}`);
  // Play it out by the API (first legal move each time) and look at the game list.
  let st = await apiGet(`/api/games/${id}`);
  const token = await page.evaluate((gid) => JSON.parse(localStorage.getItem(`boardlab:seats:${gid}`)).first, id);
  while (st.status === 'ongoing') {
    const r = await fetch(`${origin()}/api/games/${id}/moves`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: st.legal_moves[0], token }) });
    st = await r.json();
  }
  await page.goto(`${pageOrigin()}/games`);
  await page.waitForSelector('.games-table');
  const row = await page.locator(`.games-table tr:has(a[href="/games/${id}"])`).innerText();
  if (st.result.tag === 'solved') assert(/Solved/.test(row), `row '${row}'`);
  else assert(/Not solved/.test(row) && !/Score/.test(row), `row '${row}'`);
});

test('bug: hints speak of colours and moves, not seats, plies or bare numbers', async () => {
  const { page } = await newBrowser();
  await createFromStartPage(page, { game: 'obsidio', mode: 'same', options: { size: '7' } });
  await waitTurn(page);
  await page.locator('#btn-hint').click();
  await page.waitForSelector('.feedback-advice', { timeout: 30000 });
  const text = await page.locator('.feedback-advice').innerText();
  assert(!/seat|plies|\d\.\d{3}/.test(text), `hint '${text}'`);
  assert(/about even|better|winning|wins/.test(text), `hint '${text}'`);
});

test('bug: an invite link works once, and your own link says so', async () => {
  const a = await newBrowser();
  const id = await createFromStartPage(a.page, { game: 'obsidio', mode: 'online', options: { size: '7' } });
  const link = await a.page.locator('#invite-link').inputValue();
  // The creator opening the link keeps its seat and is told.
  await a.page.goto(link);
  await a.page.waitForSelector('.board .hit');
  await a.page.waitForSelector('.toast');
  assert(/your own invite link/.test(await a.page.locator('.toast').first().innerText()), 'no word about the own link');
  const held = await a.page.evaluate((gid) => JSON.parse(localStorage.getItem(`boardlab:seats:${gid}`)), id);
  assert(held.first && !held.second, `the creator now holds ${Object.keys(held)}`);
  const b = await newBrowser();
  await b.page.goto(link);
  await b.page.waitForSelector('.board .hit');
  assert((await b.page.locator('.player-bar.bottom .pname strong').innerText()) === 'You', 'the invited player is not seated');
  await a.page.waitForSelector('#opponent-joined');
  const c = await newBrowser();
  await c.page.goto(link);
  await c.page.waitForSelector('.board .hit');
  await c.page.waitForSelector('.feedback-error');
  assert(/already been used/.test(await c.page.locator('.feedback-error').innerText()), 'the third browser was not told');
  const third = await c.page.evaluate((gid) => localStorage.getItem(`boardlab:seats:${gid}`), id);
  assert(!third || !JSON.parse(third).second, 'the third browser took the seat');
  await shot(c.page, 'invite-used');
});

test('bug: Opprimo keeps the selection after a click on a point that is not a destination', async () => {
  const { page } = await newBrowser();
  await createFromStartPage(page, { game: 'opprimo', mode: 'same' });
  // Both Kings are placed first.
  const rand = rng(4);
  for (let i = 0; i < 2; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  await waitTurn(page);
  const st = await apiGet(`/api/games/${gameId(page)}`);
  // A piece with moves, and an empty point none of its moves reaches.
  const from = st.interaction.moves.find((m) => m.paths.length && m.paths[0].length === 2).paths[0][0].cell;
  const reach = new Set(st.interaction.moves.filter((m) => m.paths.some((p) => p[0].cell === from)).map((m) => m.paths[0][1].cell));
  const empty = st.board.cells.find((c) => !(c.pieces || []).length && !reach.has(c.name) && c.name !== from).name;
  await clickCell(page, from);
  await page.waitForSelector('.board .hit-target');
  await clickCell(page, empty);
  await page.waitForSelector('.feedback-error');
  const said = await page.locator('.feedback-error').innerText();
  assert(/cannot go to/.test(said) && !/No legal move starts/.test(said), `said '${said}'`);
  assert(await page.locator('.board .hit-target').count() > 0, 'the selection was dropped');
  await shot(page, 'opprimo-kept-selection');
});

// ---------------------------------------------------------------- issue 37, points 1, 2, 3 and 5

/** A game on one screen, played `moves` moves (the first legal one each) and resigned. */
async function shortGame(game, moves) {
  const made = await apiPost('/api/games', { game, options: GAMES[game].options, seed: 37, same_screen: true });
  let st = made.state;
  for (let i = 0; i < moves; i += 1) st = await apiPost(`/api/games/${made.id}/moves`, { move: st.legal_moves[0], token: made.tokens.first });
  await apiPost(`/api/games/${made.id}/resign`, { token: made.tokens.first });
  return made.id;
}

/** Whether every cell of `cells` carries a hint mark on the board of `page`, and no other does. */
async function hintMarksOn(page, cells) {
  return page.evaluate((want) => {
    const marks = [...document.querySelectorAll('.board .hint-mark')].map((m) => m.getBoundingClientRect());
    const hits = want.map((c) => document.querySelector(`.board .hit[data-cell="${c}"]:not([data-layer])`).getBoundingClientRect());
    const inside = (m, r) => Math.abs((m.left + m.right) / 2 - (r.left + r.right) / 2) < 2 && Math.abs((m.top + m.bottom) / 2 - (r.top + r.bottom) / 2) < 2;
    return marks.length === want.length && hits.every((r) => marks.some((m) => inside(m, r)));
  }, cells);
}

test('bug 37.1: Obsidio marks the best move on the board: a live hint, an analysis, a review', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    // A live game's hint: a placement, marked on its squares.
    const id = await createFromStartPage(page, { game: 'obsidio', mode: 'same', options: { size: '7' } });
    await waitTurn(page);
    await page.locator('#btn-hint').click();
    await page.waitForSelector('.feedback-advice', { timeout: 30000 });
    const move = /Hint: (\S+)/.exec(await page.locator('.feedback-advice').innerText())[1];
    const st = await apiGet(`/api/games/${id}`);
    const cells = (st.interaction.moves.find((m) => m.move === move) || {}).cells || [];
    assert(cells.length >= 1, `the hint ${move} names no cells`);
    // Every placement names its squares, one or two.
    for (const m of st.interaction.moves) {
      if (m.paths && m.paths.length) assert((m.cells || []).length === m.paths[0].length, `${m.move} names cells ${m.cells}`);
    }
    assert(await hintMarksOn(page, cells), `the hint ${move} is not marked on ${cells}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `bug37-1-hint-${viewport.width}`);
  }
  // Claims name their targets too (Black can claim b2 and d2 here).
  const claims = await apiPost('/api/positions', { game: 'obsidio', options: { size: '7' }, position: '......./.+.+.+./......./.+.+.+./.b.b.../b+b+b+./.b.b... b anchor=c2' });
  const kinds = new Set();
  for (const m of claims.interaction.moves) {
    if (m.move === 'swap' || m.move === 'pass') continue;
    assert((m.cells || []).length === (m.set ? m.set.length : m.paths[0].length), `${m.move} names cells ${m.cells}`);
    kinds.add(m.set ? 'claim' : m.paths[0].length);
  }
  assert(kinds.has('claim'), `kinds of moves seen: ${[...kinds]}`);
  // The analysis board marks the computer's best move there.
  const { page } = await newBrowser({ width: 1280, height: 800 });
  await page.goto(`${pageOrigin()}/analysis?game=obsidio&options=size%3D7&position=${encodeURIComponent(claims.position)}`);
  await page.waitForFunction(() => /^Done/.test((document.querySelector('.engine-meta') || {}).textContent || ''), null, { timeout: 30000 });
  const best = await page.locator('#engine-best').innerText();
  const bestCells = claims.interaction.moves.find((m) => m.move === best).cells || [];
  assert(bestCells.length >= 1, `the analysis's best move ${best} names no cells`);
  await page.waitForFunction((n) => document.querySelectorAll('.board .hint-mark').length === n, bestCells.length, { timeout: 5000 })
    .catch(() => { throw new Error(`the analysis's best move ${best} is not marked`); });
  assert(await hintMarksOn(page, bestCells), `the analysis's best move ${best} is not marked on ${bestCells}`);
  await shot(page, 'bug37-1-analysis-1280');
  // A review: each best move is marked, as its text says.
  const gid = await shortGame('obsidio', 4);
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const b = await newBrowser(viewport);
    await b.page.goto(`${pageOrigin()}/games/${gid}/review`);
    await b.page.waitForSelector('#eval-graph svg', { timeout: 90000 });
    const review = (await apiGet(`/api/games/${gid}/review`)).review;
    for (let ply = 0; ply < review.plies.length; ply += 1) {
      const p = review.plies[ply];
      if (p.best === 'swap' || p.best === 'pass') continue;
      assert(review.best_cells[ply].length >= 1, `the best move ${p.best} before move ${ply + 1} names no cells`);
    }
    await b.page.waitForFunction(() => document.querySelector('main').dataset.ply === '0');
    assert(/marked on the board/.test(await b.page.locator('#review-comment').innerText()), 'the comment says nothing of a mark');
    await b.page.waitForSelector('.board .hint-mark', { timeout: 5000 });
    assert(await hintMarksOn(b.page, review.best_cells[0]), `the best move ${review.plies[0].best} is not marked on ${review.best_cells[0]}`);
    await shot(b.page, `bug37-1-review-${viewport.width}`);
  }
});

test('bug 37.2: the Opprimo tutorial keeps the selection after a click on no target, as a game does', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    await page.goto(`${pageOrigin()}/learn/opprimo`);
    await waitPractice(page);
    await page.locator('.step-dot').nth(1).click();
    await page.waitForFunction(() => document.querySelector('main').dataset.step === '1');
    await waitPractice(page);
    const targets = () => page.evaluate(() => document.querySelectorAll('.practice .board .hit-target').length);
    await clickCell(page, 'd3');
    await page.waitForFunction(() => document.querySelectorAll('.practice .board .hit-target').length === 3);
    await clickCell(page, 'a6');
    await page.waitForFunction(() => document.querySelector('.practice-feedback').classList.contains('feedback-error'));
    const f = await feedback(page);
    assert(f.error && /cannot go to a6/.test(f.text) && /click d3 again/.test(f.text), `a6 refused: ${f.text}`);
    assert(await targets() === 3, `d3 is no longer selected after its words say so: ${await targets()} targets`);
    await shot(page, `bug37-2-kept-${viewport.width}`);
    // The selection is d3's: a click on one of its targets makes the move.
    await clickCell(page, 'd5');
    await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved', null, { timeout: 5000 })
      .catch(async () => { throw new Error(`d3-d5 not played; feedback: ${(await feedback(page)).text}`); });
  }
});

test('bug 37.3: the Sight Reduction tutorial explains the removal made, promises no answer and marks no answer', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    await page.goto(`${pageOrigin()}/learn/sight-reduction`);
    await waitPractice(page);
    // Step 1 asks which piece may go: the board does not mark the two that may, nor do the words
    // speak of marks.
    assert(await page.locator('.practice .board .avail').count() === 0, 'step 1 marks the pieces that may go');
    assert(!/marked/.test((await feedback(page)).text), `step 1 says '${(await feedback(page)).text}'`);
    await shot(page, `bug37-3-step1-${viewport.width}`);
    await clickCell(page, 'a1');
    await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved');
    let f = await feedback(page);
    assert(f.ok && /\ba1\b/.test(f.text) && !/Now (Black|White)/.test(f.text), `step 1 after a1: ${f.text}`);
    const status = await page.locator('.practice-status').innerText();
    assert(!/to move/.test(status), `the status waits for a move that never comes: '${status}'`);
    await shot(page, `bug37-3-step1-done-${viewport.width}`);
    // Step 3 asks for a removal among several legal ones: those are marked.
    await page.locator('.step-dot').nth(2).click();
    await page.waitForFunction(() => document.querySelector('main').dataset.step === '2');
    await waitPractice(page);
    assert(await page.locator('.practice .board .avail').count() > 0, 'step 3 marks no piece');
    // Step 8: a1 may go as well as b1, and the words say why a1 could.
    await page.locator('.step-dot').nth(7).click();
    await page.waitForFunction(() => document.querySelector('main').dataset.step === '7');
    await waitPractice(page);
    assert(await page.locator('.practice .board .avail').count() === 0, 'step 8 marks the pieces that may go');
    await clickCell(page, 'a1');
    await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved');
    f = await feedback(page);
    assert(f.ok && /a1[^.]*diagonal/.test(f.text), `step 8 after a1 does not say why a1 could go: ${f.text}`);
    await shot(page, `bug37-3-step8-done-${viewport.width}`);
  }
});

test('bug 37.5: each side\'s share of an evaluation is drawn in its colour: the bar, the graph, its labels', async () => {
  const cat = await apiGet('/api/catalog');
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    for (const game of Object.keys(GAMES)) {
      // At the start the first player plays the game's first colour.
      const [first, second] = cat.games.find((g) => g.name === game).colours;
      await page.goto(`${pageOrigin()}/analysis?game=${game}`);
      await page.waitForSelector('.eval-bar span', { state: 'attached', timeout: 20000 });
      const got = await page.evaluate(([a, b]) => {
        // The colour of a side's share, as the page computes it.
        const sw = (c) => {
          const d = document.body.appendChild(document.createElement('div'));
          d.style.background = `var(--eval-${c})`;
          const v = getComputedStyle(d).backgroundColor;
          d.remove();
          return v;
        };
        return {
          share: getComputedStyle(document.querySelector('.eval-bar span')).backgroundColor,
          rest: getComputedStyle(document.querySelector('.eval-bar')).backgroundColor,
          first: sw(a), second: sw(b),
        };
      }, [first, second]);
      assert(got.share === got.first && got.rest === got.second && got.first !== got.second,
        `${game}: the first player (${first}) has ${got.share}, expected ${got.first}; the second (${second}) ${got.rest}, expected ${got.second}`);
      if (game === 'obsidio') {
        // Black moves first: its share is the dark one.
        const lum = (c) => c.match(/\d+/g).slice(0, 3).reduce((x, y) => x + Number(y), 0);
        assert(lum(got.share) < lum(got.rest), `obsidio: Black's share ${got.share} is lighter than White's ${got.rest}`);
      }
      if (game === 'obsidio' || game === 'opprimo') {
        // The bar is drawn again on every update of the running analysis, so it is brought into
        // view in the page itself rather than through a locator that waits for it to hold still.
        await page.evaluate(() => document.querySelector('.eval-bar').scrollIntoView({ block: 'nearest' }));
        await shot(page, `bug37-5-bar-${game}-${viewport.width}`);
      }
    }
  }
  // The review's graph: the first player's share (the area) in its colour (Obsidio: Black, dark),
  // the second's (the ground) in its own, and each label in its side's colour.
  for (const game of ['obsidio', 'opprimo']) {
    const [first, second] = cat.games.find((g) => g.name === game).colours;
    const gid = await shortGame(game, 3);
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const { page } = await newBrowser(viewport);
      await page.goto(`${pageOrigin()}/games/${gid}/review`);
      await page.waitForSelector('#eval-graph svg', { timeout: 90000 });
      const got = await page.evaluate(([a, b]) => {
        const sw = (c) => {
          const d = document.body.appendChild(document.createElement('div'));
          d.style.background = `var(--eval-${c})`;
          const v = getComputedStyle(d).backgroundColor;
          d.remove();
          return v;
        };
        const fill = (sel) => getComputedStyle(document.querySelector(sel)).fill;
        const labels = [...document.querySelectorAll('#eval-graph .eval-label')].map((l) => [l.textContent, getComputedStyle(l).fill]);
        return { area: fill('#eval-graph .eval-area'), ground: fill('#eval-graph .eval-bg'), labels, first: sw(a), second: sw(b) };
      }, [first, second]);
      const word = (c) => `${c[0].toUpperCase()}${c.slice(1)} better`;
      assert(got.area === got.first && got.ground === got.second && got.first !== got.second,
        `${game}: the graph's area ${got.area} (${first}: ${got.first}), ground ${got.ground} (${second}: ${got.second})`);
      assert(got.labels[0][0] === word(first) && got.labels[0][1] === got.first, `${game}: upper label ${got.labels[0]}`);
      assert(got.labels[1][0] === word(second) && got.labels[1][1] === got.second, `${game}: lower label ${got.labels[1]}`);
      await page.evaluate(() => document.querySelector('#eval-graph').scrollIntoView({ block: 'nearest' }));
      await shot(page, `bug37-5-graph-${game}-${viewport.width}`);
    }
  }
});

test('bug: player bars keep whole names and facts, with the winner shown', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    await createFromStartPage(page, { game: 'sight-reduction', mode: 'computer', level: 10 });
    await waitTurn(page);
    await page.locator('#btn-resign').click();
    await page.locator('#confirm-yes').click();
    await page.waitForSelector('.winner-tag');
    await page.evaluate(() => window.scrollTo(0, 0));
    const cut = await page.evaluate(() => [...document.querySelectorAll('.player-bar .pname strong, .player-bar .pfact')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().height > 2.2 * parseFloat(getComputedStyle(e).fontSize))
      .map((e) => e.textContent));
    assert(!cut.length, `cut or wrapped at ${viewport.width}px: ${cut}`);
    assert(await inView(page, '.result-banner'), 'the result is outside the window');
    await shot(page, `player-bars-${viewport.width}`);
  }
});

test('bug: moves are numbered one per move, as in the record, with no placeholder at the end', async () => {
  const { page } = await newBrowser();
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' });
  const rand = rng(9);
  for (let i = 0; i < 3; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  await page.locator('#btn-resign').click();
  await page.locator('#confirm-yes').click();
  await page.waitForFunction(() => document.querySelector('main').dataset.status === 'finished');
  const n = (await apiGet(`/api/games/${id}`)).moves.length;
  const nums = await page.locator('.move-list .mv-num').allInnerTexts();
  assert(nums.join(' ') === Array.from({ length: n }, (_, i) => `${i + 1}.`).join(' '), `move numbers ${nums} for ${n} moves`);
  assert(!(await page.locator('.move-list .mv-empty').count()), 'a placeholder in the move list');
  const pgn = await fetch(`${origin()}/api/games/${id}/record?format=pgn`).then((r) => r.text());
  assert(new RegExp(`\\n${n}\\. \\S+$`).test(pgn.trimEnd()), `record ends '${pgn.slice(-40)}'`);
  await page.goto(`${pageOrigin()}/games`);
  await page.waitForSelector('.games-table');
  const row = await page.locator(`.games-table tr:has(a[href="/games/${id}"]) td.num`).innerText();
  assert(row === String(n), `the game list counts ${row} moves, the game has ${n}`);
});

test('layout: board, turn and buttons fit the window for every game', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    for (const game of Object.keys(GAMES)) {
      await createFromStartPage(page, { game, mode: 'same', options: GAMES[game].options });
      await waitTurn(page);
      await page.waitForTimeout(150);
      for (const sel of ['.board', '.player-bar.active', '.feedback']) {
        assert(await inView(page, sel), `${game}: ${sel} outside the ${viewport.width}x${viewport.height} window`);
      }
      if (viewport.width > 1000) assert(await inView(page, '#status'), `${game}: the status is outside the window`);
      await page.locator('#btn-resign').click();
      await page.locator('#confirm-yes').click();
      await page.waitForSelector('.result-banner');
      // Reaching the Resign button may have scrolled a phone's page; the check is of the layout.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(150);
      for (const sel of ['.board', '.result-banner']) {
        assert(await inView(page, sel), `${game} over: ${sel} outside the ${viewport.width}x${viewport.height} window`);
      }
      await shot(page, `layout-${game}-${viewport.width}-over`);
    }
  }
});

test('phone-size layout and pages', async () => {
  const { page } = await newBrowser({ width: 390, height: 844 });
  await page.goto(`${pageOrigin()}/`);
  await page.waitForSelector('.game-card');
  await shot(page, 'phone-home');
  await createFromStartPage(page, { game: 'assideum', mode: 'computer', level: 1 });
  await waitTurn(page);
  const box = await page.locator('.board').boundingBox();
  assert(box.width <= 390 && box.width > 300, `board width ${box.width} on a phone`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  assert(!overflow, 'the page scrolls sideways on a phone');
  await shot(page, 'phone-assideum');
  // The game above is kept in the browser: the server's list gets one of its own.
  await apiPost('/api/games', { game: 'opprimo', seats: { first: 'human', second: 'human' } });
  await page.goto(`${pageOrigin()}/games`);
  await page.waitForSelector('.games-table');
  await shot(page, 'phone-games');
  await page.goto(`${pageOrigin()}/rules/opprimo`);
  await page.waitForSelector('.rules h1, .rules h2');
  await shot(page, 'phone-rules');
  const wide = await newBrowser();
  await wide.page.goto(`${pageOrigin()}/`);
  await wide.page.waitForSelector('.game-card');
  await shot(wide.page, 'home');
  await wide.page.goto(`${pageOrigin()}/rules/assideum`);
  await wide.page.waitForSelector('.rules h1, .rules h2');
  await shot(wide.page, 'rules-assideum');
  await wide.page.goto(`${pageOrigin()}/games`);
  await wide.page.waitForSelector('.games-table');
  await shot(wide.page, 'games');
});

test('rules pages draw their figures with the board renderer, at both sizes', async () => {
  const cat = await apiGet('/api/catalog');
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    for (const g of cat.games) {
      await page.goto(`${pageOrigin()}/rules/${g.name}`);
      await page.waitForSelector('.rules[data-figures="drawn"]');
      const figs = await page.evaluate(() => [...document.querySelectorAll('figure.board-figure')].map((f) => ({
        name: f.dataset.name,
        drawn: f.dataset.drawn === 'true',
        failed: f.dataset.failed || '',
        picture: !!f.querySelector('img'),
        cells: f.querySelectorAll('svg.board .cells rect, svg.board .points circle, svg.board .points use').length,
        pieces: f.querySelectorAll('svg.board .pieces .pc').length,
        caption: (f.querySelector('figcaption') || {}).textContent || '',
        width: f.querySelector('svg.board') ? f.querySelector('svg.board').getBoundingClientRect().width : 0,
      })));
      assert(figs.length >= 4, `${g.name}: ${figs.length} figures`);
      for (const f of figs) {
        assert(f.drawn && !f.failed, `${g.name}: figure ${f.name} not drawn (${f.failed})`);
        assert(!f.picture, `${g.name}: figure ${f.name} shows its picture besides the board`);
        assert(f.cells > 0, `${g.name}: figure ${f.name} has no board`);
        assert(f.caption.length > 20, `${g.name}: figure ${f.name} has no caption`);
        assert(f.width > 100 && f.width <= viewport.width, `${g.name}: figure ${f.name} is ${f.width}px wide`);
      }
      assert(figs.some((f) => f.pieces > 0), `${g.name}: no figure shows a piece`);
      // The picture each figure falls back on is served.
      const r = await fetch(`${origin()}/rules/figures/${figs[0].name}.svg`);
      assert(r.ok && (r.headers.get('content-type') || '').startsWith('image/svg+xml'), `${figs[0].name}.svg: ${r.status}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      assert(!overflow, `${g.name}: the rules page scrolls sideways at ${viewport.width}px`);
      await page.screenshot({ path: path.join(artifacts, `rules-${g.name}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
    }
  }
});

test('rules figures: the committed pictures are up to date', async () => {
  const { page } = await newBrowser();
  const problems = compareWithCommitted(await drawnPictures(page, origin()));
  assert(!problems.length, `${problems.join('; ')}: run node web/tests/figures.mjs`);
});

test('findings: each game\'s page shows what the reports found, with charts, reached from the rules and the start page', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    // From the start page's line about the game to its findings.
    await page.goto(`${pageOrigin()}/?game=sight-reduction`);
    await page.click('#home-findings');
    await page.waitForURL(/\/findings\/sight-reduction$/);
    await page.waitForSelector('.findings h1');
    const title = await page.textContent('.findings h1');
    assert(/Sight Reduction/.test(title), `heading: ${title}`);
    assert(await inView(page, '.findings h1'), 'the heading is in view');
    // Its charts load (the server serves them beside the page), and tables scroll on their own.
    const charts = await page.$$eval('.findings img', (imgs) => imgs.map((i) => ({ src: i.getAttribute('src'), wrapped: i.parentElement.classList.contains('chart-wrap') })));
    assert(charts.length > 0 && charts.every((c) => c.wrapped), `charts: ${JSON.stringify(charts)}`);
    await page.locator('.findings img').first().scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.querySelectorAll('.findings img')].every((i) => i.complete && i.naturalWidth > 0));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 1, `the page does not scroll sideways (${overflow} px)`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `findings-${viewport.width}`);
    // The rules page leads here too, and the definitions are one click away.
    await page.goto(`${pageOrigin()}/rules/sight-reduction`);
    await page.click('#rules-findings');
    await page.waitForURL(/\/findings\/sight-reduction$/);
    await page.click('nav.rules-nav a[href="/findings/README"]');
    await page.waitForSelector('.findings h1');
    assert(/report/i.test(await page.textContent('.findings h1')), 'the reports page');
    // An unknown page says so.
    await page.goto(`${pageOrigin()}/findings/chess`);
    await page.waitForSelector('.findings h1');
    assert(/No findings/.test(await page.textContent('.findings h1')), 'unknown page');
  }
});

test('legend: each game explains its pieces and marks beside the board, on demand', async () => {
  const cat = await apiGet('/api/catalog');
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    for (const g of cat.games) {
      assert(g.legend && g.legend.length >= 2, `${g.name}: the catalog has no legend`);
      await createFromStartPage(page, { game: g.name, mode: 'same', options: (GAMES[g.name] || {}).options || {} });
      await waitTurn(page);
      assert(await page.locator('#legend').isHidden(), `${g.name}: the legend shows before it is asked for`);
      await page.locator('#btn-legend').click();
      await page.waitForSelector('#legend .legend-item');
      const items = await page.evaluate(() => [...document.querySelectorAll('#legend .legend-item')].map((li) => ({
        name: li.dataset.name,
        text: li.querySelector('.legend-words p').textContent,
        drawn: li.querySelectorAll('svg.board .cells rect, svg.board .triangles polygon, svg.board .points circle, svg.board .points use, svg.board .pieces .pc').length,
        width: li.querySelector('svg.board').getBoundingClientRect().width,
      })));
      assert(items.length === g.legend.length, `${g.name}: ${items.length} legend entries shown of ${g.legend.length}`);
      for (const [i, it] of items.entries()) {
        assert(it.name === g.legend[i].name && it.text === g.legend[i].text, `${g.name}: entry ${i} is not the game's own`);
        assert(it.drawn > 0 && it.width > 20, `${g.name}: the picture of '${it.name}' is empty`);
      }
      // The legend's pieces are the board's: the same drawing of the same piece.
      const kinds = new Set(g.legend.flatMap((l) => l.sample.cells.flatMap((c) => (c.pieces || []).map((p) => p.kind))));
      for (const kind of kinds) {
        // Fighters are drawn as planes (`.fighter`), every other piece as `.pc-KIND`.
        const sel = kind === 'fighter' ? '#legend .fighter' : `#legend .pc-${kind}`;
        assert(await page.locator(sel).count() > 0, `${g.name}: no ${kind} drawn in the legend`);
      }
      assert(await inView(page, '#legend .legend-item'), `${g.name}: the legend opened out of sight`);
      await page.screenshot({ path: path.join(artifacts, `legend-${g.name}-${viewport.width}.png`), fullPage: viewport.width < 600, animations: 'disabled' });
      await page.locator('#btn-legend').click();
      assert(await page.locator('#legend').isHidden(), `${g.name}: the legend did not close`);
    }
  }
});

test('rematch: offered after an online game, accepted, both players follow with colours swapped', async () => {
  const a = await newBrowser();
  await createFromStartPage(a.page, { game: 'obsidio', mode: 'online', options: { size: '7' } });
  const id = gameId(a.page);
  const link = await a.page.locator('#invite-link').inputValue();
  const b = await newBrowser();
  await b.page.goto(link);
  await b.page.waitForSelector('.board .hit');
  await b.page.locator('#btn-resign').click();
  await b.page.locator('#confirm-yes').click();
  await a.page.waitForSelector('#btn-rematch');
  await a.page.click('#btn-rematch');
  await b.page.waitForSelector('#btn-rematch-accept');
  await shot(b.page, 'rematch-offered');
  await b.page.click('#btn-rematch-accept');
  // Both pages go to the new game, each holding the other seat.
  for (const p of [a.page, b.page]) await p.waitForFunction((old) => !location.pathname.includes(old) && /\/games\/[a-z0-9]+$/.test(location.pathname), id);
  assert(a.page.url() === b.page.url(), 'both in the same rematch');
  const newId = gameId(a.page);
  const st = await apiGet(`/api/games/${newId}`);
  assert(st.status === 'ongoing' && st.moves.length === 0, 'a fresh game');
  // The first seat (B now) is to move: B's page may move, A's waits.
  await waitTurn(b.page);
  const sa = await pageState(a.page);
  assert(!sa.canMove, 'A holds the second seat now');
  await playOneByClicks(b.page, rng(3));
  await waitTurn(a.page);
  await shot(a.page, 'rematch-started');
});

test('screen readers: every cell is named with what stands on it and whether it can be chosen', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' });
  await page.waitForSelector('.board .hit');
  const st = await apiGet(`/api/games/${gameId(page)}`);
  const titles = await page.$$eval('.board .hit > title', (ts) => ts.map((t) => t.textContent));
  assert(titles.length === st.board.cells.length, `${titles.length} cells named`);
  assert(titles.some((t) => /^[a-h][1-8]: (white|black) /.test(t)), `pieces named: ${titles.slice(0, 3)}`);
  await page.waitForSelector('.board .hit-active');
  const active = await page.$$eval('.board .hit-active > title', (ts) => ts.map((t) => t.textContent));
  assert(active.length && active.every((t) => t.endsWith(': can be chosen')), `the cells that can be chosen say so: ${active.slice(0, 3)}`);
  // The move sound (in the settings menu) is off until turned on, and the choice stays after a reload.
  await page.click('#btn-settings');
  assert(!(await page.locator('#set-sound').isChecked()), 'sound off by default');
  await setting(page, '#set-sound', true);
  await page.reload();
  await page.click('#btn-settings');
  assert(await page.locator('#set-sound').isChecked(), 'sound stays on');
});

// ---------------------------------------------------------------- themes and colours

/** Opens the settings menu unless it is open. */
async function openSettings(page) {
  if (!(await page.locator('#settings').evaluate((d) => d.open))) await page.click('#btn-settings');
}

/** Turns a switch of the settings menu on or off: a click on its words, as a person would. */
async function setting(page, selector, on) {
  await openSettings(page);
  if ((await page.locator(selector).isChecked()) !== on) await page.locator('.setting .switch', { has: page.locator(selector) }).click();
  assert((await page.locator(selector).isChecked()) === on, `${selector} did not turn ${on ? 'on' : 'off'}`);
  await settled(page);
}

/** Waits until the page's transitions (buttons fading to new colours) have ended. */
async function settled(page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
}

/** Chooses the theme in the settings menu: 'system', 'light' or 'dark'. */
async function chooseTheme(page, value) {
  await openSettings(page);
  await page.locator('#settings label.seg', { has: page.locator(`input[value="${value}"]`) }).click();
  await settled(page);
}

/**
 * Runs in the page: the relative luminance of the page's background, and for the text of each
 * visible element the selectors match (up to 12 each), the WCAG contrast ratio of its colour
 * against what lies behind it (its own and its ancestors' backgrounds, blended; against a
 * gradient, the worst of its colours).
 */
function contrastReport(selectors) {
  const parse = (css) => {
    const m = /rgba?\(([^)]+)\)/.exec(css);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const luminance = ([r, g, b]) => {
    const f = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  // The colours that may lie behind `el`: one, or a gradient's stops.
  const behind = (el) => {
    const layers = [];
    let base = [[255, 255, 255, 1]];
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.backgroundImage.includes('gradient')) {
        base = cs.backgroundImage.match(/rgba?\([^)]+\)/g).map((c) => over(parse(c), [255, 255, 255, 1]));
        break;
      }
      const c = parse(cs.backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    return base.map((b) => layers.reverse().reduce((under, c) => over(c, under), b));
  };
  const items = [];
  for (const selector of selectors) {
    const els = [...document.querySelectorAll(selector)]
      .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && e.textContent.trim())
      .slice(0, 12);
    if (!els.length) items.push({ selector, missing: true });
    for (const e of els) {
      const ratios = behind(e).map((bg) => {
        const [hi, lo] = [luminance(over(parse(getComputedStyle(e).color), bg)), luminance(bg)].sort((a, b) => b - a);
        return (hi + 0.05) / (lo + 0.05);
      });
      items.push({ selector, text: e.textContent.trim().slice(0, 40), ratio: Math.min(...ratios) });
    }
  }
  return { page: luminance(behind(document.documentElement)[0]), items };
}

/** The page's background is dark (or light), and the text the selectors match reads well on it. */
async function checkContrast(page, what, selectors, dark = true) {
  const r = await page.evaluate(contrastReport, selectors);
  assert(dark ? r.page < 0.05 : r.page > 0.5, `${what}: the page background is not ${dark ? 'dark' : 'light'} (luminance ${r.page.toFixed(3)})`);
  for (const it of r.items) {
    assert(!it.missing, `${what}: nothing visible matches ${it.selector}`);
    assert(it.ratio >= 4.5, `${what}: '${it.text}' (${it.selector}) has a contrast of ${it.ratio.toFixed(2)}, under 4.5`);
  }
}

const TEXT = ['.nav a', 'main h1, main h2', 'main a[href]', 'main .btn:not(:disabled)'];

test('dark theme: a device set to dark gets dark pages with readable text', async () => {
  for (const [viewport, name] of [[{ width: 1280, height: 800 }, 'dark-desktop'], [{ width: 390, height: 844 }, 'dark-phone']]) {
    const { page } = await newBrowser(viewport, { colorScheme: 'dark' });
    await page.goto(`${pageOrigin()}/`);
    await page.waitForSelector('.game-card');
    await checkContrast(page, `start page ${name}`, [...TEXT, 'main p', '.gc-title', '.mode-card strong', '.mode-card span', '.opt-label', '.seg', '#start-game']);
    await shot(page, name);
    await openSettings(page);
    await checkContrast(page, `settings ${name}`, ['.settings-menu h2', '.settings-menu legend', '.settings-menu .seg', '.setting .switch', '.setting .opt-desc']);
    await shot(page, `${name}-settings`);
    await page.keyboard.press('Escape');
    for (const game of Object.keys(GAMES)) {
      await createFromStartPage(page, { game, mode: 'same', options: GAMES[game].options });
      await waitTurn(page);
      await checkContrast(page, `${game} ${name}`, [...TEXT, '#status', '.player-bar strong', '.pcolour', '.fact dt', '.fact dd']);
      await shot(page, `${name}-${game}`);
    }
    await page.goto(`${pageOrigin()}/rules/obsidio`);
    await page.waitForSelector('.rules[data-figures="drawn"]');
    await checkContrast(page, `rules ${name}`, [...TEXT, 'main p', '.rules li', '.rules code', '.rules th', '.rules td', '.rules figcaption', '.rules-nav a']);
    await shot(page, `${name}-rules`);
  }
});

test('theme: the choice in the settings menu overrides the device and survives a reload', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 }, { colorScheme: 'light' });
  const background = async () => (await page.evaluate(contrastReport, [])).page;
  const chosen = () => page.evaluate(() => document.documentElement.dataset.theme || 'system');
  // Every colour of the stylesheet's :root rule, as this page computes it.
  const palette = () => page.evaluate(() => {
    const root = [...document.styleSheets].flatMap((sh) => [...sh.cssRules]).find((r) => r.selectorText === ':root');
    const cs = getComputedStyle(document.documentElement);
    return Object.fromEntries([...root.style].filter((p) => p.startsWith('--')).map((p) => [p, cs.getPropertyValue(p).trim()]));
  });
  await page.goto(`${pageOrigin()}/`);
  await page.waitForSelector('.game-card');
  assert(await background() > 0.5, 'a device set to light starts light');
  await chooseTheme(page, 'dark');
  assert(await background() < 0.05 && (await chosen()) === 'dark', 'Dark makes the page dark at once');
  await checkContrast(page, 'chosen dark', TEXT);
  await page.reload();
  await page.waitForSelector('.game-card');
  assert(await background() < 0.05, 'dark after a reload');
  await openSettings(page);
  assert(await page.locator('#settings input[value="dark"]').isChecked(), 'the menu shows Dark after a reload');
  const darkChosen = await palette();
  // The choice applies before the app's script runs: no light flash on a reload.
  await page.route('**/js/main.js', (r) => r.abort());
  await page.reload();
  assert(await background() < 0.05, 'dark before the app starts');
  await page.unroute('**/js/main.js');
  await page.reload();
  await page.waitForSelector('.game-card');
  // "Same as this device" follows the device, both ways; the device's dark is the chosen dark.
  await chooseTheme(page, 'system');
  assert(await background() > 0.5 && (await chosen()) === 'system', 'back to the light device');
  await page.emulateMedia({ colorScheme: 'dark' });
  await settled(page);
  assert(await background() < 0.05, 'the device turned dark, and so did the page');
  const darkDevice = await palette();
  const differ = Object.keys(darkChosen).filter((k) => darkChosen[k] !== darkDevice[k]);
  assert(Object.keys(darkChosen).length > 40 && !differ.length, `the chosen and the device's dark palettes differ: ${differ.join(', ')}`);
  // Light on a dark device, after a reload too.
  await chooseTheme(page, 'light');
  assert(await background() > 0.5, 'Light on a dark device');
  await page.reload();
  await page.waitForSelector('.game-card');
  assert(await background() > 0.5 && (await chosen()) === 'light', 'light after a reload on a dark device');
  await checkContrast(page, 'chosen light', TEXT, false);
});

test('colour-blind-safe colours: moves and captures change colour, stay distinct, and captures get a shape', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  // White's Vedrin on d3 may step to c4 or e4 (a dot each) or take Black's Vedrin on d4 (a ring).
  await createFromStartPage(page, { game: 'assideum', mode: 'same', position: '7k/8/8/8/3v4/3V4/8/K7 w 0' });
  await waitTurn(page);
  await clickCell(page, 'd3');
  await page.waitForSelector('.board .tgt.target-capture');
  await page.waitForSelector('.board .tgt.target-move');
  const marks = () => page.evaluate(() => {
    const css = (sel, prop) => getComputedStyle(document.querySelector(sel)).getPropertyValue(prop);
    const root = getComputedStyle(document.documentElement);
    return {
      move: css('.board .tgt.target-move', 'fill'),
      capture: css('.board .tgt.target-capture', 'stroke'),
      dashes: css('.board .tgt.target-capture', 'stroke-dasharray'),
      square: css('.board .sq-light', 'fill'),
      ok: root.getPropertyValue('--ok').trim(),
      danger: root.getPropertyValue('--danger').trim(),
    };
  });
  const usual = await marks();
  await setting(page, '#set-colour-blind', true);
  await page.keyboard.press('Escape');
  const safe = await marks();
  for (const k of ['move', 'capture', 'ok', 'danger']) assert(usual[k] !== safe[k], `${k} keeps its colour ${safe[k]}`);
  assert(usual.dashes === 'none' && safe.dashes !== 'none', `a capture ring is dotted: ${safe.dashes}`);
  // Told apart under deuteranopia and protanopia (Machado et al. 2009), as drawn on a light square.
  const rgba = (css) => /rgba?\(([^)]+)\)/.exec(css)[1].split(/[\s,/]+/).filter(Boolean).map(Number);
  const onSquare = (css) => {
    const [r, g, b, a = 1] = rgba(css);
    const sq = rgba(safe.square);
    return [r, g, b].map((v, i) => v * a + sq[i] * (1 - a));
  };
  const simulate = (c, m) => {
    const lin = c.map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return m.map((row) => {
      const x = Math.min(1, Math.max(0, row.reduce((s, k, j) => s + k * lin[j], 0)));
      return 255 * (x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055);
    });
  };
  const SIGHT = {
    deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
    protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  };
  for (const [sight, m] of Object.entries(SIGHT)) {
    const d = Math.hypot(...simulate(onSquare(safe.move), m).map((v, i) => v - simulate(onSquare(safe.capture), m)[i]));
    assert(d > 120, `with ${sight}, moves and captures are ${d.toFixed(0)} apart`);
  }
  await shot(page, 'colourblind-desktop');
  // Kept after a reload, with the legend's words to match.
  await page.reload();
  await page.waitForSelector('.board .hit');
  assert(await page.evaluate(() => document.documentElement.dataset.palette) === 'colour-blind', 'the palette after a reload');
  await page.locator('#btn-legend').click();
  await page.waitForSelector('#legend .legend-note');
  const note = await page.locator('#legend .legend-note').innerText();
  assert(/blue for a move/.test(note) && !/green/.test(note), `the legend speaks of the colours shown: ${note}`);
  await setting(page, '#set-colour-blind', false);
  const off = await page.evaluate(() => [document.documentElement.dataset.palette, getComputedStyle(document.documentElement).getPropertyValue('--danger').trim()]);
  assert(!off[0] && off[1] === usual.danger, `the usual colours again: ${off}`);
});

// ---------------------------------------------------------------- review and analysis

async function apiPost(p, body) {
  const r = await fetch(origin() + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`POST ${p}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

/** A finished same-screen game played through the API with the first legal move each turn. */
async function finishedGame(game, seed, maxMoves = 400) {
  const made = await apiPost('/api/games', { game, seed, same_screen: true });
  let st = made.state;
  for (let i = 0; i < maxMoves && st.status === 'ongoing'; i += 1) {
    st = await apiPost(`/api/games/${made.id}/moves`, { move: st.legal_moves[0], token: made.tokens.first });
  }
  return { id: made.id, state: st };
}

/** Plays one move on the analysis board by clicking; resolves when the position changed. */
async function analysisClickMove(page, rand) {
  const before = await page.evaluate(() => document.querySelector('main').dataset.depth);
  for (let step = 0; step < 8; step += 1) {
    const chooser = page.locator('.chooser-btn');
    if (await chooser.count()) await chooser.first().click();
    else {
      const cells = await clickables(page);
      const targets = cells.filter((c) => c.target);
      const pool = targets.length ? targets : cells;
      if (!pool.length) {
        const btn = page.locator('.move-buttons .btn-move');
        if (await btn.count()) await btn.first().click();
        else throw new Error('nothing to click on the analysis board');
      } else {
        const c = pool[Math.floor(rand() * pool.length)];
        await clickCell(page, c.cell, c.layer);
      }
    }
    // The position comes from the server: give it time before the next click.
    const moved = await page.waitForFunction((b) => document.querySelector('main').dataset.depth !== b, before, { timeout: 400, polling: 20 })
      .then(() => true, () => false);
    if (moved) return Number(await page.evaluate(() => document.querySelector('main').dataset.depth));
  }
  throw new Error('the analysis board did not take a move');
}

test('review: a finished game reviewed in the browser, with graph, marks, best move and summary', async () => {
  const { id, state } = await finishedGame('sight-reduction', 21);
  const n = state.moves.length;
  for (const [w, hgt, name] of [[1280, 800, 'review-desktop'], [390, 844, 'review-phone']]) {
    const { page } = await newBrowser({ width: w, height: hgt });
    await page.goto(`${pageOrigin()}/games/${id}`);
    await page.waitForSelector('#link-review');
    await page.click('#link-review');
    await page.waitForSelector('#eval-graph svg', { timeout: 60000 });
    assert((await page.locator('#review-moves .mv').count()) === n, 'every move is in the list');
    assert((await page.locator('#review-summary tbody tr').count()) === 2, 'a summary row per side');
    await page.waitForSelector('.board .hint-mark');
    assert(await inView(page, '.board'), 'the board is in view');
    assert(await inView(page, '#review-comment'), 'the comment is in view');
    // A click on the graph goes to that move; the move list follows.
    const box = await page.locator('#eval-graph svg').boundingBox();
    await page.locator('#eval-graph svg').click({ position: { x: box.width / 2, y: box.height / 2 } });
    await page.waitForFunction((k) => Math.abs(Number(document.querySelector('main').dataset.ply) - k) <= 1, n / 2);
    const shown = await page.evaluate(() => document.querySelector('main').dataset.ply);
    const current = await page.locator('#review-moves .mv-current').getAttribute('data-ply');
    assert(current === shown, `the list marks move ${current}, the board shows ${shown}`);
    const text = await page.locator('#review-comment').innerText();
    assert(/best move|good|inaccuracy|mistake|blunder/.test(text) && !/seat|ply/i.test(text), `comment in words: ${text}`);
    await shot(page, name);
  }
  // Stored: the review answers at once from the database.
  const again = await apiGet(`/api/games/${id}/review`);
  assert(again.status === 'done' && again.review.plies.length === n, 'the review is stored');
});

test('review: a pasted record is reviewed on the Review page', async () => {
  const { id, state } = await finishedGame('sight-reduction', 22);
  const record = await (await fetch(`${origin()}/api/games/${id}/record?format=pgn`)).text();
  const { page } = await newBrowser({ width: 1280, height: 800 });
  await page.goto(`${pageOrigin()}/review`);
  await page.fill('#record-text', 'not a record');
  await page.click('#review-go');
  await page.waitForSelector('.review-form .feedback-error');
  await page.fill('#record-text', record);
  await page.click('#review-go');
  await page.waitForSelector('#eval-graph svg', { timeout: 60000 });
  assert((await page.locator('#review-moves .mv').count()) === state.moves.length, 'every move is listed');
  await shot(page, 'review-upload');
});

test('engine in the browser: the analysis board evaluates every game in the page, never asking the server', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const asked = [];
  await page.route('**/api/analysis?**', (route) => {
    asked.push(route.request().url());
    return route.abort();
  });
  for (const game of ['sight-reduction', 'obsidio', 'opprimo', 'assideum']) {
    const t0 = Date.now();
    await page.goto(`${pageOrigin()}/analysis?game=${game}`);
    await page.waitForSelector('#engine-text', { timeout: 20000 });
    console.log(`    ${game}: first evaluation ${Date.now() - t0} ms after opening the page`);
    const best = (await page.locator('#engine-best').innerText()).trim();
    const view = await apiPost('/api/positions', { game });
    assert(view.legal_moves.includes(best), `${game}: the best move '${best}' is legal`);
  }
  // After a move the new position is evaluated, and a later one replaces an evaluation under way.
  const rand = rng(4);
  await analysisClickMove(page, rand);
  await analysisClickMove(page, rand);
  await page.waitForSelector('#engine-text', { timeout: 20000 });
  assert(!asked.length, `the server was asked: ${asked.join(' ')}`);
  await shot(page, 'engine-analysis-1280');
  // The exact solver, as a page's own script calls it: the same answer as `boardlab solve`.
  const solved = await page.evaluate(async () => {
    const m = await import('/js/engine/index.js');
    const two = await m.engineSolve({ game: 'sight-reduction', seed: 3 });
    const refused = await m.engineSolve({ game: 'obsidio' }).then(() => '', (e) => e.message);
    return { two, refused };
  });
  assert(solved.two.result === 'loss' && solved.two.moves.length > 0 && solved.two.moves.every((x) => x.result === 'loss'), `solve: ${JSON.stringify(solved.two).slice(0, 200)}`);
  assert(/no exact solver/.test(solved.refused), `solving obsidio: '${solved.refused}'`);
});

test('engine in the browser: a hint on the game page is worked out in the page, the server never asked', async () => {
  const { page } = await newBrowser();
  const asked = [];
  await page.route('**/api/games/*/hint', (route) => {
    asked.push(route.request().url());
    return route.abort();
  });
  for (const game of ['sight-reduction', 'opprimo']) {
    const id = await createFromStartPage(page, { game, mode: 'same' });
    await waitTurn(page);
    await page.locator('#btn-hint').click();
    await page.waitForSelector('.feedback-advice', { timeout: 30000 });
    const move = /Hint: (\S+)/.exec(await page.locator('.feedback-advice').innerText())[1];
    const st = await apiGet(`/api/games/${id}`);
    assert(st.legal_moves.includes(move), `${game}: the hint ${move} is a legal move`);
  }
  assert(!asked.length, `the server was asked for a hint: ${asked.join(' ')}`);
});

test('engine in the browser: where the engine cannot load, the server evaluates and hints', async () => {
  const { ctx, page } = await newBrowser({ width: 1280, height: 800 });
  await ctx.route('**/engine/boardlab_wasm*', (route) => route.abort());
  await page.goto(`${pageOrigin()}/analysis?game=obsidio`);
  await page.waitForSelector('#engine-text', { timeout: 30000 });
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' });
  await waitTurn(page);
  await page.locator('#btn-hint').click();
  await page.waitForSelector('.feedback-advice', { timeout: 30000 });
  const move = /Hint: (\S+)/.exec(await page.locator('.feedback-advice').innerText())[1];
  assert((await apiGet(`/api/games/${id}`)).legal_moves.includes(move), `the server's hint ${move} is legal`);
  // The engine's refused files are the point of this test, not errors of the page.
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !/boardlab_wasm/.test(e)));
});

test('analysis board: scratch moves, side lines, streamed evaluation, shared link', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  // From a game: analysis changes nothing in it.
  const made = await apiPost('/api/games', { game: 'opprimo', seed: 5, same_screen: true });
  await page.goto(`${pageOrigin()}/games/${made.id}`);
  await page.waitForSelector('#link-analyse');
  await page.click('#link-analyse');
  await page.waitForSelector('#engine-text', { timeout: 20000 });
  const rand = rng(9);
  assert((await analysisClickMove(page, rand)) === 1, 'a first move');
  const t0 = Date.now();
  await page.waitForSelector('#engine-text', { timeout: 20000 });
  console.log(`    first evaluation ${Date.now() - t0} ms after the move`);
  await analysisClickMove(page, rand);
  await page.click('#an-back');
  await page.click('#an-back');
  await page.waitForFunction(() => document.querySelector('main').dataset.depth === '0');
  // Another first move: a side line beside the first one.
  let d = 0;
  for (let i = 0; i < 5 && (await page.locator('.variation').count()) === 0; i += 1) {
    if (d) {
      await page.click('#an-back');
      await page.waitForFunction(() => document.querySelector('main').dataset.depth === '0');
    }
    d = await analysisClickMove(page, rand);
  }
  assert((await page.locator('.variation').count()) >= 1, 'a side line is shown');
  await page.waitForSelector('#engine-text', { timeout: 20000 });
  assert(await inView(page, '#engine-text'), 'the evaluation is in view');
  await shot(page, 'analysis-desktop');
  const st = await apiGet(`/api/games/${made.id}`);
  assert(st.moves.length === 0 && st.version === made.state.version, 'the game is unchanged');
  // The address holds the moves: a second browser opens the same position.
  const url = page.url();
  assert(/[?&]m=/.test(url), `moves in the address: ${url}`);
  const phone = await newBrowser({ width: 390, height: 844 });
  await phone.page.goto(url);
  await phone.page.waitForFunction((k) => document.querySelector('main').dataset.depth === String(k), d);
  await phone.page.waitForSelector('#engine-text', { timeout: 20000 });
  assert(await inView(phone.page, '.board'), 'the board is in view on a phone');
  await shot(phone.page, 'analysis-phone');
  // Bad position text: a clear message, no crash.
  await phone.page.goto(`${pageOrigin()}/analysis?game=obsidio&position=nonsense`);
  await phone.page.waitForSelector('.error-text');
});

// ---------------------------------------------------------------- tutorials and puzzles

/** Waits until a tutorial or puzzle page is ready for a click. */
async function waitPractice(page, timeout = 20000) {
  await page.waitForFunction(() => document.querySelector('main').dataset.state === 'play'
    && document.querySelector('.practice .board .hit'), null, { timeout, polling: 50 });
}

async function feedback(page) {
  return page.evaluate(() => {
    const f = document.querySelector('.practice-feedback');
    return { text: f.textContent, error: f.classList.contains('feedback-error'), ok: f.classList.contains('feedback-ok'), advice: f.classList.contains('feedback-advice') };
  });
}

test('tutorial: a step done by clicking, wrong attempts refused with words, show me, progress after reload', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const tutorial = await apiGet('/api/tutorials/sight-reduction');
  await page.goto(`${pageOrigin()}/learn/sight-reduction`);
  await waitPractice(page);
  assert((await page.locator('.step-count').textContent()).includes(`Step 1 of ${tutorial.steps.length}`), 'step count');
  assert((await page.locator('.practice-status').textContent()) === 'White to move — your turn', 'turn words');
  // A click on a piece that cannot go: the lesson's own words.
  await clickCell(page, 'b7');
  let f = await feedback(page);
  assert(f.error && f.text === tutorial.steps[0].mistakes.find((m) => m.cell === 'b7').text, `b7 refused: ${f.text}`);
  // The move of the goal, by clicking.
  await clickCell(page, 'a3');
  await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved');
  f = await feedback(page);
  assert(f.ok && f.text === tutorial.steps[0].done, `success words: ${f.text}`);
  assert(await page.locator('#btn-next.btn-primary').count() === 1, 'Next is offered');
  assert((await page.locator('.step-dot').first().textContent()) === '✓', 'step 1 marked done');
  await shot(page, 'learn-step-done-1280');
  // Step 3: a legal move outside the goal is refused with the lesson's words, and nothing moves.
  await page.locator('.step-dot').nth(2).click();
  await page.waitForFunction(() => document.querySelector('main').dataset.step === '2' && document.querySelector('main').dataset.state === 'play');
  await waitPractice(page);
  const pieces = () => page.evaluate(() => document.querySelectorAll('.practice .board .pc').length);
  const before = await pieces();
  await clickCell(page, 'a5');
  f = await feedback(page);
  assert(f.error && f.text === tutorial.steps[2].mistakes.find((m) => m.move === 'a5').text, `a5 refused: ${f.text}`);
  assert(await pieces() === before, 'a refused move changes nothing');
  await page.locator('#btn-hint').click();
  f = await feedback(page);
  assert(f.advice && f.text === tutorial.steps[2].hint, 'hint shown');
  // Show me plays the lesson's move.
  await page.locator('#btn-show').click();
  await page.waitForFunction(() => document.querySelector('main').dataset.state === 'shown');
  f = await feedback(page);
  assert(f.ok && f.text.startsWith('Here is one way:'), `show me: ${f.text}`);
  assert(await pieces() === before - 1, 'show me removed a piece');
  assert((await page.locator('.practice-status').textContent()).startsWith('White wins'), 'the result is shown');
  // After a reload: the same step, step 1 still done.
  await page.reload();
  await page.waitForFunction(() => document.querySelector('main').dataset.step === '2');
  await waitPractice(page);
  assert((await page.locator('.step-dot').first().textContent()) === '✓', 'progress kept after reload');
  assert(await page.locator('.step-dot.dot-shown').count() === 1, 'the shown step is marked');
  // The index page counts the steps done.
  await page.goto(`${pageOrigin()}/learn`);
  await page.waitForSelector('.learn-card[data-game="sight-reduction"]');
  assert((await page.locator('.learn-card[data-game="sight-reduction"]').textContent()).includes('2 done'), 'index shows progress');
});

test('tutorial: every step of every game completes by clicking its show-me move', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  for (const game of Object.keys(GAMES)) {
    const tutorial = await apiGet(`/api/tutorials/${game}`);
    await page.goto(`${pageOrigin()}/learn/${game}`);
    for (let i = 0; i < tutorial.steps.length; i += 1) {
      const step = tutorial.steps[i];
      await page.locator('.step-dot').nth(i).click();
      await page.waitForFunction((n) => document.querySelector('main').dataset.step === String(n), i);
      await waitPractice(page);
      // The show-me move, entered the way a player would: its clicks, a chooser, a button or a claim.
      const view = await (await fetch(`${origin()}/api/positions`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ game, options: step.options, position: step.position }),
      })).json();
      const input = view.interaction.moves.find((m) => m.move === step.show);
      assert(input, `${game} step ${i + 1}: no input for ${step.show}`);
      if (input.paths && input.paths.length) {
        for (const c of input.paths[0]) await clickCell(page, c.cell, c.layer || '');
        const chooser = page.locator(`.chooser .chooser-btn[data-move="${step.show}"]`);
        if (await chooser.count()) await chooser.click();
      } else if (input.set) {
        for (const c of input.set) await clickCell(page, c);
        await page.locator('.pending .btn-primary').click();
      } else {
        await page.locator(`.move-buttons .btn-move[data-move="${step.show}"]`).click();
      }
      await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved', null, { timeout: 5000 })
        .catch(async () => { throw new Error(`${game} step ${i + 1} (${step.title}): not solved; feedback: ${(await feedback(page)).text}`); });
    }
    const done = await page.locator('.step-dot.dot-solved').count();
    assert(done === tutorial.steps.length, `${game}: ${done} of ${tutorial.steps.length} steps done`);
  }
});

test('puzzles: a solitaire solved by clicking, a win against the computer, progress after reload', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const clear = await apiGet('/api/puzzles/clear-easy-1');
  await page.goto(`${pageOrigin()}/puzzles/clear-easy-1`);
  await waitPractice(page);
  assert((await page.locator('.practice-status').textContent()).includes('you remove for both colours'), 'solitaire turn words');
  for (let i = 0; i < clear.solution.length; i += 1) {
    await clickCell(page, clear.solution[i]);
    await page.waitForFunction((n) => {
      const r = document.querySelector('main');
      return r.dataset.moves === String(n) && r.dataset.state !== 'busy';
    }, i + 1, { timeout: 10000 });
  }
  await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved');
  let f = await feedback(page);
  assert(f.ok && f.text.startsWith('Solved'), `solved: ${f.text}`);
  assert((await page.locator('.practice-status').textContent()) === 'Solved', 'status says solved');
  await shot(page, 'puzzle-solved-1280');

  // "Win from here": a losing move is taken back with words; a hinted move gets an answer.
  const win = await apiGet('/api/puzzles/win-easy-1');
  await page.goto(`${pageOrigin()}/puzzles/win-easy-1`);
  await waitPractice(page);
  const start = await (await fetch(`${origin()}/api/positions`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'sight-reduction', position: win.position }),
  })).json();
  const losing = start.legal_moves.find((m) => !win.solution.includes(m) && !m.includes('+'));
  await clickCell(page, losing);
  await page.waitForFunction(() => document.querySelector('.practice-feedback').classList.contains('feedback-error'));
  f = await feedback(page);
  assert(/^That lets (White|Black) win/.test(f.text), `mistake: ${f.text}`);
  assert(await page.evaluate(() => document.querySelector('main').dataset.moves) === '0', 'the mistake is taken back');
  await page.locator('#btn-hint').click();
  await page.waitForFunction(() => document.querySelector('.practice-feedback').classList.contains('feedback-advice'));
  f = await feedback(page);
  const hinted = /^Try (\S+)\.$/.exec(f.text);
  assert(hinted && win.solution.includes(hinted[1]), `hint: ${f.text}`);
  assert(await page.locator('.practice .board .hint-mark').count() > 0, 'the hint is marked on the board');
  await clickCell(page, hinted[1]);
  await page.waitForFunction(() => {
    const r = document.querySelector('main');
    return r.dataset.state !== 'busy' && Number(r.dataset.moves) >= 1;
  }, null, { timeout: 10000 });
  const after = await page.evaluate(() => document.querySelector('main').dataset);
  assert(after.moves === '2' || after.state === 'solved', `the computer answered: ${JSON.stringify(after)}`);
  if (after.moves === '2') {
    f = await feedback(page);
    assert(/answers \S+\. Your turn\./.test(f.text), `reply words: ${f.text}`);
  }

  // The list remembers both, also after a reload.
  await page.goto(`${pageOrigin()}/puzzles`);
  await page.waitForSelector('.puzzle-link[data-puzzle="clear-easy-1"]');
  for (let i = 0; i < 2; i += 1) {
    assert(await page.locator('.puzzle-link.solved[data-puzzle="clear-easy-1"]').count() === 1, 'solved puzzle marked');
    if (after.moves === '2') assert(await page.locator('.puzzle-link.started[data-puzzle="win-easy-1"]').count() === 1, 'started puzzle marked');
    await page.reload();
    await page.waitForSelector('.puzzle-link[data-puzzle="clear-easy-1"]');
  }
  // An unfinished line comes back where it was left.
  if (after.moves === '2') {
    await page.goto(`${pageOrigin()}/puzzles/win-easy-1`);
    await waitPractice(page);
    assert(await page.evaluate(() => document.querySelector('main').dataset.moves) === '2', 'the line is restored');
    await page.locator('#btn-back').click();
    await waitPractice(page);
    assert(await page.evaluate(() => document.querySelector('main').dataset.moves) === '0', 'take back removes the answer too');
  }
});

test('layout: tutorial and puzzle pages keep the board, the task and the buttons in view', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    const size = viewport.width;
    const check = async (what, sels) => {
      await page.waitForTimeout(200);
      for (const sel of sels) assert(await inView(page, sel), `${what}: ${sel} outside the ${size}x${viewport.height} window`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      assert(!overflow, `${what}: the page scrolls sideways at ${size}`);
    };
    for (const game of Object.keys(GAMES)) {
      const tutorial = await apiGet(`/api/tutorials/${game}`);
      await page.goto(`${pageOrigin()}/learn/${game}`);
      // The longest step text of the game, to check the worst case.
      const longest = tutorial.steps.reduce((b, s, i) => (s.text.length > tutorial.steps[b].text.length ? i : b), 0);
      await page.locator('.step-dot').nth(longest).click();
      await page.waitForFunction((n) => document.querySelector('main').dataset.step === String(n), longest);
      await waitPractice(page);
      await check(`learn ${game}`, ['.practice .board', '.practice-title', '.practice-text', '.practice-status', '#btn-hint', '#btn-show', '#btn-next']);
      await shot(page, `learn-${game}-${size}`);
    }
    for (const id of ['clear-medium-1', 'win-medium-1']) {
      await page.goto(`${pageOrigin()}/puzzles/${id}`);
      await waitPractice(page);
      await check(`puzzle ${id}`, ['.practice .board', '.practice-title', '.practice-text', '.practice-status', '#btn-hint', '#btn-next']);
      await shot(page, `puzzle-${id}-${size}`);
    }
    await page.goto(`${pageOrigin()}/learn`);
    await page.waitForSelector('.learn-card');
    await check('learn index', ['.learn-card']);
    await shot(page, `learn-index-${size}`);
    await page.goto(`${pageOrigin()}/puzzles`);
    await page.waitForSelector('.puzzle-link');
    await check('puzzle list', ['.puzzle-link']);
    await shot(page, `puzzles-${size}`);
    await page.goto(`${pageOrigin()}/rules/obsidio`);
    await page.waitForSelector('#rules-learn');
    await page.locator('#rules-learn').click();
    await page.waitForFunction(() => location.pathname === '/learn/obsidio');
    await waitPractice(page);
  }
});

// ---------------------------------------------------------------- drag, slide, zoom

/** The centre of the click target of `cell` (`layer`: a Fighter's icon), in page pixels. */
async function cellCentre(page, cell, layer = '') {
  const sel = layer ? `.board .hit[data-cell="${cell}"][data-layer="${layer}"]` : `.board .hit[data-cell="${cell}"]:not([data-layer])`;
  const b = await page.locator(sel).first().boundingBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Drags with the mouse from `from` to `to` (cells); `during(page)` runs half way. */
async function mouseDrag(page, from, to, { layer = '', during = null } = {}) {
  const a = await cellCentre(page, from, layer);
  const b = await cellCentre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i += 1) {
    await page.mouse.move(a.x + ((b.x - a.x) * i) / 12, a.y + ((b.y - a.y) * i) / 12);
    if (i === 6 && during) await during(page);
  }
  await page.mouse.up();
}

/** Drags with a finger (touch events through the browser's own input, so that the page's
 * `touch-action` counts) from `from` to `to`. */
async function touchDrag(page, from, to) {
  const cdp = await page.context().newCDPSession(page);
  const a = await cellCentre(page, from);
  const b = await cellCentre(page, to);
  const at = (x, y) => [{ x: Math.round(x), y: Math.round(y), id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(a.x, a.y) });
  for (let i = 1; i <= 12; i += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(a.x + ((b.x - a.x) * i) / 12, a.y + ((b.y - a.y) * i) / 12) });
    await sleep(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** A move of the position that goes from one cell to another (`layer`: of its first click),
 * and an empty cell that no move of that piece reaches. */
function stepAndMiss(st, layer = '') {
  const m = st.interaction.moves.find((x) => x.paths.some((p) => p.length === 2 && p[0].cell !== p[1].cell && (p[0].layer || '') === layer));
  const p = m.paths.find((x) => x.length === 2 && x[0].cell !== x[1].cell && (x[0].layer || '') === layer);
  const from = p[0].cell;
  const reach = new Set(st.interaction.moves.flatMap((x) => x.paths).filter((q) => q[0].cell === from).map((q) => q[q.length - 1].cell));
  const miss = st.board.cells.find((c) => !(c.pieces || []).length && !reach.has(c.name) && c.shape !== 'triangle').name;
  return { move: m.move, from, to: p[1].cell, miss };
}

test('drag: a piece dragged to a target plays the move (Opprimo, assideum); dropped elsewhere nothing changes', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  // Opprimo, once both Kings are placed.
  let id = await createFromStartPage(page, { game: 'opprimo', mode: 'same' });
  const rand = rng(6);
  for (let i = 0; i < 2; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  for (const game of ['opprimo', 'assideum']) {
    if (game === 'assideum') id = await createFromStartPage(page, { game, mode: 'same' });
    const before = await waitTurn(page);
    const st = await apiGet(`/api/games/${id}`);
    const { move, from, to, miss } = stepAndMiss(st);
    // Dropped on a cell that is not a target: the piece goes back, still selected.
    await mouseDrag(page, from, miss);
    await page.waitForTimeout(300);
    assert((await pageState(page)).version === before.version, `${game}: a drop on ${miss} changed the game`);
    assert((await apiGet(`/api/games/${id}`)).moves.length === st.moves.length, `${game}: a drop on ${miss} played a move`);
    assert(await page.locator('.board .hit-target').count() > 0, `${game}: the piece dragged from ${from} is no longer selected`);
    assert(!(await page.locator('.board .drag-layer > *').count()), `${game}: the piece stayed in hand`);
    // Dropped on a target: played as the clicks would play it.
    const during = async (p) => {
      assert(await p.locator('.board.dragging .drag-layer [data-piece]').count() > 0, `${game}: no piece follows the pointer`);
      assert(await p.locator(`.board .hit-target[data-cell="${to}"]`).count() === 1, `${game}: ${to} is not shown as a target while dragging`);
      if (game === 'opprimo') await shot(p, 'drag-desktop');
    };
    await mouseDrag(page, from, to, { during });
    await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, before.version);
    const after = await apiGet(`/api/games/${id}`);
    assert(after.moves[after.moves.length - 1].move === move, `${game}: dragging ${from} to ${to} played ${after.moves[after.moves.length - 1].move}, not ${move}`);
  }
  // assideum: a Fighter dragged by its own icon (the Portal beneath stays).
  id = await createFromStartPage(page, { game: 'assideum', mode: 'same' });
  await waitTurn(page);
  const v = (await pageState(page)).version;
  await mouseDrag(page, 'b1', 'b4', { layer: 'fighter' });
  await page.waitForFunction((x) => Number(document.querySelector('main').dataset.version) > x, v);
  const flown = await apiGet(`/api/games/${id}`);
  assert(flown.moves[0].move === 'fb1-b4', `the Fighter's drag played ${flown.moves[0].move}`);
  // A plain click still selects, and a click on the target plays.
  await waitTurn(page);
  const st = await apiGet(`/api/games/${id}`);
  const step = stepAndMiss(st);
  await playClicks(page, id, [step.from, step.to], step.move);
});

test('drag: a finger drags a piece on a phone, and taps still play', async () => {
  const { page } = await newBrowser({ width: 390, height: 844 }, { hasTouch: true });
  for (const game of ['assideum', 'opprimo']) {
    const id = await createFromStartPage(page, { game, mode: 'same' });
    if (game === 'opprimo') {
      const rand = rng(2);
      for (let i = 0; i < 2; i += 1) {
        await waitTurn(page);
        await playOneByClicks(page, rand);
      }
    }
    const before = await waitTurn(page);
    const touchAction = await page.evaluate(() => getComputedStyle(document.querySelector('.board')).touchAction);
    assert(touchAction === 'none', `${game}: the board lets the page take touches (${touchAction})`);
    const scroll = await page.evaluate(() => window.scrollY);
    const st = await apiGet(`/api/games/${id}`);
    const { move, from, to } = stepAndMiss(st);
    await touchDrag(page, from, to);
    await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, before.version);
    const after = await apiGet(`/api/games/${id}`);
    assert(after.moves[after.moves.length - 1].move === move, `${game}: the finger's drag played ${after.moves[after.moves.length - 1].move}, not ${move}`);
    assert(await page.evaluate(() => window.scrollY) === scroll, `${game}: the page scrolled under the drag`);
    // Taps: the piece, then its target.
    const now = await waitTurn(page);
    const st2 = await apiGet(`/api/games/${id}`);
    const tap = stepAndMiss(st2);
    for (const c of [tap.from, tap.to]) {
      const p = await cellCentre(page, c);
      await page.touchscreen.tap(p.x, p.y);
      await sleep(60);
    }
    await page.waitForFunction((v) => Number(document.querySelector('main').dataset.version) > v, now.version);
    const tapped = await apiGet(`/api/games/${id}`);
    assert(tapped.moves[tapped.moves.length - 1].move === tap.move, `${game}: taps played ${tapped.moves[tapped.moves.length - 1].move}, not ${tap.move}`);
  }
});

/** Starts noting the page's named animations (slides and fades), frame by frame. */
async function watchMotion(page) {
  await page.evaluate(() => {
    window.motionSeen = [];
    if (window.motionWatch) return;
    window.motionWatch = true;
    const look = () => {
      for (const a of document.getAnimations()) {
        const el = a.effect && a.effect.target;
        if (!a.id || !el || !el.closest('.board')) continue;
        const what = `${a.id}:${el.getAttribute('class')}`;
        if (!window.motionSeen.includes(what)) window.motionSeen.push(what);
      }
      requestAnimationFrame(look);
    };
    look();
  });
}

test('slide: a move slides its piece (own, the opponent\'s, stepping back) and a removal fades; not with reduced motion', async () => {
  for (const reduce of [false, true]) {
    const { page } = await newBrowser({ width: 1280, height: 800 }, reduce ? { reducedMotion: 'reduce' } : {});
    const id = await createFromStartPage(page, { game: 'assideum', mode: 'same' });
    await waitTurn(page);
    const seen = async (what) => {
      await page.waitForTimeout(350);
      return page.evaluate(() => window.motionSeen.slice());
    };
    const slid = (list) => list.some((x) => /^slide:pc /.test(x));
    // Clicked.
    await watchMotion(page);
    let st = await apiGet(`/api/games/${id}`);
    let s = stepAndMiss(st);
    await playClicks(page, id, [s.from, s.to], s.move);
    const own = await seen();
    // Played elsewhere: the page follows it live.
    await waitTurn(page);
    await watchMotion(page);
    st = await apiGet(`/api/games/${id}`);
    s = stepAndMiss(st);
    const token = await page.evaluate((gid) => JSON.parse(localStorage.getItem(`boardlab:seats:${gid}`)).first, id);
    await apiPost(`/api/games/${id}/moves`, { move: s.move, token });
    await page.waitForFunction(() => document.querySelector('main').dataset.ply === '2');
    const live = await seen();
    // One move back in the list.
    await watchMotion(page);
    await page.locator('#nav-prev').click();
    await page.waitForFunction(() => document.querySelector('main').dataset.ply === '1');
    const back = await seen();
    if (!reduce) {
      assert(slid(own), `no slide after a clicked move: ${own}`);
      assert(slid(live), `no slide after the opponent's move: ${live}`);
      assert(slid(back), `no slide stepping back through the moves: ${back}`);
    } else {
      assert(!own.length && !live.length && !back.length, `animations with reduced motion: ${own} ${live} ${back}`);
    }
    // Sight Reduction: a removed piece fades.
    await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' });
    await waitTurn(page);
    await watchMotion(page);
    const c = (await clickables(page))[0].cell;
    const v = (await pageState(page)).version;
    await clickCell(page, c);
    await page.waitForFunction((x) => Number(document.querySelector('main').dataset.version) > x, v);
    const gone = await seen();
    if (!reduce) assert(gone.some((x) => x.startsWith('fade:')), `the removed piece did not fade: ${gone}`);
    else assert(!gone.length, `animations with reduced motion: ${gone}`);
    assert(!(await page.locator('.board .fading').count()), 'a faded piece stays drawn');
  }
});

/** The click targets of the board and around it (live cells, the zoom, a chooser's buttons)
 * smaller than `min` px either way: [{what, w, h}]. */
async function smallTargets(page, min = 44) {
  return page.evaluate((m) => {
    const out = [];
    const els = [...document.querySelectorAll('.board .hit.hit-active, .board .hit.hit-target, .board-zoom, .chooser .chooser-btn, .chooser .chooser-x')];
    for (const e of els) {
      if (e.closest('[hidden]')) continue;
      const r = e.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      if (r.width < m || r.height < m) out.push({ what: `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}${e.dataset.cell ? ` ${e.dataset.cell}` : ''}${e.dataset.layer ? `/${e.dataset.layer}` : ''}`, w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10 });
    }
    return { small: out, count: els.length };
  }, min);
}

test('layout: every board target on a phone is at least 44 px, zoomed where the board needs it', async () => {
  const { page } = await newBrowser({ width: 390, height: 844 }, { hasTouch: true });
  // `except`: a kind of shape left out (Opprimo's King triangle, checked zoomed).
  const check = async (what, except = null) => {
    let { small, count } = await smallTargets(page);
    if (except) small = small.filter((x) => !x.what.startsWith(except));
    assert(count > 0, `${what}: no targets measured`);
    assert(!small.length, `${what}: targets under 44 px: ${JSON.stringify(small.slice(0, 5))}`);
  };
  const smallest = () => page.evaluate(() => Math.min(...[...document.querySelectorAll('.board .hit.hit-active, .board .hit.hit-target')]
    .map((e) => e.getBoundingClientRect()).flatMap((r) => [r.width, r.height])).toFixed(1));
  const zoom = page.locator('.board-zoom');
  const zoomIn = async (what) => {
    await zoom.click();
    await page.waitForFunction(() => document.querySelector('.board-scroll.zoomed'));
    await page.waitForTimeout(150);
    // What a player needs stays in view: the frame, whose turn, the message, the zoom.
    for (const sel of ['.board-scroll', '.player-bar.active', '.feedback', '.board-zoom']) {
      assert(await inView(page, sel), `${what} zoomed: ${sel} outside the window`);
    }
    const frame = await page.locator('.board-scroll').boundingBox();
    assert(frame.width <= 391, `${what} zoomed: the frame is ${frame.width} px wide`);
    assert(!(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)), `${what} zoomed: the page scrolls sideways`);
  };
  const zoomOut = async (what) => {
    await zoom.click();
    assert(!(await page.evaluate(() => !!document.querySelector('.board-scroll.zoomed'))), `${what}: the zoom does not go back`);
  };
  const report = [];
  for (const [game, options] of [['sight-reduction', {}], ['assideum', {}], ['obsidio', { size: '7' }], ['obsidio', {}], ['obsidio', { size: '11' }], ['opprimo', {}]]) {
    const what = `${game}${options.size ? ` ${options.size}×${options.size}` : ''}`;
    await createFromStartPage(page, { game, mode: 'same', options });
    await waitTurn(page);
    await page.waitForTimeout(250);
    const unit = await page.evaluate(() => Math.min(...[...document.querySelectorAll('.board .hit')].map((e) => e.getBoundingClientRect().width)));
    // A board whose targets can be under 44 px offers the zoom, and one whose cannot does not.
    const needs = game === 'opprimo' || (game === 'obsidio' && options.size !== '7');
    const offered = await zoom.isVisible();
    assert(offered === needs, `${what}: the zoom is ${offered ? '' : 'not '}offered (cells of ${unit.toFixed(1)} px)`);
    if (game === 'obsidio') {
      if (needs) await zoomIn(what);
      if (options.size === '11') await shot(page, 'zoom-phone');
      await check(`${what}${needs ? ' zoomed' : ''}`);
      // A placement half made: the second square's targets.
      await clickCell(page, (await clickables(page)).find((c) => !c.target).cell);
      await page.waitForTimeout(100);
      if (await page.locator('.board .hit-target').count()) await check(`${what}, a token placed`);
      report.push(`${what}: cells ${unit.toFixed(1)} px${needs ? `, zoomed ${await smallest()} px` : ''}`);
      if (needs) await zoomOut(what);
      continue;
    }
    if (game === 'opprimo') {
      // The Kings' places: whole triangles.
      await check(`${what}, placing the King`);
      const rand = rng(3);
      for (let i = 0; i < 2; i += 1) {
        await waitTurn(page);
        await playOneByClicks(page, rand);
      }
      await waitTurn(page);
      // Soldiers and their destinations are 44 px and more unzoomed; the King's triangle,
      // between soldiers, is not (checked zoomed).
      await check(`${what}, Kings placed`, 'path.');
      const king = await smallest();
      const st = await apiGet(`/api/games/${gameId(page)}`);
      await clickCell(page, stepAndMiss(st).from);
      await page.waitForSelector('.board .hit-target');
      await check(`${what}, a soldier selected`, 'path.');
      const dots = await page.evaluate(() => Math.min(...[...document.querySelectorAll('.board circle.hit-target')].map((e) => e.getBoundingClientRect().width)).toFixed(1));
      await page.keyboard.press('Escape');
      await zoomIn(what);
      await check(`${what} zoomed`);
      report.push(`${what}: cells ${unit.toFixed(1)} px, destinations ${dots} px, the King's triangle ${king} px; zoomed ${await smallest()} px`);
      await zoomOut(what);
      continue;
    }
    await check(what);
    if (game === 'assideum') {
      const st = await apiGet(`/api/games/${gameId(page)}`);
      await clickCell(page, stepAndMiss(st).from);
      await page.waitForSelector('.board .hit-target');
      await check(`${what}, a piece selected`);
      // The Fighter beside the Portal on b1: on a phone the square is the target, and a menu asks
      // which piece.
      await page.keyboard.press('Escape');
      assert(!(await page.locator('.board .hit[data-layer]').count()), 'separate Fighter targets on a phone');
      await clickCell(page, 'b1');
      await page.waitForSelector('.chooser .chooser-btn');
      await page.waitForTimeout(200); // the menu pops up from a little smaller
      await check(`${what}, which piece on b1`);
      await shot(page, 'phone-which-piece');
      await page.locator('.chooser .chooser-btn', { hasText: /Fighter/ }).click();
      await page.waitForSelector('.board .zone-white');
      assert((await clickables(page)).some((c) => c.target && c.cell === 'b4'), 'the Fighter chosen on a phone has no flight to b4');
    }
    report.push(`${what}: cells ${unit.toFixed(1)} px`);
  }
  // Every visible button and link button of the game page and the top bar is finger-sized too.
  const buttons = await page.evaluate(() => [...document.querySelectorAll('button, .btn, .settings > summary')]
    .filter((e) => e.offsetParent !== null && !e.closest('.board'))
    .map((e) => ({ text: (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 20), ...(({ width, height }) => ({ width, height }))(e.getBoundingClientRect()) }))
    .filter((b) => b.width > 0 && (b.width < 43.5 || b.height < 43.5)));
  assert(!buttons.length, `buttons under 44 px on a phone: ${JSON.stringify(buttons.slice(0, 6))}`);
  console.log(`    targets on a 390×844 phone: ${report.join('; ')}`);
});

// ---------------------------------------------------------------- accounts

let accountSeq = 0;
/** A fresh account name for this run ("ada3"): names are unique in any case. */
const newName = (stem) => `${stem}${(accountSeq += 1)}`;
const PASSWORD = 'correct-horse-7';

/** Signs up on the account page (reached from the top bar); lands on My games. */
async function signUp(page, name, password = PASSWORD) {
  await page.goto(`${pageOrigin()}/account`);
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', password);
  await page.click('#signup-submit');
  await page.waitForURL(/\/my-games$/);
  await page.waitForSelector('#my-games');
}

/** Signs in on the account page; lands on My games. */
async function signInAs(page, name, password = PASSWORD) {
  await page.goto(`${pageOrigin()}/account`);
  await page.fill('#signin-name', name);
  await page.fill('#signin-password', password);
  await page.click('#signin-submit');
  await page.waitForURL(/\/my-games$/);
  await page.waitForSelector('#my-games');
}

/** Who the server says is signed in, asked from the page (with its cookie). */
async function signedInAs(page) {
  return page.evaluate(() => fetch('/api/account').then((r) => r.json()).then((d) => (d.account ? d.account.name : null)));
}

/** Visible controls of the page smaller than 44 px high (buttons and link buttons also wide). */
async function smallControls(page) {
  return page.evaluate(() => [...document.querySelectorAll('button, .btn, select, input:not([type=checkbox]):not([type=radio]), .acct-link, .game-row, .settings > summary')]
    .filter((e) => e.offsetParent !== null && !e.closest('.settings-menu'))
    .map((e) => ({ what: `${e.tagName.toLowerCase()}#${e.id} ${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 20)}`, r: e.getBoundingClientRect(), wide: e.matches('button, .btn, .acct-link, summary') }))
    .filter(({ r, wide }) => r.width > 0 && (r.height < 43.5 || (wide && r.width < 43.5)))
    .map(({ what, r }) => `${what} ${Math.round(r.width)}×${Math.round(r.height)}`));
}

test('accounts: sign up, sign out, a wrong password told, sign in again, sign out everywhere', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  await page.goto(`${pageOrigin()}/`);
  await page.click('#acct-signin');
  await page.waitForURL(/\/account$/);
  // Labelled fields, with what password managers need.
  for (const [sel, auto] of [['#signin-name', 'username'], ['#signin-password', 'current-password'], ['#signup-name', 'username'], ['#signup-password', 'new-password']]) {
    assert((await page.getAttribute(sel, 'autocomplete')) === auto, `${sel}: autocomplete is not ${auto}`);
    assert(await page.locator(`label[for="${sel.slice(1)}"]`).count() === 1, `${sel} has no label`);
  }
  await shot(page, 'account-signed-out-desktop');
  const name = newName('ada');
  // The server's words for a password outside the rules.
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', 'short');
  await page.click('#signup-submit');
  await page.waitForFunction(() => document.querySelector('#signup-error').textContent.length > 0);
  assert(/8 to 128 characters/.test(await page.locator('#signup-error').innerText()), `said '${await page.locator('#signup-error').innerText()}'`);
  await page.fill('#signup-password', PASSWORD);
  await page.click('#signup-submit');
  await page.waitForURL(/\/my-games$/);
  await page.waitForSelector('#acct-name');
  assert((await page.locator('#acct-name').innerText()).trim() === name, 'the top bar does not show the name');
  assert((await page.getAttribute('#acct-name', 'href')) === `/players/${name}`, 'the name does not lead to the player page');
  assert(await page.locator('#acct-games').isVisible() && await page.locator('#acct-signout').isVisible(), 'no My games or Sign out in the top bar');
  assert(await signedInAs(page) === name, 'the server does not know the session');
  // Sign out from the top bar.
  await page.click('#acct-signout');
  await page.waitForSelector('#acct-signin');
  assert(await signedInAs(page) === null, 'still signed in after signing out');
  // The name is taken now (in any case).
  await page.goto(`${pageOrigin()}/account`);
  await page.fill('#signup-name', name.toUpperCase());
  await page.fill('#signup-password', PASSWORD);
  await page.click('#signup-submit');
  await page.waitForFunction(() => document.querySelector('#signup-error').textContent.length > 0);
  assert(/taken/.test(await page.locator('#signup-error').innerText()), `a taken name: '${await page.locator('#signup-error').innerText()}'`);
  // A wrong password is told, in the server's words.
  await page.fill('#signin-name', name);
  await page.fill('#signin-password', 'not-the-password');
  await page.click('#signin-submit');
  await page.waitForFunction(() => document.querySelector('#signin-error').textContent.length > 0);
  const said = await page.locator('#signin-error').innerText();
  assert(/wrong name or password/i.test(said), `a wrong password: '${said}'`);
  await shot(page, 'account-wrong-password');
  assert(await signedInAs(page) === null, 'signed in with a wrong password');
  await signInAs(page, name);
  assert(await signedInAs(page) === name, 'not signed in');
  // The session outlives a reload.
  await page.reload();
  await page.waitForSelector('#acct-name');
  // The account page: sign out everywhere.
  await page.goto(`${pageOrigin()}/account`);
  await page.waitForSelector('#btn-signout-everywhere');
  await shot(page, 'account-signed-in-desktop');
  await page.click('#btn-signout-everywhere');
  await page.waitForSelector('#acct-signin');
  await page.waitForSelector('#signin-form');
  assert(await signedInAs(page) === null, 'still signed in after signing out everywhere');
});

test('accounts: games are claimed on sign-up and on creation, and My games puts your turn first', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  // A game played before signing up is added on signing up (with a clock, so the server holds it).
  const before = await createFromStartPage(page, { game: 'sight-reduction', mode: 'computer', level: 1, seat: 'first', clock: '1d' });
  const name = newName('bea');
  await signUp(page, name);
  assert((await apiGet(`/api/games/${before}`)).seats.first.account === name, 'the earlier game was not claimed on signing up');
  // A game created while signed in: only the creator's own seat is claimed, not the invite's.
  const online = await createFromStartPage(page, { game: 'obsidio', mode: 'online', seat: 'first', options: { size: '7' } });
  const st = await apiGet(`/api/games/${online}`);
  assert(st.seats.first.account === name && st.seats.second.account === null, `claimed seats: ${st.seats.first.account} / ${st.seats.second.account}`);
  // The game page names the player by the account, linked to the player page.
  assert(await page.locator(`.player-bar a.pname-acct[href="/players/${name}"]`).count() === 1, 'the seat is not linked to the player page');
  // A game against the computer that is over.
  const lost = await createFromStartPage(page, { game: 'assideum', mode: 'computer', level: 1, clock: '1d' });
  await page.locator('#btn-resign').click();
  await page.locator('#confirm-yes').click();
  await page.waitForSelector('.result-banner');
  await page.click('#acct-games');
  await page.waitForURL(/\/my-games$/);
  await page.waitForSelector('#group-turn .game-row');
  const turn = await page.locator('#group-turn .game-row').evaluateAll((rows) => rows.map((r) => r.dataset.gameId));
  assert(turn.includes(before) && turn.includes(online), `the games waiting for the player: ${turn}`);
  const row = page.locator(`.game-row[data-game-id="${before}"]`);
  const text = await row.innerText();
  assert(/Your turn/.test(text) && /Sight Reduction/.test(text) && /You play\s+White/.test(text) && /vs Computer/.test(text) && /0 moves/.test(text), `the row says '${text}'`);
  assert(!/seat|ply|first|second/i.test(text), `the row speaks of seats: '${text}'`);
  const done = await page.locator(`#group-finished .game-row[data-game-id="${lost}"]`).innerText();
  assert(/Lost by resignation/.test(done), `the finished game says '${done}'`);
  // Your turn comes first.
  const order = await page.locator('.game-row').evaluateAll((rows) => rows.map((r) => r.dataset.outcome));
  assert(order[order.length - 1] === 'lost', `the order is ${order}`);
  // The count is in the tab title and on the My games link.
  await page.waitForFunction(() => document.title.startsWith('(2) '));
  assert((await page.locator('#acct-games .turn-badge').innerText()) === '2', 'no badge on My games');
  await shot(page, 'my-games-desktop');
  // The result filter.
  await page.selectOption('#filter-result', 'lost');
  await page.waitForURL(/result=lost/);
  await page.waitForSelector(`.game-row[data-game-id="${lost}"]`);
  assert(await page.locator('.game-row').count() === 1, 'the filter keeps other games');
  // On a phone: the games waiting come first, in view, with finger-sized targets.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${pageOrigin()}/my-games`);
  await page.waitForSelector('#group-turn .game-row');
  // The list is drawn again when the account's live channel says hello: let it settle.
  let seen = false;
  for (let i = 0; i < 20 && !seen; i += 1) {
    seen = await inView(page, '#group-turn .game-row');
    if (!seen) await sleep(100);
  }
  assert(seen, 'the first game waiting is outside a phone\'s window');
  assert(await page.locator('#acct-icon .turn-badge').isVisible(), 'no badge on a phone');
  const small = await smallControls(page);
  assert(!small.length, `targets under 44 px on a phone: ${small}`);
  assert(!(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)), 'My games scrolls sideways on a phone');
  await shot(page, 'my-games-phone');
});

test('accounts: the other player\'s move shows in the tab title and notifies, live', async () => {
  const a = await newBrowser({ width: 1280, height: 800 });
  const b = await newBrowser({ width: 1280, height: 800 });
  // The second player's notifications are recorded instead of shown.
  await b.ctx.addInitScript(() => {
    window.notes = [];
    window.Notification = class {
      constructor(title, options) {
        window.notes.push({ title, ...options });
      }

      close() {}

      static async requestPermission() {
        window.Notification.permission = 'granted';
        return 'granted';
      }
    };
    window.Notification.permission = 'default';
  });
  await signUp(a.page, newName('cy'));
  const bob = newName('dee');
  await signUp(b.page, bob);
  const id = await createFromStartPage(a.page, { game: 'sight-reduction', mode: 'online', seat: 'first' });
  const link = await a.page.locator('#invite-link').inputValue();
  await b.page.goto(link);
  await b.page.waitForSelector('.board .hit');
  // Joined by the invite link while signed in: the seat is the account's.
  await b.page.waitForFunction(() => document.querySelector('.player-bar.bottom .pname-acct'));
  assert((await apiGet(`/api/games/${id}`)).seats.second.account === bob, 'the invited seat was not claimed');
  await b.page.goto(`${pageOrigin()}/my-games`);
  await b.page.waitForSelector('#group-waiting .game-row');
  await b.page.click('#btn-notify');
  await b.page.waitForSelector('#btn-notify-off');
  assert(!/^\(\d+\)/.test(await b.page.title()), `a count before the move: ${await b.page.title()}`);
  await waitTurn(a.page);
  await playOneByClicks(a.page, rng(5));
  // The second browser's title counts the game now waiting for its move, without a reload.
  await b.page.waitForFunction(() => document.title.startsWith('(1) '), null, { timeout: 10000 });
  await b.page.waitForSelector(`#group-turn .game-row[data-game-id="${id}"]`);
  assert((await b.page.locator('#acct-games .turn-badge').innerText()) === '1', 'no badge');
  await b.page.waitForFunction(() => window.notes.length > 0);
  const note = await b.page.evaluate(() => window.notes[0]);
  assert(/Your move in Sight Reduction/.test(note.title), `the notification says '${note.title}'`);
  // The mover's count goes (it was the mover's turn).
  await a.page.waitForFunction(() => !/^\(\d+\)/.test(document.title), null, { timeout: 10000 });
  await shot(b.page, 'my-games-live');
  // The second player moves in the game: the count goes, and the first player's comes.
  await b.page.click(`.game-row[data-game-id="${id}"]`);
  await waitTurn(b.page);
  await playOneByClicks(b.page, rng(6));
  await b.page.waitForFunction(() => !/^\(\d+\)/.test(document.title));
  await a.page.waitForFunction(() => document.title.startsWith('(1) '));
  // The first player moves again while the second looks at the game: the count, and no
  // notification for the game in view.
  await waitTurn(a.page);
  await playOneByClicks(a.page, rng(7));
  await b.page.waitForFunction(() => document.title.startsWith('(1) '), null, { timeout: 10000 });
  await sleep(300);
  assert(await b.page.evaluate(() => window.notes.length) === 1, 'a notification for the game in view');
  // Signed out: no count.
  await b.page.goto(`${pageOrigin()}/account`);
  await b.page.click('#btn-signout');
  await b.page.waitForSelector('#acct-signin');
  assert(!/^\(\d+\)/.test(await b.page.title()), `a count after signing out: ${await b.page.title()}`);
});

test('accounts: the player page shows the record after a resignation, head to head, filters', async () => {
  const a = await newBrowser({ width: 1280, height: 800 });
  const b = await newBrowser({ width: 1280, height: 800 });
  const winner = newName('eve');
  const loser = newName('fin');
  await signUp(a.page, winner);
  await signUp(b.page, loser);
  const id = await createFromStartPage(a.page, { game: 'obsidio', mode: 'online', options: { size: '7' } });
  const link = await a.page.locator('#invite-link').inputValue();
  await b.page.goto(link);
  await b.page.waitForSelector('.board .hit');
  await b.page.locator('#btn-resign').click();
  await b.page.locator('#confirm-yes').click();
  await a.page.waitForSelector('.result-banner');
  // The seat labels lead to the players' pages.
  await a.page.click(`.player-bar a.pname-acct[href="/players/${loser}"]`);
  await a.page.waitForSelector('#player-record');
  assert((await a.page.locator('#player-name').innerText()).startsWith(loser), 'not the loser\'s page');
  const rec = async (page) => page.locator('#player-record .stat-n').allInnerTexts();
  assert((await rec(a.page)).join(' ') === '0 1 0', `the loser's record: ${await rec(a.page)}`);
  // Head to head: the opponent, linked to their page.
  await a.page.click(`#head-to-head a[href="/players/${winner}"]`);
  await a.page.waitForFunction((n) => location.pathname === `/players/${n}`, winner);
  await a.page.waitForSelector('#player-record');
  assert((await rec(a.page)).join(' ') === '1 0 0', `the winner's record: ${await rec(a.page)}`);
  const h2h = await a.page.locator('#head-to-head tbody tr').first().innerText();
  assert(h2h.includes(loser) && /1\s+0\s+0/.test(h2h), `head to head: '${h2h}'`);
  const row = await a.page.locator(`.game-row[data-game-id="${id}"]`).innerText();
  assert(/Obsidio/.test(row) && /Won by resignation/.test(row) && row.includes(`vs ${loser}`), `the game row: '${row}'`);
  await shot(a.page, 'player-desktop');
  // Filters by result and by game.
  await a.page.selectOption('#filter-result', 'lost');
  await a.page.waitForURL(/result=lost/);
  await a.page.waitForSelector('#player-games .empty');
  await a.page.selectOption('#filter-result', 'won');
  await a.page.waitForSelector(`.game-row[data-game-id="${id}"]`);
  await a.page.selectOption('#filter-game', 'opprimo');
  await a.page.waitForURL(/game=opprimo/);
  await a.page.waitForSelector('#player-games .empty');
  // A name nobody has.
  await a.page.goto(`${pageOrigin()}/players/nobody-here`);
  await a.page.waitForSelector('h1');
  assert(/No such player/.test(await a.page.locator('h1').innerText()), 'an unknown player is not told');
  // On a phone: the name and the record in view, finger-sized targets.
  const phone = await newBrowser({ width: 390, height: 844 });
  await phone.page.goto(`${pageOrigin()}/players/${winner}`);
  await phone.page.waitForSelector('#player-record');
  for (const sel of ['#player-name', '#player-record', '#head-to-head', '.game-row']) assert(await inView(phone.page, sel), `${sel} outside a phone's window`);
  const small = await smallControls(phone.page);
  assert(!small.length, `targets under 44 px on a phone: ${small}`);
  await shot(phone.page, 'player-phone');
});

test('accounts: a game of the account plays in another browser without its token', async () => {
  const a = await newBrowser({ width: 1280, height: 800 });
  const name = newName('gus');
  await signUp(a.page, name);
  // With a clock, so that the server holds the game (without one it stays in this browser).
  const id = await createFromStartPage(a.page, { game: 'sight-reduction', mode: 'computer', level: 1, seat: 'first', clock: '1d' });
  // Another browser (no token in its storage), signed in to the same account.
  const c = await newBrowser({ width: 390, height: 844 });
  await signInAs(c.page, name);
  await c.page.waitForSelector(`.game-row[data-game-id="${id}"]`);
  await c.page.click(`.game-row[data-game-id="${id}"]`);
  await c.page.waitForSelector('.board .hit');
  assert(await c.page.evaluate((gid) => localStorage.getItem(`boardlab:seats:${gid}`), id) === null, 'the second browser holds a token');
  const st = await waitTurn(c.page);
  assert(st.canMove, 'the account cannot move without the token');
  const bottom = await c.page.locator('.player-bar.bottom .pname strong').innerText();
  assert(bottom.startsWith('You') && bottom.includes(name), `the player's bar says '${bottom}'`);
  await playOneByClicks(c.page, rng(11));
  await c.page.waitForFunction(() => Number(document.querySelector('main').dataset.ply) >= 1);
  const after = await apiGet(`/api/games/${id}`);
  assert(after.moves.length >= 1 && after.moves[0].seat === 'first', 'the move was not played');
  await shot(c.page, 'account-play-without-token');
  // Resigning works too, and the first browser sees it live.
  await waitTurn(c.page);
  await c.page.locator('#btn-resign').click();
  await c.page.locator('#confirm-yes').click();
  await c.page.waitForSelector('.result-banner');
  await a.page.goto(`${pageOrigin()}/games/${id}`);
  await a.page.waitForFunction(() => document.querySelector('main').dataset.status === 'finished');
  assert(await c.page.evaluate((gid) => localStorage.getItem(`boardlab:seats:${gid}`), id) === null, 'a token was stored');
});

test('accounts: the account pages on a phone and in the dark theme', async () => {
  for (const [viewport, dark] of [[{ width: 390, height: 844 }, false], [{ width: 390, height: 844 }, true], [{ width: 1280, height: 800 }, true]]) {
    const tag = `${viewport.width}${dark ? '-dark' : ''}`;
    const { page } = await newBrowser(viewport, dark ? { colorScheme: 'dark' } : {});
    await page.goto(`${pageOrigin()}/`);
    await page.waitForSelector('#acct-signin');
    assert(await inView(page, '#acct-signin'), `${tag}: the top bar's Sign in is outside the window`);
    assert(!(await page.evaluate(() => { const n = document.querySelector('.nav'); return n.scrollWidth > n.clientWidth + 1; })), `${tag}: the sections no longer fit the top bar`);
    await page.click('#acct-signin');
    await page.waitForSelector('#signin-form');
    for (const sel of ['#signin-name', '#signin-password', '#signin-submit']) assert(await inView(page, sel), `${tag}: ${sel} outside the window`);
    if (dark) await checkContrast(page, `sign in ${tag}`, [...TEXT.filter((t) => t !== 'main a[href]'), 'main p', '.field label', '.opt-desc', '.acct-link']);
    let small = await smallControls(page);
    assert(viewport.width > 600 || !small.length, `${tag}: targets under 44 px: ${small}`);
    await shot(page, `account-signin-${tag}`);
    // The lobby signed out: the challenges, and a way to sign in.
    await page.goto(`${pageOrigin()}/lobby`);
    await page.waitForSelector('#lobby-signin');
    if (dark) await checkContrast(page, `lobby signed out ${tag}`, [...TEXT, 'main p', '.lobby-signin h2', '.live-tag']);
    small = await smallControls(page);
    assert(viewport.width > 600 || !small.length, `lobby signed out ${tag}: targets under 44 px: ${small}`);
    await shot(page, `lobby-signed-out-${tag}`);
    const name = newName('hal');
    await signUp(page, name);
    assert(!(await page.evaluate(() => { const n = document.querySelector('.nav'); return n.scrollWidth > n.clientWidth + 1; })), `${tag}: the sections no longer fit the top bar when signed in`);
    assert(await inView(page, '.nav a[data-nav="lobby"]'), `${tag}: Play online is outside the window`);
    // Someone else's challenge (a rated player's) and one's own, in the lobby.
    const other = await accountCookie(newName('ola'));
    await apiWithCookie(other, 'POST', '/api/lobby', { game: 'obsidio', options: { size: '7', pie: 'false' }, seat: 'first', rated: true, clock: '10+5' });
    await postChallenge(page, { game: 'assideum', seat: 'random', clock: '3d' });
    await page.waitForSelector('.challenge.challenge-yours');
    await page.waitForSelector('.challenge .btn-primary');
    if (dark) await checkContrast(page, `lobby ${tag}`, [...TEXT, '.ch-game', '.ch-clock', '.ch-meta > span', '.ch-opt', '.challenge .pill', '.ch-wait', '.opt-label', '.seg', '.opt-desc', '.switch-text', '#lobby-clock', '.live-tag']);
    small = await smallControls(page);
    assert(viewport.width > 600 || !small.length, `lobby ${tag}: targets under 44 px: ${small}`);
    assert(!(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)), `lobby ${tag}: the page scrolls sideways`);
    await shot(page, `lobby-${tag}`);
    await page.click('#lobby-opponent .seg[data-value="computer"]');
    await page.selectOption('#lobby-clock', 'custom-realtime');
    small = await smallControls(page);
    assert(viewport.width > 600 || !small.length, `lobby, the computer and a clock of one's own ${tag}: targets under 44 px: ${small}`);
    await page.locator('#lobby-form').scrollIntoViewIfNeeded();
    await shot(page, `lobby-form-${tag}`);
    await page.goto(`${pageOrigin()}/ratings`);
    await page.waitForSelector('.ratings-card table, .ratings-card .ratings-empty');
    if (dark) await checkContrast(page, `ratings ${tag}`, ['.nav a', 'main h1, main h2', 'main a[href]', '.rules-nav a', 'main p']);
    small = await smallControls(page);
    assert(viewport.width > 600 || !small.length, `ratings ${tag}: targets under 44 px: ${small}`);
    await shot(page, `ratings-${tag}`);
    await createFromStartPage(page, { game: 'opprimo', mode: 'computer', level: 1, seat: 'first', clock: '5+3' });
    await page.waitForSelector('#clock-first');
    if (dark) await checkContrast(page, `a game with a clock ${tag}`, ['.clock', '.clock-tag', '.player-bar strong', '#status']);
    for (const sel of ['.board', '#clock-first', '#clock-second', '.player-bar.active']) assert(await inView(page, sel), `${tag}: ${sel} outside the window`);
    await shot(page, `game-clock-${tag}`);
    await page.goto(`${pageOrigin()}/my-games`);
    await page.waitForSelector('.game-row');
    if (dark) await checkContrast(page, `my games ${tag}`, [...TEXT, '.gr-title', '.gr-meta > span', '.pill', '.filter-label', '.row-group h2', '.acct-link']);
    small = await smallControls(page);
    assert(viewport.width > 600 || !small.length, `${tag}: targets under 44 px: ${small}`);
    await shot(page, `my-games-${tag}`);
    await page.goto(`${pageOrigin()}/players/${name}`);
    await page.waitForSelector('#player-record');
    if (dark) await checkContrast(page, `player ${tag}`, ['.nav a', 'main h1, main h2', 'main a[href]', 'select', '.stat-n', '.stat-label', '.gr-meta > span', '.pill', '.h2h-card p']);
    await shot(page, `player-${tag}`);
    await page.goto(`${pageOrigin()}/account`);
    await page.waitForSelector('#btn-signout');
    if (dark) await checkContrast(page, `account ${tag}`, [...TEXT, 'main p', '.account-card h2']);
    small = await smallControls(page);
    assert(viewport.width > 600 || !small.length, `${tag}: targets under 44 px: ${small}`);
    await shot(page, `account-${tag}`);
  }
});

// ---------------------------------------------------------------- lobby, clocks, ratings

/** A new account made outside the browser: the cookie of its session. */
async function accountCookie(name) {
  const r = await fetch(`${origin()}/api/account/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: PASSWORD }) });
  if (!r.ok) throw new Error(`signup ${name}: ${r.status} ${await r.text()}`);
  return r.headers.get('set-cookie').split(';')[0];
}

/** A request of the API with a session cookie, outside the browser: the answer's JSON. */
async function apiWithCookie(cookie, method, p, body) {
  const r = await fetch(origin() + p, { method, headers: { 'content-type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

/** Fills in the lobby's form and posts the challenge (or starts the game against the computer). */
async function postChallenge(page, { game, options = {}, seat = 'random', rated = false, clock = '', opponent = 'anyone', name = '', level = 1 }) {
  if (!/\/lobby$/.test(page.url())) await page.goto(`${pageOrigin()}/lobby`);
  await page.waitForSelector('#lobby-form');
  await page.click(`#lobby-game .seg[data-value="${game}"]`);
  await page.click(`#lobby-opponent .seg[data-value="${opponent}"]`);
  if (opponent === 'player') await page.fill('#lobby-opponent-name', name);
  if (opponent === 'computer') await page.locator('#lobby-level').fill(String(level));
  await page.click(`#lobby-seat .seg[data-value="${seat}"]`);
  if (opponent !== 'computer' && rated !== (await page.locator('#lobby-rated').isChecked())) await page.click('.lobby-rated .switch');
  if (clock) await page.selectOption('#lobby-clock', clock);
  if (Object.keys(options).length) {
    const det = page.locator('#lobby-form details.options');
    if (!(await det.evaluate((d) => d.open))) await det.locator('summary').click();
    for (const [k, v] of Object.entries(options)) await page.click(`#opt-${k} .seg[data-value="${v}"]`);
  }
  await page.click('#lobby-post');
}

/** Two signed-up players in two browsers; a challenge of the first, accepted by the second. */
async function lobbyGame(challenge, size = { width: 1280, height: 800 }) {
  const a = await newBrowser(size);
  const b = await newBrowser(size);
  const an = newName('ann');
  const bn = newName('ben');
  await signUp(a.page, an);
  await signUp(b.page, bn);
  await postChallenge(a.page, challenge);
  const row = a.page.locator('.challenge.challenge-yours');
  await row.waitFor();
  const cid = await row.getAttribute('data-challenge-id');
  await b.page.goto(`${pageOrigin()}/lobby`);
  await b.page.click(`#accept-${cid}`);
  await b.page.waitForURL(/\/games\/[a-z0-9]+$/);
  await a.page.waitForURL(/\/games\/[a-z0-9]+$/, { timeout: 10000 });
  assert(gameId(a.page) === gameId(b.page), 'the two players are in different games');
  for (const p of [a.page, b.page]) await p.waitForSelector('.board .hit');
  return { a, b, an, bn, id: gameId(a.page) };
}

test('top bar: the sections, the account and the settings fit every width, signed out and with a long name', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const check = async (who) => {
    const over = [];
    for (const width of [390, 430, 461, 500, 581, 600, 611, 700, 761, 801, 901, 981, 1100, 1200, 1280, 1400]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(60);
      const r = await page.evaluate(() => ({
        right: Math.max(...[...document.querySelectorAll('.topbar > *')].map((e) => e.getBoundingClientRect().right)),
        nav: (({ scrollWidth, clientWidth }) => scrollWidth - clientWidth)(document.querySelector('.nav')),
        lobby: !!document.querySelector('.nav a[data-nav="lobby"]').offsetParent,
      }));
      if (r.right > width + 1 || r.nav > 1 || !r.lobby) over.push(`${width}: ${JSON.stringify(r)}`);
    }
    assert(!over.length, `${who}: the top bar does not fit: ${over.join('; ')}`);
  };
  await page.goto(`${pageOrigin()}/lobby`);
  await page.waitForSelector('#acct-signin');
  await check('signed out');
  // The longest name an account may have.
  const name = `${newName('x')}${'y'.repeat(20)}`.slice(0, 20);
  await signUp(page, name);
  await page.goto(`${pageOrigin()}/lobby`);
  await page.waitForSelector('#acct-icon, #acct-name');
  await check('signed in');
});

test('lobby: a challenge appears live in another browser, is accepted, and both players are taken to the game', async () => {
  const a = await newBrowser({ width: 1280, height: 800 });
  const b = await newBrowser({ width: 1280, height: 800 });
  const an = newName('ivy');
  const bn = newName('jon');
  await signUp(a.page, an);
  await signUp(b.page, bn);
  // The second player watches the lobby before the challenge is posted.
  await b.page.goto(`${pageOrigin()}/lobby`);
  await b.page.waitForSelector('#lobby-form');
  await b.page.waitForSelector('#lobby-list :is(.challenges, #lobby-empty)');
  await postChallenge(a.page, { game: 'obsidio', options: { size: '7' }, seat: 'first', rated: true, clock: '5+3' });
  const mine = a.page.locator('.challenge.challenge-yours');
  await mine.waitFor();
  const cid = await mine.getAttribute('data-challenge-id');
  assert(await a.page.locator(`#cancel-${cid}`).isVisible(), 'no Cancel on one\'s own challenge');
  assert(!(await a.page.locator(`#accept-${cid}`).count()), 'Accept on one\'s own challenge');
  // It appears in the other browser without a reload, in words.
  const row = b.page.locator(`.challenge[data-challenge-id="${cid}"]`);
  await row.waitFor({ timeout: 10000 });
  const text = (await row.innerText()).replace(/\s+/g, ' ');
  for (const want of [an, 'Obsidio', '5 min + 3 s', 'Rated', 'Board size: 7', 'plays Black']) assert(text.includes(want), `the challenge says '${text}', not '${want}'`);
  assert(!/seat|first|second|\bsize\b(?!: )|5\+3|obsidio/.test(text), `the challenge speaks of keys or seats: '${text}'`);
  assert(await row.locator(`a[href="/players/${an}"]`).count() === 1, 'the author is not linked to their page');
  await shot(b.page, 'lobby-desktop');
  // Accepted: the second player goes to the game, and the author is taken there too.
  await b.page.click(`#accept-${cid}`);
  await b.page.waitForURL(/\/games\/[a-z0-9]+$/);
  await a.page.waitForURL(/\/games\/[a-z0-9]+$/, { timeout: 10000 });
  const id = gameId(b.page);
  assert(gameId(a.page) === id, 'the players are in different games');
  const st = await apiGet(`/api/games/${id}`);
  assert(st.seats.first.account === an && st.seats.second.account === bn && st.rated && st.clock && st.clock.control === '5+3', `the game: ${JSON.stringify({ seats: st.seats, rated: st.rated, clock: st.clock })}`);
  for (const p of [a.page, b.page]) {
    await p.waitForSelector('#clock-first');
    assert(await p.locator('#game-rated').isVisible(), 'the game page does not say Rated');
    assert(/5 min \+ 3 s/.test(await p.locator('#game-clock').innerText()), 'the game page does not name the clock');
  }
  // The author (Black, first to move) may move; the challenge is gone from the lobby, and the
  // author has none open (other tests' challenges may still be there).
  assert((await waitTurn(a.page)).canMove, 'the author cannot move');
  // Each sees the other here, though neither holds a token: their sessions count.
  for (const p of [a.page, b.page]) {
    await p.waitForFunction(() => document.querySelector('.presence')?.textContent === 'here', null, { timeout: 10000 });
  }
  for (const p of [a.page, b.page]) {
    await p.goto(`${pageOrigin()}/lobby`);
    await p.waitForSelector('#lobby-list :is(.challenges, #lobby-empty)');
    assert(!(await p.locator(`.challenge[data-challenge-id="${cid}"]`).count()), 'the accepted challenge is still listed');
  }
  assert(!(await a.page.locator('.challenge-yours').count()), 'the author still has a challenge open');
});

test('lobby: signed out the list shows with a way to sign in; an accepted challenge is announced on other pages; a direct challenge', async () => {
  const a = await newBrowser({ width: 1280, height: 800 });
  const b = await newBrowser({ width: 1280, height: 800 });
  const c = await newBrowser({ width: 390, height: 844 });
  const an = newName('kim');
  const bn = newName('lou');
  await signUp(a.page, an);
  await signUp(b.page, bn);
  // The player challenged is reading the rules when the challenge comes.
  await b.page.goto(`${pageOrigin()}/rules/obsidio`);
  await b.page.waitForSelector('main h1');
  // A challenge to one player: shown to them as theirs to take.
  await postChallenge(a.page, { game: 'sight-reduction', opponent: 'player', name: bn, clock: '1d' });
  await a.page.waitForSelector('.challenge.challenge-yours');
  const cid = await a.page.locator('.challenge.challenge-yours').getAttribute('data-challenge-id');
  const told = b.page.locator(`#notices .notice[data-challenge-id="${cid}"]`);
  await told.waitFor({ timeout: 10000 });
  const toldText = await told.innerText();
  assert(toldText.includes(an) && /challenges you to Sight Reduction/.test(toldText), `the challenge notice says '${toldText}'`);
  await shot(b.page, 'lobby-challenged-notice');
  await told.locator('a').click();
  await b.page.waitForURL(/\/lobby$/);
  // A visitor who is not signed in sees the open challenges (not this one) and is asked to sign in.
  await c.page.goto(`${pageOrigin()}/lobby`);
  await c.page.waitForSelector('#lobby-signin');
  assert(!(await c.page.locator(`.challenge[data-challenge-id="${cid}"]`).count()), 'a direct challenge shown to everyone');
  assert(!(await c.page.locator('.challenge .btn').count()), 'buttons for a visitor not signed in');
  // The author goes elsewhere in the app; the challenge is accepted meanwhile.
  await a.page.click('#acct-games');
  await a.page.waitForURL(/\/my-games$/);
  await b.page.goto(`${pageOrigin()}/lobby`);
  const row = b.page.locator(`.challenge[data-challenge-id="${cid}"]`);
  await row.waitFor();
  const text = (await row.innerText()).replace(/\s+/g, ' ');
  assert(/for you/.test(text) && /1 day per move/.test(text) && /Casual/.test(text) && /random colours/.test(text), `the direct challenge says '${text}'`);
  await b.page.click(`#accept-${cid}`);
  await b.page.waitForURL(/\/games\/[a-z0-9]+$/);
  const id = gameId(b.page);
  const notice = a.page.locator(`#notices .notice[data-game-id="${id}"]`);
  await notice.waitFor({ timeout: 10000 });
  assert(/accepted/.test(await notice.innerText()), `the notice says '${await notice.innerText()}'`);
  await shot(a.page, 'lobby-accepted-notice');
  await notice.locator('a').click();
  await a.page.waitForURL(new RegExp(`/games/${id}$`));
  await a.page.waitForSelector('.board .hit');
  assert(!(await a.page.locator('#notices .notice').count()), 'the notice stays in the game');
  // A correspondence clock in days and hours.
  assert(/^1 d/.test((await a.page.locator('#clock-first').innerText()).trim()), `the clock shows '${await a.page.locator('#clock-first').innerText()}'`);
  // A server's refusal is told in its words: a player nobody has.
  await postChallenge(a.page, { game: 'obsidio', opponent: 'player', name: 'nobody-at-all' });
  await a.page.waitForFunction(() => document.querySelector('#lobby-error').textContent.length > 0);
  assert(/nobody-at-all|player/i.test(await a.page.locator('#lobby-error').innerText()), `the refusal says '${await a.page.locator('#lobby-error').innerText()}'`);
});

test('lobby: a challenge to the computer starts the game at once', async () => {
  const { page } = await newBrowser({ width: 390, height: 844 });
  const name = newName('max');
  await signUp(page, name);
  await postChallenge(page, { game: 'opprimo', opponent: 'computer', level: 1, seat: 'first', clock: '10+5' });
  await page.waitForURL(/\/games\/[a-z0-9]+$/);
  await page.waitForSelector('.board .hit');
  const st = await apiGet(`/api/games/${gameId(page)}`);
  assert(st.seats.first.account === name && st.seats.second.player === 'computer:level:1', `the seats: ${JSON.stringify(st.seats)}`);
  assert(st.clock && st.clock.control === '10+5' && !st.rated, `the clock ${JSON.stringify(st.clock)}, rated ${st.rated}`);
  assert((await waitTurn(page)).canMove, 'the player cannot move');
  for (const sel of ['.board', '#clock-first', '#clock-second', '.player-bar.active']) assert(await inView(page, sel), `${sel} outside a phone's window`);
});

/** The time a clock shows, in seconds ("4:53", "0:09.4", "1:02:10"). */
function clockSeconds(text) {
  return text.trim().split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

test('clocks: a real-time clock is shown beside the players and runs down, at both sizes', async () => {
  for (const [viewport, tag] of [[{ width: 1280, height: 800 }, 'desktop'], [{ width: 390, height: 844 }, 'phone']]) {
    const { page } = await newBrowser(viewport);
    // Made by the API, watched: both clocks, the running one ticking down.
    const made = await fetch(`${origin()}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'assideum', clock: '1+0' }) }).then((r) => r.json());
    await page.goto(`${pageOrigin()}/games/${made.id}`);
    await page.waitForSelector('#clock-first');
    for (const sel of ['.board', '#clock-first', '#clock-second', '.player-bar.active', '#status']) {
      if (sel === '#status' && tag === 'phone') continue; // on a phone the active bar says whose turn it is
      assert(await inView(page, sel), `${tag}: ${sel} outside the window`);
    }
    const t1 = clockSeconds(await page.locator('#clock-first').innerText());
    await sleep(1600);
    const t2 = clockSeconds(await page.locator('#clock-first').innerText());
    assert(t1 <= 60 && t2 < t1, `${tag}: the running clock went from ${t1} to ${t2}`);
    assert(await page.locator('#clock-first').evaluate((e) => e.classList.contains('clock-running')), 'the running clock is not marked');
    assert(clockSeconds(await page.locator('#clock-second').innerText()) === 60, 'the waiting clock moved');
    await shot(page, `clock-${tag}`);
    // From the start page, against the computer: the clock chosen is the game's.
    await createFromStartPage(page, { game: 'obsidio', mode: 'computer', level: 1, seat: 'first', options: { size: '7' }, clock: '3+2' });
    assert((await apiGet(`/api/games/${gameId(page)}`)).clock.control === '3+2', 'the start page\'s clock was not sent');
    await waitTurn(page);
    for (const sel of ['.board', '#clock-first', '#clock-second']) assert(await inView(page, sel), `${tag}: ${sel} outside the window`);
    assert(clockSeconds(await page.locator('#clock-first').innerText()) <= 180, 'the clock does not show 3 minutes');
    await shot(page, `clock-computer-${tag}`);
  }
});

test('clocks: a player whose time runs out loses on time, and the page says so', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  // Fifteen seconds for the whole game, played from this browser (it holds both tokens).
  const made = await fetch(`${origin()}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'sight-reduction', clock: '0.25+0' }) }).then((r) => r.json());
  // Each side makes its first move at once (a side that never moves aborts the game instead).
  let at = made.state;
  for (const seat of ['first', 'second']) {
    at = await fetch(`${origin()}/api/games/${made.id}/moves`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ move: at.legal_moves[0], token: made.tokens[seat] }) }).then((r) => r.json());
  }
  await page.goto(`${pageOrigin()}/`);
  await page.evaluate(([id, tokens]) => localStorage.setItem(`boardlab:seats:${id}`, JSON.stringify(tokens)), [made.id, made.tokens]);
  await page.goto(`${pageOrigin()}/games/${made.id}`);
  await page.waitForSelector('#clock-first');
  // Under ten seconds the running clock shows tenths and is marked low.
  await page.waitForSelector('#clock-first.clock-low', { timeout: 15000 });
  assert(/^0:0\d\.\d$/.test((await page.locator('#clock-first').innerText()).trim()), `under ten seconds: '${await page.locator('#clock-first').innerText()}'`);
  await shot(page, 'clock-low');
  await page.waitForFunction(() => document.querySelector('main').dataset.status === 'finished', null, { timeout: 25000 });
  await page.waitForSelector('.result-banner');
  const said = await page.locator('.result-banner').innerText();
  assert(/ran out of time/.test(said), `the result says '${said}'`);
  assert(/ran out of time/.test(await page.locator('#status').innerText()), 'the status does not say it');
  assert((await page.locator('#clock-first').innerText()).trim() === '0:00.0', 'the flagged clock does not show zero');
  await shot(page, 'clock-flagged');
  const st = await apiGet(`/api/games/${made.id}`);
  assert(st.result.termination === 'time', `the termination is ${st.result.termination}`);
});

test('ratings: a rated lobby game ended by resignation rates both players: player page with its chart, leaderboards', async () => {
  const { a, b, an, bn, id } = await lobbyGame({ game: 'sight-reduction', seat: 'first', rated: true });
  assert((await apiGet(`/api/games/${id}`)).rated, 'the game is not rated');
  await b.page.locator('#btn-resign').click();
  await b.page.locator('#confirm-yes').click();
  await a.page.waitForSelector('.result-banner');
  // The winner's page: the rating in words and its history drawn.
  let line = '';
  for (let i = 0; i < 20 && !line; i += 1) {
    await a.page.goto(`${pageOrigin()}/players/${an}`);
    await a.page.waitForSelector('#player-record');
    if (await a.page.locator('#player-ratings .rating-item[data-game="sight-reduction"]').count()) line = (await a.page.locator('#player-ratings .rating-line').first().innerText()).replace(/\s+/g, ' ');
    else await sleep(500);
  }
  assert(/^Sight Reduction\s+1\d{3} ± \d+, provisional/.test(line.trim()), `the rating says '${line}'`);
  const won = Number(/(\d{4})/.exec(line)[1]);
  assert(won > 1500, `the winner's rating ${won}`);
  const pts = await a.page.locator('#player-ratings .rating-chart polyline').getAttribute('points');
  assert(pts.trim().split(' ').length === 2, `the chart's points: ${pts}`);
  assert(await a.page.locator('#player-ratings .chart-label').count() >= 2, 'the chart has no labels');
  await shot(a.page, 'ratings-player-desktop');
  // The leaderboard lists both, the winner first, provisional.
  await a.page.click('#player-ratings .rating-line a');
  await a.page.waitForURL(/\/ratings\/sight-reduction$/);
  await a.page.waitForSelector('#leaderboard');
  const rows = await a.page.locator('#leaderboard tbody tr').evaluateAll((trs) => trs.map((tr) => tr.innerText.replace(/\s+/g, ' ').trim()));
  const ia = rows.findIndex((r) => r.includes(an));
  const ib = rows.findIndex((r) => r.includes(bn));
  assert(ia >= 0 && ib > ia, `the leaderboard: ${JSON.stringify(rows)}`);
  assert(/\d{4}\? 1$/.test(rows[ia]) && new RegExp(`^${ia + 1} `).test(rows[ia]), `the winner's row: '${rows[ia]}'`);
  await shot(a.page, 'ratings-leaderboard');
  // Every game's leaderboard on one page, reached from the lobby.
  await a.page.goto(`${pageOrigin()}/lobby`);
  await a.page.click('#lobby-ratings');
  await a.page.waitForURL(/\/ratings$/);
  await a.page.waitForSelector('#leaderboard-sight-reduction');
  assert(await a.page.locator('#leaderboard-sight-reduction').innerText().then((t) => t.includes(an) && t.includes(bn)), 'the leaderboards page lacks the players');
  assert(await a.page.locator('.ratings-card').count() === 4, 'not four leaderboards');
  await shot(a.page, 'ratings-all');
  // On a phone, in the dark: the rating and its chart readable, finger-sized targets.
  const phone = await newBrowser({ width: 390, height: 844 }, { colorScheme: 'dark' });
  await phone.page.goto(`${pageOrigin()}/players/${bn}`);
  await phone.page.waitForSelector('#player-ratings .rating-chart');
  for (const sel of ['#player-name', '#player-record', '#player-ratings .rating-line']) assert(await inView(phone.page, sel), `${sel} outside a phone's window`);
  await checkContrast(phone.page, 'player ratings dark phone', ['#player-ratings h2', '.rating-line a', '.rating-n', '.rating-more', '.rating-chart .chart-label']);
  let small = await smallControls(phone.page);
  assert(!small.length, `player page: targets under 44 px on a phone: ${small}`);
  await shot(phone.page, 'ratings-player-phone-dark');
  await phone.page.goto(`${pageOrigin()}/ratings/sight-reduction`);
  await phone.page.waitForSelector('#leaderboard');
  await checkContrast(phone.page, 'leaderboard dark phone', [...TEXT.filter((t) => !t.includes('.btn')), '.rules-nav a', '.ratings-table th', '.ratings-table td', 'main p']);
  small = await smallControls(phone.page);
  assert(!small.length, `leaderboard: targets under 44 px on a phone: ${small}`);
  assert(!(await phone.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)), 'the leaderboard scrolls sideways on a phone');
  await shot(phone.page, 'ratings-leaderboard-phone-dark');
});

test('rematch between accounts: offered after a lobby game, accepted, both land in the new game with the seats swapped', async () => {
  const { a, b, an, bn, id } = await lobbyGame({ game: 'obsidio', options: { size: '7' }, seat: 'first' });
  // Neither browser holds a token: both play by their accounts.
  for (const p of [a.page, b.page]) assert(await p.evaluate((gid) => localStorage.getItem(`boardlab:seats:${gid}`), id) === null, 'a token was stored');
  await b.page.locator('#btn-resign').click();
  await b.page.locator('#confirm-yes').click();
  // Between accounts, a rated rematch is a choice of its own, and the offer says which.
  await a.page.waitForSelector('#btn-rematch-rated');
  assert(await a.page.locator('#btn-rematch').isVisible(), 'the plain rematch is not offered');
  await a.page.click('#btn-rematch-rated');
  await b.page.waitForSelector('#btn-rematch-accept');
  const offered = await b.page.locator('#rematch').innerText();
  assert(/offers a rated rematch/.test(offered), `the offer says '${offered}'`);
  await shot(b.page, 'rematch-rated-offered');
  await b.page.click('#btn-rematch-accept');
  for (const p of [a.page, b.page]) await p.waitForFunction((old) => !location.pathname.includes(old) && /\/games\/[a-z0-9]+$/.test(location.pathname), id, { timeout: 10000 });
  assert(a.page.url() === b.page.url(), 'the players are in different rematches');
  const st = await apiGet(`/api/games/${gameId(a.page)}`);
  assert(st.seats.first.account === bn && st.seats.second.account === an && st.moves.length === 0, `the rematch's seats: ${st.seats.first.account} / ${st.seats.second.account}`);
  assert(st.rated, 'the rated rematch is not rated');
  // The one who lost now plays first, by their account.
  assert((await waitTurn(b.page)).canMove, 'the first seat cannot move in the rematch');
  assert(!(await pageState(a.page)).canMove, 'the second seat may move first');
  await playOneByClicks(b.page, rng(13));
  assert((await waitTurn(a.page)).canMove, 'the second seat cannot answer');
});

// ---------------------------------------------------------------- issue 37: presence, layout, wording, friction

test('bug 37.4: a player who joined and went to another page of the app shows as away, never as not joined yet', async () => {
  // A lobby game: both seats are accounts', taken without an invite link.
  const { a, b } = await lobbyGame({ game: 'obsidio', options: { size: '7' }, seat: 'first' });
  const presence = () => a.page.locator('#presence-second').innerText();
  await a.page.waitForFunction(() => document.querySelector('#presence-second')?.textContent === 'here', null, { timeout: 10000 });
  await b.page.goto(`${pageOrigin()}/lobby`);
  await a.page.waitForFunction(() => document.querySelector('#presence-second')?.textContent !== 'here', null, { timeout: 10000 });
  assert(await presence() === 'away', `on another page the opponent is shown as '${await presence()}'`);
  await shot(a.page, 'bug-37-4-away');
  // Still away after a reload of the page that watches.
  await a.page.reload();
  await a.page.waitForSelector('#presence-second');
  assert(await presence() === 'away', `after a reload the opponent is shown as '${await presence()}'`);
  // An invite game: the friend opened the link, then went to another page.
  const c = await newBrowser({ width: 1280, height: 800 });
  await createFromStartPage(c.page, { game: 'sight-reduction', mode: 'online' });
  const link = await c.page.locator('#invite-link').inputValue();
  const d = await newBrowser({ width: 1280, height: 800 });
  await d.page.goto(link);
  await d.page.waitForSelector('.board .hit');
  await c.page.waitForFunction(() => document.querySelector('#presence-second')?.textContent === 'here', null, { timeout: 10000 });
  await d.page.goto(`${pageOrigin()}/games`);
  await c.page.waitForFunction(() => document.querySelector('#presence-second')?.textContent !== 'here', null, { timeout: 10000 });
  const told = await c.page.locator('#presence-second').innerText();
  assert(told === 'away', `the friend on another page is shown as '${told}'`);
});

/** Line boxes of the element's text: 1 when it is on one line. */
async function textLines(page, selector) {
  return page.locator(selector).first().evaluate((e) => {
    const r = document.createRange();
    r.selectNodeContents(e);
    return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
  });
}

/** Whether segment (x1,y1)-(x2,y2) passes through rectangle `r` ({x, y, width, height}). */
function segmentHitsBox([x1, y1], [x2, y2], r) {
  const steps = 40;
  for (let i = 0; i <= steps; i += 1) {
    const x = x1 + ((x2 - x1) * i) / steps;
    const y = y1 + ((y2 - y1) * i) / steps;
    if (x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height) return true;
  }
  return false;
}

/**
 * A review of a pasted record whose players have long names, shown as a game lost by the first
 * player from the first move (the server's review, its values changed on the way to the page).
 */
async function lostReview(page) {
  const { id } = await finishedGame('sight-reduction', 23);
  const long = 'MaximilianaKonstantinopoulouWolkenkratzerDonaudampfschiff';
  const record = (await (await fetch(`${origin()}/api/games/${id}/record?format=pgn`)).text())
    .replace(/\[First "[^"]*"\]/, `[First "${long}"]`).replace(/\[Second "[^"]*"\]/, `[Second "${long}Zwei"]`);
  await page.route('**/api/reviews', async (route) => {
    const res = await route.fetch();
    const review = await res.json();
    review.plies.forEach((p, i) => {
      const lost = (v) => ({ ...v, score: v.seat === 'first' ? 0 : 1 });
      p.after = lost(p.after);
      if (i > 0) p.before = lost(p.before);
    });
    await route.fulfill({ response: res, json: review });
  });
  await page.goto(`${pageOrigin()}/review`);
  await page.fill('#record-text', record.includes(long) ? record : record.replace(/^\[Game/m, `[First "${long}"]\n[Game`));
  await page.click('#review-go');
  await page.waitForSelector('#eval-graph svg', { timeout: 60000 });
}

test('bug 37.6: names whole, the review on its card, the graph clear of its labels, rules and top bar on a phone', async () => {
  // "Opponent" on one line in the opponent's bar of an online game, for every game.
  const { page } = await newBrowser({ width: 1280, height: 800 });
  for (const game of Object.keys(GAMES)) {
    await createFromStartPage(page, { game, mode: 'online', options: GAMES[game].options });
    await page.waitForSelector('.player-bar.top .pname strong');
    await page.waitForTimeout(150);
    const name = await page.locator('.player-bar.top .pname strong').innerText();
    const lines = await textLines(page, '.player-bar.top .pname strong');
    assert(!/\s/.test(name.trim()) ? lines === 1 : lines <= 2, `${game}: '${name}' runs over ${lines} lines`);
    if (game === 'obsidio') await shot(page, 'bug-37-6-opponent-1280');
  }
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page: rp } = await newBrowser(viewport);
    await lostReview(rp);
    // The summary stays on its card, the long names wrapped.
    const off = await rp.evaluate(() => {
      const card = document.querySelector('#review-summary').closest('.card').getBoundingClientRect();
      return [...document.querySelectorAll('#review-summary th, #review-summary td')]
        .filter((e) => e.getBoundingClientRect().right > card.right + 1).map((e) => e.textContent.slice(0, 30));
    });
    assert(!off.length, `${viewport.width}: off the card: ${off}`);
    // The line and its marks stay clear of the labels and off the graph's edges.
    const g = await rp.evaluate(() => {
      const svg = document.querySelector('#eval-graph svg');
      const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
      const pts = svg.querySelector('.eval-line').getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number));
      const labels = [...svg.querySelectorAll('text')].map((t) => { const b = t.getBBox(); return { x: b.x, y: b.y, width: b.width, height: b.height }; });
      const marks = [...svg.querySelectorAll('.eval-mark')].map((c) => { const b = c.getBBox(); return { x: b.x, y: b.y, width: b.width, height: b.height }; });
      return { w, h, pts, labels, marks };
    });
    const hits = [];
    g.pts.forEach((p, i) => {
      if (p[1] < 2 || p[1] > g.h - 2) hits.push(`point ${i} on the edge (y ${p[1]})`);
      if (i && g.labels.some((r) => segmentHitsBox(g.pts[i - 1], p, r))) hits.push(`segment ${i} over a label`);
    });
    for (const m of g.marks) if (g.labels.some((r) => segmentHitsBox([m.x, m.y], [m.x + m.width, m.y + m.height], r))) hits.push('a mark over a label');
    assert(!hits.length, `${viewport.width}: ${hits.slice(0, 5).join('; ')}`);
    await shot(rp, `bug-37-6-review-${viewport.width}`);
  }
  // Opprimo's rules on a phone: nothing wider than the screen.
  const phone = await newBrowser({ width: 390, height: 844 });
  await phone.page.goto(`${pageOrigin()}/rules/opprimo`);
  await phone.page.waitForFunction(() => document.querySelector('.rules')?.dataset.figures === 'drawn', null, { timeout: 20000 });
  const wide = await phone.page.evaluate(() => [...document.querySelectorAll('.rules > *, .rules pre, .rules figure, .rules table')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => `${e.tagName} ${Math.round(e.getBoundingClientRect().width)}`));
  const sideways = await phone.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  assert(!wide.length && !sideways, `opprimo's rules on a phone: wider than the screen: ${wide.join(', ')}${sideways ? ' (the page scrolls sideways)' : ''}`);
  // The board diagrams (lines of up to 50 characters) are seen whole; longer text scrolls in its box.
  const cut = await phone.page.evaluate(() => [...document.querySelectorAll('.rules pre')]
    .filter((e) => Math.max(...e.textContent.split('\n').map((l) => l.length)) <= 50 && e.scrollWidth > e.clientWidth + 1)
    .map((e) => e.textContent.trim().slice(0, 20)));
  assert(!cut.length, `opprimo's diagrams cut on a phone: ${cut.join(' | ')}`);
  await phone.page.locator('.rules pre').first().scrollIntoViewIfNeeded();
  await shot(phone.page, 'bug-37-6-opprimo-rules-390');
  // The top bar on a phone: the logo and every section shown, each 44 px or more, apart.
  await phone.page.goto(`${pageOrigin()}/`);
  await phone.page.waitForSelector('.game-card');
  const bar = await phone.page.evaluate(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { what: (e.dataset.nav || e.className || e.id || e.tagName).toString(), x: r.x, y: r.y, w: r.width, h: r.height, shown: e.offsetParent !== null || e.tagName === 'SUMMARY' }; };
    return { brand: box(document.querySelector('.brand')), nav: [...document.querySelectorAll('.nav a')].map(box), others: [...document.querySelectorAll('#account-bar a, #account-bar button, .settings > summary')].map(box) };
  });
  const bad = [];
  for (const t of [bar.brand, ...bar.nav, ...bar.others]) {
    if (!t.shown || t.w < 1) bad.push(`${t.what} hidden`);
    else if (t.w < 43.5 || t.h < 43.5) bad.push(`${t.what} ${Math.round(t.w)}×${Math.round(t.h)}`);
    else if (t.x < -1 || t.x + t.w > 391) bad.push(`${t.what} outside the screen`);
  }
  const row = bar.nav.filter((t) => t.shown).sort((p, q) => p.y - q.y || p.x - q.x);
  for (let i = 1; i < row.length; i += 1) {
    if (Math.abs(row[i].y - row[i - 1].y) < 2 && row[i].x - (row[i - 1].x + row[i - 1].w) < 2) bad.push(`${row[i - 1].what} and ${row[i].what} touch`);
  }
  assert(!bad.length, `the top bar on a phone: ${bad.join(', ')}`);
  await shot(phone.page, 'bug-37-6-phone-top-bar');
  // Every link and button on its own (not a word in a sentence) is 44 px high or more.
  const pages = [['/', '.game-card'], ['/lobby', '#lobby-signin'], ['/learn', '.learn-card'], ['/learn/sight-reduction', '.board .hit'], ['/puzzles', '.puzzle-links'],
    ['/rules', '.rules-index'], ['/findings/obsidio', '.findings h1'], ['/review', '#record-text'], ['/games', '.games-table']];
  const { id } = await finishedGame('sight-reduction', 24);
  pages.push([`/games/${id}`, '#link-review'], [`/games/${id}/replay`, '.board']);
  const small = [];
  for (const [url, ready] of pages) {
    await phone.page.goto(`${pageOrigin()}${url}`);
    await phone.page.waitForSelector(ready, { timeout: 20000 });
    await phone.page.waitForTimeout(400); // the result banner pops in
    const found = await phone.page.evaluate(() => [...document.querySelectorAll('.topbar a, .topbar summary, main a[href], main button, main summary')]
      .filter((e) => e.offsetParent !== null && e.getClientRects().length)
      .filter((e) => {
        // A word in a sentence is left as it is: a link inside running text.
        const block = e.closest('p, li, td, dd, figcaption, .rules, .lead, .opt-desc, .muted');
        return !block || block.textContent.trim() === e.textContent.trim();
      })
      .map((e) => ({ what: `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${[...e.classList].join('.')} '${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 18)}'`, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height < 43.5)
      .map(({ what, r }) => `${what} ${Math.round(r.width)}×${Math.round(r.height)}`));
    for (const f of found) small.push(`${url}: ${f}`);
  }
  assert(!small.length, `under 44 px on a phone: ${small.slice(0, 12).join('; ')}${small.length > 12 ? ` …(${small.length})` : ''}`);
});

test('bug 37.7: words for people: counts, colours, one grade, no live pill when over, hints, the time taken, taps, days and hours', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  // "1 move", not "1 moves", in the recent games.
  const made = { id: await createFromStartPage(page, { game: 'sight-reduction', mode: 'same' }) };
  await waitTurn(page);
  await playOneByClicks(page, rng(37));
  await page.goto(`${pageOrigin()}/`);
  const pill = page.locator(`.recent-list a[href="/games/${made.id}"] .pill`).first();
  await pill.waitFor();
  assert(/^1 move · playing$/.test(await pill.innerText()), `the recent game says '${await pill.innerText()}'`);
  // A result names its colours with capitals; a finished game has no "live" pill.
  await page.goto(`${pageOrigin()}/games/${made.id}`);
  await page.waitForSelector('.board .hit');
  await page.locator('#btn-resign').click();
  await page.locator('#confirm-yes').click();
  await page.waitForSelector('.result-banner');
  for (const sel of ['#status', '.result-banner .banner-text']) {
    const t = await page.locator(sel).first().innerText();
    assert(!/\b(white|black)\b/.test(t), `${sel} says '${t}'`);
  }
  assert(!(await page.locator('.conn').isVisible()), `a finished game shows '${await page.locator('.conn').innerText()}'`);
  await shot(page, 'bug-37-7-finished');
  // The review's comment does not say its grade twice ("blunder. Blunder.").
  const { id } = await finishedGame('opprimo', 3, 8);
  await page.goto(`${pageOrigin()}/games/${id}/review`);
  await page.waitForSelector('#eval-graph svg', { timeout: 60000 });
  const n = await page.locator('#review-moves .mv').count();
  const twice = [];
  for (let i = 1; i <= n; i += 1) {
    await page.locator(`#review-moves .mv[data-ply="${i}"]`).click();
    const c = await page.locator('#review-comment').innerText();
    const m = /— ([a-z ]+)\.\s+(\S+(?: move)?)\./i.exec(c);
    if (m && m[1].toLowerCase() === m[2].toLowerCase()) twice.push(c.split('\n')[0]);
  }
  assert(!twice.length, `the grade said twice: ${twice.slice(0, 3).join(' | ')}`);
  // The analysis board tells the time it took, not the search's budget (the server's
  // evaluations, as a browser without workers gets them).
  await page.addInitScript(() => { delete globalThis.Worker; });
  await page.route('**/api/analysis?**', (route) => route.fulfill({
    status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
    body: `event: analysis\ndata: ${JSON.stringify({ step: 4, last: true, ms: 3000, move: 'c3', cells: [], pv: ['c3'], text: 'White is better', first_score: 0.6, exact: false, depth: 4, nodes: 1200 })}\n\n`,
  }));
  const t0 = Date.now();
  await page.goto(`${pageOrigin()}/analysis?game=sight-reduction`);
  await page.waitForSelector('.engine-meta');
  const waited = (Date.now() - t0) / 1000;
  const meta = await page.locator('.engine-meta').innerText();
  const said = Number((/([\d.]+) s/.exec(meta) || [])[1]);
  assert(/^Done/.test(meta) && said <= waited + 0.05, `the analysis says '${meta}' after ${waited.toFixed(1)} s`);
  await page.unroute('**/api/analysis?**');
  // The tutorial's end does not say "every one on your own" after a hint.
  await tutorialWithHints(page);
  const summary = await page.locator('.learn-end .lead').innerText();
  assert(!/every one on your own/.test(summary) && /with a hint/.test(summary), `after hints the tutorial says '${summary}'`);
  // A correspondence clock under a few days tells the hours.
  const corr = await apiPost('/api/games', { game: 'sight-reduction', clock: '1d' });
  await page.goto(`${pageOrigin()}/games/${corr.id}`);
  await page.waitForSelector('#clock-first');
  const clock = (await page.locator('#clock-second').innerText()).trim();
  assert(/^\d+ d \d+ h$|^\d+ h/.test(clock), `the correspondence clock shows '${clock}'`);
  // On a touch screen: "tap", and no Esc.
  const touch = await newBrowser({ width: 390, height: 844 }, { hasTouch: true, isMobile: true });
  await createFromStartPage(touch.page, { game: 'sight-reduction', mode: 'same' });
  await waitTurn(touch.page);
  const words = [await touch.page.locator('.feedback').innerText()];
  const first = (await clickables(touch.page))[0];
  await clickCell(touch.page, first.cell, first.layer);
  await touch.page.waitForTimeout(100);
  words.push(await touch.page.locator('.feedback').innerText());
  await touch.page.goto(`${pageOrigin()}/learn/sight-reduction`);
  await waitPractice(touch.page);
  await touch.page.locator('#btn-hint').click();
  words.push((await feedback(touch.page)).text);
  const mouseWords = words.filter((w) => /\bclick|\bEsc\b/i.test(w));
  assert(words.some(Boolean) && !mouseWords.length, `on a touch screen: ${mouseWords.join(' | ')}`);
  await shot(touch.page, 'bug-37-7-touch-hint');
});

/** Works through the Sight Reduction tutorial with a hint on every step, to its end. */
async function tutorialWithHints(page) {
  const game = 'sight-reduction';
  const tutorial = await apiGet(`/api/tutorials/${game}`);
  await page.goto(`${pageOrigin()}/learn/${game}`);
  for (let i = 0; i < tutorial.steps.length; i += 1) {
    const step = tutorial.steps[i];
    await page.locator('.step-dot').nth(i).click();
    await page.waitForFunction((k) => document.querySelector('main').dataset.step === String(k), i);
    await waitPractice(page);
    await page.locator('#btn-hint').click();
    const view = await apiPost('/api/positions', { game, options: step.options, position: step.position });
    const input = view.interaction.moves.find((m) => m.move === step.show);
    if (input.paths && input.paths.length) {
      for (const c of input.paths[0]) await clickCell(page, c.cell, c.layer || '');
      const chooser = page.locator(`.chooser .chooser-btn[data-move="${step.show}"]`);
      if (await chooser.count()) await chooser.click();
    } else {
      await page.locator(`.move-buttons .btn-move[data-move="${step.show}"]`).click();
    }
    await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved', null, { timeout: 5000 });
  }
  await page.locator('#btn-next').click();
  await page.waitForSelector('.learn-end .lead');
}

test('bug 37.8: the name limit said, rated remembered, the invite link in view, the reports reachable, the marks explained', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  // Sign-up: a 60-character name is not cut to 20 without a word; the limit is said.
  await page.goto(`${pageOrigin()}/account`);
  await page.fill('#signup-name', 'n'.repeat(60));
  assert((await page.locator('#signup-name').inputValue()).length === 60, 'the name was cut short');
  const hint = await page.locator('#signup-name-hint').innerText();
  assert(/20/.test(hint) && /60/.test(hint), `the hint says '${hint}'`);
  await page.fill('#signup-password', PASSWORD);
  await page.click('#signup-submit');
  await page.waitForFunction(() => document.querySelector('#signup-error').textContent.length > 0);
  assert(/20/.test(await page.locator('#signup-error').innerText()), `the refusal says '${await page.locator('#signup-error').innerText()}'`);
  await shot(page, 'bug-37-8-signup');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'bug-37-8-signup-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  // The lobby remembers "Rated" from the last challenge.
  await signUp(page, newName('rae'));
  await postChallenge(page, { game: 'obsidio', rated: true });
  await page.waitForSelector('.challenge.challenge-yours');
  await page.goto(`${pageOrigin()}/`);
  await page.goto(`${pageOrigin()}/lobby`);
  await page.waitForSelector('#lobby-rated', { state: 'attached' });
  assert(await page.locator('#lobby-rated').isChecked(), 'Rated was not remembered');
  // An invite game: the link to send is in view at once, before any move, at both sizes.
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const v = await newBrowser(viewport);
    await createFromStartPage(v.page, { game: 'opprimo', mode: 'online', options: GAMES.opprimo.options });
    await v.page.waitForSelector('#invite-link');
    await v.page.evaluate(() => window.scrollTo(0, 0));
    await v.page.waitForTimeout(150);
    for (const sel of ['#invite-link', '#copy-invite', '.board']) assert(await inView(v.page, sel), `${viewport.width}: ${sel} is not in view`);
    await shot(v.page, `bug-37-8-invite-${viewport.width}`);
  }
  // The findings link the full reports and their numbers, at addresses that answer.
  await page.goto(`${pageOrigin()}/findings/assideum`);
  await page.waitForSelector('.findings h1');
  const links = await page.evaluate(() => [...document.querySelectorAll('.findings a[href]')].map((a) => a.getAttribute('href')));
  const reports = links.filter((l) => /report/.test(l) && !/README/.test(l));
  assert(reports.some((l) => /report\.json$/.test(l)) && reports.some((l) => /\/report$/.test(l)), `the report links: ${reports}`);
  for (const l of reports) {
    const r = await fetch(`${origin()}${l}`);
    assert(r.ok, `${l} answers ${r.status}`);
  }
  await page.locator('.findings a[href$="/report"]').first().click();
  await page.waitForFunction(() => /report/i.test(document.querySelector('.findings h1')?.textContent || ''), null, { timeout: 10000 });
  const chart = await page.locator('.findings img').first().evaluate((i) => i.src);
  assert((await fetch(chart)).ok, `the report's chart ${chart} does not load`);
  const numbers = await fetch(`${origin()}${await page.locator('#report-numbers').getAttribute('href')}`);
  assert(numbers.ok && /json/.test(numbers.headers.get('content-type')), `the numbers answer ${numbers.status}`);
  await shot(page, 'bug-37-8-report');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'bug-37-8-report-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  // The review says what the marks mean.
  const { id } = await finishedGame('sight-reduction', 25);
  await page.goto(`${pageOrigin()}/games/${id}/review`);
  await page.waitForSelector('#eval-graph svg', { timeout: 60000 });
  const note = await page.locator('#review-marks').innerText();
  assert(/\?\?/.test(note) && /blunder/.test(note), `the marks note says '${note}'`);
  assert(await inView(page, '#review-marks'), 'the marks note is out of view');
});

// ---------------------------------------------------------------- local games against the computer

/** Game `id` as this browser keeps it (local/games.js), or null. */
async function keptGame(page, id) {
  return page.evaluate((gid) => {
    const all = JSON.parse(localStorage.getItem('boardlab:local-games') || '{}');
    return all[gid] || null;
  }, id);
}

/** Records every request the page makes to the server's game routes. */
function watchGameRequests(page) {
  const asked = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (/^\/api\/games(\/|$)/.test(u.pathname) && !(r.method() === 'GET' && u.pathname === '/api/games')) asked.push(`${r.method()} ${u.pathname}`);
  });
  return asked;
}

test('local game: a whole game against the computer is played and kept in the browser, never on the server; it survives a reload', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const asked = watchGameRequests(page);
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'computer', level: 1, seed: 4242 });
  assert(/^local-[0-9a-f]{16}$/.test(id), `the game's id is ${id}`);
  const start = await keptGame(page, id);
  assert(start && start.seats.first === 'human' && start.seats.second === 'computer:level:1' && start.seed === 4242, `kept: ${JSON.stringify(start)}`);
  assert(/Kept on this device/.test(await page.locator('.game-sub').innerText()), 'the page does not say the game is kept on this device');
  assert(!(await page.locator('.conn').isVisible()), 'a local game shows a live connection');
  const rand = rng(31);
  let moves = 0;
  for (;;) {
    const st = await waitTurn(page, 90000);
    if (st.status === 'finished') break;
    await playOneByClicks(page, rand);
    moves += 1;
    assert(moves < 500, 'the game did not end');
  }
  await page.waitForSelector('.result-banner');
  const kept = await keptGame(page, id);
  assert(kept.status === 'finished' && kept.result, `kept as ${kept.status}: ${kept.result}`);
  const shown = await page.locator('.move-list .mv[data-ply]').allInnerTexts();
  assert(shown.join(' ') === kept.moves.join(' '), `the move list differs from the moves kept: ${shown} / ${kept.moves}`);
  assert(kept.moves.length > moves, 'the computer did not move');
  // After a reload: the same game, over, from the browser's storage.
  await page.reload();
  await page.waitForSelector('.result-banner');
  const again = await page.locator('.move-list .mv[data-ply]').allInnerTexts();
  assert(again.join(' ') === shown.join(' '), 'the moves changed on reloading');
  assert((await page.locator('#status').innerText()).length > 5, 'no result in the status');
  // Listed among the games this browser keeps.
  const listed = await page.evaluate(async () => (await import('/js/local/games.js')).localGames().map((g) => g.id));
  assert(listed[0] === id, `the games kept here: ${listed}`);
  assert(!asked.length, `the server was asked about the game: ${asked.join(', ')}`);
  console.log(`    ${kept.moves.length} moves; ${kept.result}`);
});

test('local game: take-back of a move and its reply, an illegal typed move refused, resignation, records', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const asked = watchGameRequests(page);
  const id = await createFromStartPage(page, { game: 'opprimo', mode: 'computer', level: 1 });
  const rand = rng(7);
  for (let i = 0; i < 2; i += 1) {
    await waitTurn(page);
    await playOneByClicks(page, rand);
  }
  let st = await waitTurn(page);
  const before = await keptGame(page, id);
  assert(before.moves.length === 4 && st.ply === 4, `${before.moves.length} moves kept, ${st.ply} shown`);
  // Take-back: the player's last move and the computer's reply go at once.
  await page.locator('#btn-undo').click();
  await page.waitForFunction(() => document.querySelector('main').dataset.ply === '2');
  st = await waitTurn(page);
  const undone = await keptGame(page, id);
  assert(undone.moves.join(' ') === before.moves.slice(0, 2).join(' '), `after the take-back: ${undone.moves}`);
  assert(st.canMove, 'the player cannot move after the take-back');
  // An illegal typed move: the engine's words, nothing changes.
  await page.locator('#typed-move').fill('zz99');
  await page.locator('.typed-move button').click();
  await page.waitForFunction(() => document.querySelector('.feedback-error') && /zz99/i.test(document.querySelector('.feedback').textContent));
  const refused = await keptGame(page, id);
  assert(refused.version === undone.version && refused.moves.length === 2, 'a refused typed move changed the game');
  assert((await pageState(page)).canMove, 'after a refused move the player cannot move');
  // A legal typed move, in capitals, is played and kept in its notation.
  const legal = await page.locator('#legal-moves option').first().getAttribute('value');
  await page.locator('#typed-move').fill(legal.toUpperCase());
  await page.locator('.typed-move button').click();
  await page.waitForFunction(() => Number(document.querySelector('main').dataset.ply) >= 3);
  await waitTurn(page);
  assert((await keptGame(page, id)).moves[2] === legal, 'the typed move was not kept');
  // A hint and an earlier position, worked out in the page.
  const offered = await page.locator('#legal-moves option').evaluateAll((os) => os.map((o) => o.value));
  await page.locator('#btn-hint').click();
  await page.waitForSelector('.feedback-advice', { timeout: 30000 });
  const hint = /Hint: (\S+)/.exec(await page.locator('.feedback-advice').innerText())[1];
  assert(offered.includes(hint), `the hint ${hint} is not a legal move`);
  const kings = () => page.locator('.board .pc-king').count();
  const kingsNow = await kings();
  await page.locator('.move-list .mv[data-ply="1"]').click();
  await page.waitForFunction(() => document.querySelector('main').dataset.ply === '1' && !document.querySelector('.viewing').hidden);
  assert(/after move 1/.test(await page.locator('.viewing').innerText()), 'the earlier position is not said');
  // After the first move one king stands on the board, the second one not yet.
  await page.waitForFunction((n) => document.querySelectorAll('.board .pc-king').length === n - 1 || /Cannot show/.test(document.querySelector('.feedback').textContent), kingsNow);
  assert(!/Cannot show/.test(await page.locator('.feedback').innerText()) && await kings() === kingsNow - 1, 'the earlier position was not worked out');
  await page.locator('.viewing button').click();
  await waitTurn(page);
  await page.locator('#btn-resign').click();
  await page.locator('#confirm-yes').click();
  await page.waitForSelector('.result-banner');
  const head = await page.locator('.result-banner .banner-head').innerText();
  assert(head === 'You lose', `after resigning the banner says '${head}'`);
  const over = await keptGame(page, id);
  assert(over.status === 'finished' && over.resigned === 'first' && /resign/i.test(over.result), `kept: ${over.status} ${over.resigned} ${over.result}`);
  // The records, made in the browser, begin as the server's do.
  const server = await apiPost('/api/games', { game: 'opprimo', seats: { first: 'human', second: 'human' } });
  const serverText = await fetch(`${origin()}/api/games/${server.id}/record?format=pgn`).then((r) => r.text());
  for (const [sel, ext] of [['#dl-pgn', 'pgn'], ['#dl-json', 'json']]) {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(sel).click()]);
    assert(dl.suggestedFilename() === `boardlab-opprimo-${id}.${ext}`, `the file is named ${dl.suggestedFilename()}`);
    const file = path.join(artifacts, `local-record.${ext}`);
    await dl.saveAs(file);
    const text = fs.readFileSync(file, 'utf8');
    if (ext === 'json') {
      const rec = JSON.parse(text);
      assert(JSON.stringify(rec).includes('opprimo'), 'the JSON record does not name the game');
    } else {
      const key = (t) => t.split('\n')[0].split(/\s/)[0];
      assert(key(text) === key(serverText), `the record begins '${text.slice(0, 30)}', the server's '${serverText.slice(0, 30)}'`);
      assert(text.includes(over.moves[0]) && /computer/i.test(text), `the record lacks the moves or players: ${text.slice(0, 300)}`);
    }
  }
  assert(!asked.length, `the server was asked about the game: ${asked.join(', ')}`);
});

test('local game: a browser that refuses to keep the game says so, and the move is not played', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'computer', level: 1 });
  await waitTurn(page);
  await page.evaluate(() => {
    Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
  });
  const legal = await page.locator('#legal-moves option').first().getAttribute('value');
  await page.locator('#typed-move').fill(legal);
  await page.locator('.typed-move button').click();
  await page.waitForSelector('.feedback-error');
  const said = await page.locator('.feedback-error').innerText();
  assert(/did not keep the game/.test(said) && /storage/.test(said), `the page says '${said}'`);
  const st = await pageState(page);
  assert(st.ply === 0 && st.canMove, `after the refusal: ${JSON.stringify(st)}`);
  assert((await keptGame(page, id)).moves.length === 0, 'a move was kept');
});

test('local game: rematch with colours swapped, the computer moving first; the page at both sizes', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page } = await newBrowser(viewport);
    const id = await createFromStartPage(page, { game: 'obsidio', mode: 'computer', level: 1, options: { size: '7' } });
    const rand = rng(3);
    await waitTurn(page);
    await playOneByClicks(page, rand);
    await waitTurn(page);
    await page.waitForTimeout(200);
    for (const sel of ['.board', '.player-bar.active', '#btn-undo', '#btn-resign']) {
      assert(await inView(page, sel), `${sel} outside the ${viewport.width}x${viewport.height} window`);
    }
    const status = await page.locator(viewport.width > 1000 ? '#status' : '.player-bar.active').innerText();
    assert(viewport.width < 1000 ? /to move/.test(status) : /(Black|White|Red|Blue|Green|Yellow|Orange|Purple)\b.*your turn/i.test(status), `the turn says '${status}'`);
    await shot(page, `local-game-${viewport.width}`);
    await page.locator('#btn-resign').click();
    await page.locator('#confirm-yes').click();
    await page.locator('#btn-rematch').click();
    await page.waitForURL((u) => /\/games\/local-/.test(u.pathname) && !u.pathname.endsWith(id));
    const next = gameId(page);
    const kept = await keptGame(page, next);
    assert(kept.seats.first === 'computer:level:1' && kept.seats.second === 'human', `the rematch's seats: ${JSON.stringify(kept.seats)}`);
    // The computer moves first, then it is the player's turn.
    await page.waitForFunction(() => Number(document.querySelector('main').dataset.ply) >= 1 && document.querySelector('main').dataset.canMove === 'true', null, { timeout: 30000 });
    assert((await keptGame(page, id)).rematch === next, 'the first game does not know its rematch');
    await shot(page, `local-rematch-${viewport.width}`);
  }
});

// (end of local games)

// ---------------------------------------------------------------- lists, reviews, puzzles and tutorials on the engine

/** Records the page's requests whose path matches `re`, as `METHOD /path`. */
function watchRequests(page, re) {
  const asked = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (re.test(u.pathname)) asked.push(`${r.method()} ${u.pathname}`);
  });
  return asked;
}

/**
 * Keeps in the browser of `page` a finished game against the computer (level 2), played out by
 * the page's engine with the first legal move each turn, as local/games.js keeps games.
 * Answers the game kept and its last position's view.
 */
async function keepFinishedLocalGame(page, game, seed) {
  return page.evaluate(async ({ game: name, seed: s }) => {
    const { enginePosition } = await import('/js/engine/index.js');
    const { keepLocal, newLocalId, localGame } = await import('/js/local/games.js');
    const moves = [];
    let v = await enginePosition({ game: name, seed: s, moves });
    while (!v.result && moves.length < 400) {
      moves.push(v.legal_moves[0]);
      v = await enginePosition({ game: name, seed: s, moves });
    }
    const now = new Date().toISOString();
    const id = newLocalId();
    keepLocal({
      id, game: name, title: name === 'sight-reduction' ? 'Sight Reduction' : name, options: {}, seed: s,
      seats: { first: 'human', second: 'computer:level:2' }, moves, resigned: null,
      status: 'finished', result: v.result.text, created: now, updated: now,
    });
    return { kept: localGame(id), view: v };
  }, { game, seed });
}

test('engine pages: a puzzle solved and a tutorial step done in the page, the server never asked for positions or puzzles', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const asked = watchRequests(page, /^\/api\/(positions|puzzles)/);
  const clear = await apiGet('/api/puzzles/clear-easy-2');
  await page.goto(`${pageOrigin()}/puzzles/clear-easy-2`);
  await waitPractice(page);
  // A move that throws the solution away is refused with the judge's words; nothing is played.
  const start = await apiPost('/api/positions', { game: 'sight-reduction', position: clear.position });
  const wrong = start.legal_moves.find((m) => m !== clear.solution[0] && !m.includes('+'));
  const judged = await apiPost('/api/puzzles/clear-easy-2/moves', { moves: [wrong] });
  if (judged.verdict === 'mistake') {
    await clickCell(page, wrong);
    await page.waitForFunction(() => document.querySelector('.practice-feedback').classList.contains('feedback-error'));
    assert((await feedback(page)).text === judged.text, `the page's judge and the server's differ: ${(await feedback(page)).text} / ${judged.text}`);
  }
  await page.locator('#btn-hint').click();
  await page.waitForFunction(() => document.querySelector('.practice-feedback').classList.contains('feedback-advice'));
  for (let i = 0; i < clear.solution.length; i += 1) {
    await clickCell(page, clear.solution[i]);
    await page.waitForFunction((n) => {
      const r = document.querySelector('main');
      return r.dataset.moves === String(n) && r.dataset.state !== 'busy';
    }, i + 1, { timeout: 10000 });
  }
  await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved');
  assert((await feedback(page)).text.startsWith('Solved'), `solved: ${(await feedback(page)).text}`);
  await shot(page, 'engine-puzzle-solved-1280');
  // A tutorial step: its position and the move's result drawn by the engine.
  await page.goto(`${pageOrigin()}/learn/sight-reduction`);
  await waitPractice(page);
  await clickCell(page, 'a3');
  await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved');
  assert((await feedback(page)).ok, 'the step is done');
  // A figure of the rules pages, drawn from the engine's position.
  await page.goto(`${pageOrigin()}/rules/sight-reduction`);
  await page.waitForSelector('figure.board-figure[data-drawn="true"]', { timeout: 20000 });
  assert(!asked.length, `the server was asked: ${asked.join(', ')}`);
  // An illegal move: refused with the server's words, as the server's answer would be.
  const refusal = await page.evaluate(async () => {
    const { positionView } = await import('/js/engine/index.js');
    try {
      await positionView({ game: 'obsidio', options: { size: '7' }, moves: ['zz9'] });
      return null;
    } catch (e) {
      return { status: e.status, message: e.message };
    }
  });
  const server = await fetch(`${origin()}/api/positions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'obsidio', options: { size: '7' }, moves: ['zz9'] }) });
  const said = (await server.json()).error;
  assert(refusal && refusal.status === 400 && refusal.message === said, `the refusal: ${JSON.stringify(refusal)}; the server: ${server.status} ${said}`);
});

test('engine pages: where the engine cannot load, the server makes the puzzle, judges it and draws the positions', async () => {
  const { ctx, page } = await newBrowser({ width: 1280, height: 800 });
  await ctx.route('**/engine/boardlab_wasm*', (route) => route.abort());
  const asked = watchRequests(page, /^\/api\/(positions|puzzles)/);
  const clear = await apiGet('/api/puzzles/clear-easy-1');
  await page.goto(`${pageOrigin()}/puzzles/clear-easy-1`);
  await waitPractice(page, 30000);
  await clickCell(page, clear.solution[0]);
  await page.waitForFunction(() => document.querySelector('main').dataset.moves === '1' && document.querySelector('main').dataset.state !== 'busy', null, { timeout: 10000 });
  for (const want of ['GET /api/puzzles/clear-easy-1', 'POST /api/puzzles/clear-easy-1/moves', 'POST /api/positions']) {
    assert(asked.includes(want), `the server was not asked ${want}: ${asked.join(', ')}`);
  }
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !/boardlab_wasm/.test(e)));
});

test('engine pages: a game kept in this browser is listed in My games and on the start page, and reviewed in the page', async () => {
  const { page } = await newBrowser({ width: 1280, height: 800 });
  const asked = watchRequests(page, /^\/api\/(games\/local|reviews|positions)/);
  await page.goto(`${pageOrigin()}/my-games`);
  await page.waitForSelector('#mygames-signin');
  const { kept, view } = await keepFinishedLocalGame(page, 'sight-reduction', 77);
  const n = kept.moves.length;
  const outcome = view.result.winner === 'first' ? 'Won' : view.result.winner ? 'Lost' : 'Drawn';
  // My games, signed out: the game kept here, with its opponent and its result in words.
  await page.reload();
  const row = page.locator(`.game-row[data-game-id="${kept.id}"]`);
  await row.waitFor({ timeout: 20000 });
  const text = await row.innerText();
  for (const want of ['Sight Reduction', 'On this device', 'vs Computer · level 2', `${n} moves`, outcome]) {
    assert(text.includes(want), `the row lacks '${want}': ${text}`);
  }
  assert(!/seat|ply|plies|human/i.test(text), `words for people: ${text}`);
  assert(await page.locator('#group-finished .game-row').count() === 1, 'the game is not among the finished ones');
  assert(await inView(page, `.game-row[data-game-id="${kept.id}"]`), 'the row is out of view');
  await shot(page, 'engine-mygames-local-1280');
  // A filter by result that does not match leaves it out.
  await page.goto(`${pageOrigin()}/my-games?result=ongoing`);
  await page.waitForSelector('#filter-result');
  await page.waitForSelector('.row-list .empty');
  assert(await page.locator('.game-row').count() === 0, 'a finished game passed the filter for games being played');
  // The start page's recent games.
  await page.goto(`${pageOrigin()}/`);
  const recent = page.locator(`.recent-list a[data-game-id="${kept.id}"]`);
  await recent.waitFor({ timeout: 20000 });
  const rtext = await recent.innerText();
  assert(/on this device/.test(rtext) && /You vs Computer · level 2/.test(rtext) && /wins/.test(rtext), `the recent row: ${rtext}`);
  assert(await recent.getAttribute('href') === `/games/${kept.id}`, 'the row opens the game');
  await recent.scrollIntoViewIfNeeded();
  await shot(page, 'engine-home-recent-1280');
  // The row opens the game; its review is worked out in the page, then kept for the next visit.
  await recent.click();
  await page.waitForURL(`**/games/${kept.id}`);
  await page.locator('#link-review').click();
  await page.waitForURL(`**/games/${kept.id}/review`);
  await page.waitForSelector('#eval-graph svg', { timeout: 60000 });
  assert((await page.locator('#review-moves .mv').count()) === n, 'every move is in the review');
  assert((await page.locator('#review-summary tbody tr').count()) === 2, 'a summary row per side');
  assert((await page.locator('#review-result').innerText()).includes('wins'), 'the result is told');
  const stored = await page.evaluate((id) => JSON.parse(localStorage.getItem(`boardlab:local-review:${id}`) || 'null'), kept.id);
  assert(stored && stored.moves === n && stored.review.plies.length === n, 'the review is not kept in the browser');
  await shot(page, 'engine-review-local-1280');
  await page.reload();
  await page.waitForSelector('#eval-graph svg', { timeout: 5000 });
  assert(await page.locator('#review-progress').count() === 0, 'the kept review was worked out again');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${pageOrigin()}/games/${kept.id}/review`);
  await page.waitForSelector('#eval-graph svg');
  assert(await inView(page, '.board'), 'the board is out of view on a phone');
  await shot(page, 'engine-review-local-390');
  // Signed in: the account's games and the one kept here, in one list.
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page, `keeper${Date.now() % 100000}`);
  await row.waitFor({ timeout: 20000 });
  assert(await page.locator('#mygames-device').isVisible(), 'signed in, the list does not say which games are kept on this device');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'engine-mygames-local-390');
  assert(!asked.length, `the server was asked: ${asked.join(', ')}`);
});

// (end of lists, reviews, puzzles and tutorials)

// ---------------------------------------------------------------- offline and the static site

/** Waits until the service worker is active and its cache holds every address of the list. */
async function workerReady(page, list, timeout = 60000) {
  const want = list.files.length + list.data.length;
  const deadline = Date.now() + timeout;
  let held = 0;
  while (Date.now() < deadline) {
    held = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) return -1;
      let most = 0;
      for (const name of await caches.keys()) most = Math.max(most, (await (await caches.open(name)).keys()).length);
      return most;
    });
    if (held >= want) return held;
    await sleep(250);
  }
  throw new Error(`the worker's cache holds ${held} of ${want} addresses`);
}

/** Plays moves by clicking until the game is over (or `max` moves); answers how many. */
async function playOut(page, rand, max = 500) {
  let moves = 0;
  while (moves < max) {
    const st = await waitTurn(page, 90000);
    if (st.status === 'finished') break;
    await playOneByClicks(page, rand);
    moves += 1;
  }
  return moves;
}

/** Asks for a hint on the game page and answers its words. */
async function askHint(page) {
  await page.locator('#btn-hint').click();
  await page.waitForSelector('.feedback-advice', { timeout: 30000 });
  return page.locator('.feedback-advice').innerText();
}

test('offline: with the server gone, the app opens from its cache; a game against the computer, a hint, the analysis board; what needs the server says so', async () => {
  const list = await apiGet('/app-files.json');
  const { page } = await newBrowser({ width: 1280, height: 800 }, { serviceWorkers: 'allow' });
  await page.goto(`${pageOrigin()}/`);
  await page.waitForSelector('.game-card');
  const held = await workerReady(page, list);
  console.log(`    the worker keeps ${held} addresses (${list.files.length} files, ${list.data.length} answers)`);
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel="manifest"]');
    return link ? (await fetch(link.getAttribute('href'))).json() : null;
  });
  assert(manifest && manifest.start_url === '/' && manifest.display === 'standalone' && manifest.icons.length, `the manifest: ${JSON.stringify(manifest)}`);
  await stopServer();
  assert(server.exitCode !== null || server.signalCode !== null, 'the server is still running');
  // Ended by the signal, it has no exit code: the runner starts it again when it finds none.
  if (server.exitCode === null) server = null;
  await page.reload();
  await page.waitForSelector('.game-card');
  const id = await createFromStartPage(page, { game: 'sight-reduction', mode: 'computer', level: 1, seed: 99 });
  assert(/^local-/.test(id), `the game's id is ${id}`);
  const rand = rng(11);
  await playOut(page, rand, 2);
  const hint = await askHint(page);
  assert(/Hint: \S+/.test(hint), `the hint says '${hint}'`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'offline-game-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  assert(await inView(page, '.board'), 'the board is out of view on a phone');
  await shot(page, 'offline-game-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  const moves = await playOut(page, rand);
  await page.waitForSelector('.result-banner');
  const kept = await keptGame(page, id);
  assert(kept.status === 'finished', `the game is ${kept.status}`);
  await shot(page, 'offline-game-over-1280');
  console.log(`    offline: ${moves} + 2 moves played, ${kept.moves.length} in all; ${kept.result}`);
  // The analysis board, opened as an address (the worker answers with the app).
  await page.goto(`${pageOrigin()}/analysis?game=sight-reduction`);
  await page.waitForSelector('#engine-text', { timeout: 30000 });
  // What needs the server says so in words.
  await page.goto(`${pageOrigin()}/`);
  await page.locator('.game-card[data-game="obsidio"]').click();
  await page.locator('.mode-card[data-mode="online"]').click();
  await page.locator('#start-game').click();
  await page.waitForFunction(() => document.querySelector('.form-error').textContent.length > 0);
  const said = await page.locator('.form-error').innerText();
  assert(/^You are offline/.test(said) && !/fetch|network/i.test(said), `creating an online game offline says '${said}'`);
  await shot(page, 'offline-online-game-1280');
});

/** The binary that has the `site` command. */
function siteBinary() {
  if (!path.basename(bin).startsWith('boardlab-server')) return bin;
  return path.join(path.dirname(bin), 'boardlab');
}

/** Serves `dir` with Python's plain static server; answers its origin and the process. */
async function staticServer(dir) {
  const p = await freePort();
  const proc = spawn('python3', ['-m', 'http.server', '--bind', '127.0.0.1', String(p), '-d', dir], { stdio: 'ignore' });
  const at = `http://127.0.0.1:${p}`;
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`the static server exited (${proc.exitCode})`);
    try {
      if ((await fetch(`${at}/index.html`)).ok) return { at, proc };
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  proc.kill();
  throw new Error('the static server did not start');
}

test('static site: `site --out` served by a plain static server; a game against the computer, a hint, a rules page, a tutorial step', async () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'site-'));
  const made = spawn(siteBinary(), ['site', '--out', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  made.stdout.on('data', (d) => { out += d; });
  made.stderr.on('data', (d) => { out += d; });
  const code = await new Promise((r) => made.on('exit', r));
  assert(code === 0, `site --out failed (${code}): ${out}`);
  if (dev) {
    // --dev: the binary wrote its own copy of web/; this checkout's files go over it, as the
    // server that reads them lists them (what a binary built from them writes).
    const fresh = await apiGet('/app-files.json');
    for (const a of fresh.files) {
      const file = path.join(dir, a === '/' ? 'index.html' : a);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.from(await (await fetch(origin() + a)).arrayBuffer()));
    }
    fs.writeFileSync(path.join(dir, 'app-files.json'), JSON.stringify(fresh));
  }
  const list = JSON.parse(fs.readFileSync(path.join(dir, 'app-files.json'), 'utf8'));
  for (const a of [...list.files, ...list.data]) {
    const file = path.join(dir, a.split('?')[0] === '/' ? 'index.html' : a.split('?')[0]);
    assert(fs.existsSync(file), `the site lacks ${a}`);
  }
  const withWorker = list.files.includes('/sw.js');
  const { at, proc } = await staticServer(dir);
  try {
    const { page } = await newBrowser({ width: 1280, height: 800 }, { serviceWorkers: 'allow' });
    const asked = watchRequests(page, /^\/api\//);
    await page.goto(`${at}/`);
    await page.locator('.game-card[data-game="sight-reduction"]').click();
    await page.locator('.mode-card[data-mode="computer"]').click();
    await page.locator('#level').fill('1');
    await page.locator('.seg[data-seat="first"]').click();
    await page.locator('#start-game').click();
    await page.waitForURL(/\/games\/local-[0-9a-f]+$/);
    await page.waitForSelector('.board .hit');
    const id = gameId(page);
    const rand = rng(5);
    await playOut(page, rand, 3);
    const hint = await askHint(page);
    assert(/Hint: \S+/.test(hint), `the hint says '${hint}'`);
    const moves = await playOut(page, rand);
    await page.waitForSelector('.result-banner');
    assert((await keptGame(page, id)).status === 'finished', 'the game did not end');
    console.log(`    static site: ${moves} + 3 moves, then the result`);
    await shot(page, 'static-site-game-1280');
    // A rules page and a tutorial step, reached through the app's links (a plain static server
    // knows no app address but /).
    await page.locator('a[data-nav="rules"]').click();
    await page.locator('.rules-index a[href="/rules/sight-reduction"]').click();
    await page.waitForSelector('figure.board-figure[data-drawn="true"]', { timeout: 20000 });
    await page.locator('a.btn[href="/learn/sight-reduction"], a[href="/learn/sight-reduction"]').first().click();
    await waitPractice(page);
    await clickCell(page, 'a3');
    await page.waitForFunction(() => document.querySelector('main').dataset.state === 'solved');
    await shot(page, 'static-site-tutorial-1280');
    const reads = asked.filter((a) => !a.startsWith('GET '));
    assert(!reads.length, `the static site was sent: ${reads.join(', ')}`);
    // What needs the server says that this site has none.
    await page.locator('a[data-nav="home"]').click();
    await page.locator('.game-card[data-game="obsidio"]').click();
    await page.locator('.mode-card[data-mode="online"]').click();
    await page.locator('#start-game').click();
    await page.waitForFunction(() => document.querySelector('.form-error').textContent.length > 0);
    const said = await page.locator('.form-error').innerText();
    assert(/^This needs the boardlab server/.test(said), `creating an online game says '${said}'`);
    if (withWorker) {
      // With the worker, an app address opened directly is answered with the app.
      await workerReady(page, list);
      await page.goto(`${at}/games/${id}`);
      await page.waitForSelector('.result-banner');
    } else {
      console.log('    (this site has no service worker: built from an older web/)');
    }
  } finally {
    proc.kill();
  }
  // A plain static server's 404 pages for the account are not errors of the app.
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !/ServiceWorker|sw\.js/.test(e)));
});

// (end of offline and the static site)

// ---------------------------------------------------------------- runner

async function main() {
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
  port = await freePort();
  console.log(`server: ${bin} on ${origin()} (database ${dbFile})`);
  await startServer();
  let failed = 0;
  const chosen = tests.filter((t) => !only || t.name.includes(only));
  for (const t of chosen) {
    const t0 = Date.now();
    pageErrors.length = 0;
    try {
      await t.fn();
      if (pageErrors.length) throw new Error(`errors in the page:\n${pageErrors.join('\n')}`);
      console.log(`ok   ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)}s)\n    ${String(e.stack || e).split('\n').join('\n    ')}`);
      if (pageErrors.length) console.log(`    errors in the page:\n      ${pageErrors.join('\n      ')}`);
      for (const ctx of browsers) {
        for (const [i, p] of ctx.pages().entries()) {
          await p.screenshot({ path: path.join(artifacts, `FAILED-${t.name.replace(/[^a-z0-9]+/gi, '-')}-${browsers.indexOf(ctx)}-${i}.png`) }).catch(() => {});
        }
      }
    }
    for (const ctx of browsers.splice(0)) await ctx.close().catch(() => {});
    if (!server || server.exitCode !== null) await startServer();
  }
  await stopServer();
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`\n${chosen.length - failed} passed, ${failed} failed; screenshots in ${path.relative(repo, artifacts) || artifacts}`);
  if (failed) {
    console.log(`server log (tail):\n${serverLog.slice(-3000)}`);
    process.exitCode = 1;
  }
}

main().catch(async (e) => {
  console.error(e);
  for (const ctx of browsers) await ctx.close().catch(() => {});
  await stopServer('SIGKILL');
  process.exitCode = 1;
});

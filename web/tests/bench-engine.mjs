// The browser's engine measured against the native one, in one sitting:
// - random playouts per second from each game's start, in Chromium (one Web Worker) and
//   natively on one core (`boardlab bench GAME`), and their ratio;
// - the time from opening the analysis board to its first evaluation shown, per game;
// - the time from opening the start page until it can be used;
// - the engine's download as the server sends it to a browser that takes gzip.
//
//   node web/tests/bench-engine.mjs [--bin target/release/boardlab] [--seconds 3] [--runs 3] [--dev]
//
// NO_SW=1 in the environment blocks service workers (each measurement is a first visit, so a
// worker keeping the app runs beside it otherwise).
//
// Use a release build: the server serves the pages and the native figure comes from the same
// binary. Timings on a shared machine swing; each figure is the best of --runs.

import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const bin = path.resolve(arg('--bin', path.join(root, 'target/release/boardlab')));
const seconds = Number(arg('--seconds', '3'));
const runs = Number(arg('--runs', '3'));
const chromiumPath = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const GAMES = ['sight-reduction', 'obsidio', 'opprimo', 'assideum'];

const freePort = () => new Promise((resolve) => {
  const s = net.createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port } = /** @type {net.AddressInfo} */ (s.address());
    s.close(() => resolve(port));
  });
});

async function startServer() {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boardlab-bench-'));
  const args = ['serve', '--addr', `127.0.0.1:${port}`, '--database', `sqlite://${dir}/games.db`];
  // --dev: the pages from this checkout's web/ rather than the copy built into the binary.
  if (process.argv.includes('--dev')) args.push('--web-dir', path.join(root, 'web'));
  const server = spawn(bin, args,
    { stdio: 'ignore', env: { ...process.env, RUST_LOG: 'warn' } });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return { server, origin };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}

/** Native random playouts per second from the game's start (`boardlab bench`), one core. */
function native(game) {
  const out = execFileSync(bin, ['bench', game, '--seconds', String(seconds), '--solve-setups', '0', '--perft-depth', '1'],
    { encoding: 'utf8' });
  const m = /random playouts: (\d+)\/s/.exec(out);
  if (!m) throw new Error(`no playout figure in:\n${out}`);
  return Number(m[1]);
}

const best = (xs) => Math.max(...xs);

/** The bytes the server sends for `url` to a client that takes gzip, and its encoding. */
function sent(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } }, (res) => {
      let n = 0;
      res.on('data', (d) => { n += d.length; });
      res.on('end', () => resolve({ bytes: n, encoding: res.headers['content-encoding'] || 'none' }));
    }).on('error', reject);
  });
}

async function main() {
  const { server, origin } = await startServer();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  const ctxOpts = process.env.NO_SW ? { serviceWorkers: 'block' } : {};
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, ...ctxOpts });
    // The start page: from the request until the page's own content is drawn and the main
    // links answer.
    const startMs = [];
    for (let i = 0; i < runs; i += 1) {
      const t0 = Date.now();
      await page.goto(`${origin}/`);
      await page.waitForSelector('main a[href], main button');
      startMs.push(Date.now() - t0);
    }
    // Playouts in a worker, from each game's start, as `boardlab bench` counts them.
    const rows = [];
    for (const game of GAMES) {
      const here = [];
      const there = [];
      for (let i = 0; i < runs; i += 1) {
        const r = await page.evaluate(async ({ g, ms }) => {
          const m = await import('/js/engine/index.js');
          return m.enginePlayouts({ game: g }, ms);
        }, { g: game, ms: seconds * 1000 });
        here.push(r.games / r.seconds);
        there.push(native(game));
      }
      rows.push({ game, browser: best(here), native: best(there) });
    }
    // The analysis board: from opening it to the first evaluation drawn, in the page's clock,
    // both from within the app (the start page shown, then the board opened as its links
    // do) and as a fresh page load of its address.
    const firstEval = {};
    const coldEval = {};
    for (const game of GAMES) {
      const times = [];
      const cold = [];
      for (let i = 0; i < runs; i += 1) {
        const p = await browser.newPage({ viewport: { width: 1280, height: 800 }, ...ctxOpts });
        await p.goto(`${origin}/`);
        await p.waitForSelector('main a[href], main button');
        const t0 = await p.evaluate(async (g) => {
          const nav = await import('/js/nav.js');
          const t = performance.now();
          nav.go(`/analysis?game=${g}`);
          return t;
        }, game);
        await p.waitForSelector('#engine-text', { timeout: 30000 });
        times.push((await p.evaluate(() => performance.now())) - t0);
        await p.goto(`${origin}/analysis?game=${game}`);
        await p.waitForSelector('#engine-text', { timeout: 30000 });
        cold.push(await p.evaluate(() => performance.now()));
        await p.close();
      }
      firstEval[game] = Math.min(...times);
      coldEval[game] = Math.min(...cold);
    }
    const wasm = fs.statSync(path.join(root, 'web/engine/boardlab_wasm_bg.wasm')).size;
    const glue = fs.statSync(path.join(root, 'web/engine/boardlab_wasm.js')).size;
    const wasmSent = await sent(`${origin}/engine/boardlab_wasm_bg.wasm`);
    const glueSent = await sent(`${origin}/engine/boardlab_wasm.js`);

    console.log(`engine benchmark: ${bin}, ${seconds} s per measurement, best of ${runs}`);
    console.log('| game | browser playouts/s | native playouts/s | browser/native | first evaluation, in the app | first evaluation, page load |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(`| ${r.game} | ${Math.round(r.browser).toLocaleString('en')} | ${Math.round(r.native).toLocaleString('en')} | ${(100 * r.browser / r.native).toFixed(0)}% | ${Math.round(firstEval[r.game])} ms | ${Math.round(coldEval[r.game])} ms |`);
    }
    console.log(`start page usable: ${Math.min(...startMs)} ms (best of ${runs}: ${startMs.join(', ')} ms)`);
    console.log(`engine download: ${(wasmSent.bytes + glueSent.bytes).toLocaleString('en')} bytes sent (${wasmSent.encoding}) for ${(wasm + glue).toLocaleString('en')} bytes of engine and glue`);
  } finally {
    await browser.close();
    server.kill();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// Writes the pictures of the rules pages' figures, docs/rules/figures/NAME.svg: starts the server
// (serving web/ and docs/rules/ from the source tree), opens every rules page in Chromium, lets
// the app draw each figure with its board renderer, and saves each drawing as a standalone SVG
// with the styles it needs written into it, on a light background, for GitHub to show.
//
//   node web/tests/figures.mjs [--bin PATH] [--chromium PATH] [--check]
//
// --check writes nothing and fails when a picture is missing, out of date or left over.
// run.mjs imports `drawnPictures` for its test of the same.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
export const FIGURES_DIR = path.join(repo, 'docs/rules/figures');

/** Scale of the pictures: CSS pixels per SVG unit (a square of the board is 100 units). */
const SCALE = 0.4;
/** The background behind the board: the app's page colour. */
const BACKGROUND = '#f3efe7';

/**
 * Runs in the page: every drawn figure's board as a standalone SVG document. Computed styles
 * become a few class rules in a <style> (an element states only what it does not inherit), the
 * gradients, patterns, filters and symbols it uses are copied in, and numbers are rounded.
 */
function exportFigures({ scale, background }) {
  const PROPS = {
    fill: ['rgb(0, 0, 0)', true],
    'fill-opacity': ['1', true],
    stroke: ['none', true],
    'stroke-width': ['1px', true],
    'stroke-opacity': ['1', true],
    'stroke-dasharray': ['none', true],
    'stroke-linecap': ['butt', true],
    'stroke-linejoin': ['miter', true],
    'font-family': ['', true],
    'font-size': ['', true],
    'font-weight': ['400', true],
    'text-anchor': ['start', true],
    'dominant-baseline': ['auto', true],
    opacity: ['1', false],
    filter: ['none', false],
  };
  const NS = 'http://www.w3.org/2000/svg';
  const round = (v) => v.replace(/-?\d+\.\d{2,}/g, (n) => String(Math.round(Number(n) * 10) / 10));
  const out = [];
  for (const fig of document.querySelectorAll('figure.board-figure[data-drawn]')) {
    const svg = fig.querySelector('svg.board');
    const rules = new Map();
    const used = new Set();
    const copy = (el, parentStyle, isRoot) => {
      const cs = getComputedStyle(el);
      const style = {};
      const own = [];
      for (const [prop, [initial, inherited]] of Object.entries(PROPS)) {
        const v = cs.getPropertyValue(prop);
        style[prop] = v;
        const base = inherited && !isRoot ? parentStyle[prop] : initial;
        if (v !== base) own.push(`${prop}:${v}`);
        for (const m of v.matchAll(/url\("?#([^")]+)"?\)/g)) used.add(m[1]);
      }
      const c = document.createElementNS(NS, el.tagName);
      for (const a of el.attributes) {
        const n = a.name;
        if (n === 'class' || n === 'style' || n === 'tabindex' || n === 'role' || n.startsWith('data-') || n.startsWith('aria-')) continue;
        if (n in PROPS) continue;
        if (n === 'href') used.add(a.value.replace(/^#/, ''));
        c.setAttribute(n, n === 'href' ? a.value : round(a.value));
      }
      if (own.length && !isRoot) {
        const key = own.join(';');
        if (!rules.has(key)) rules.set(key, `s${rules.size}`);
        c.setAttribute('class', rules.get(key));
      }
      if (isRoot) c.dataset.rootStyle = own.join(';');
      for (const child of el.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) c.append(child.textContent);
        else if (child.nodeType === Node.ELEMENT_NODE && child.tagName !== 'title') c.append(copy(child, style, false));
      }
      return c;
    };
    const root = copy(svg, {}, true);
    const rootStyle = root.dataset.rootStyle;
    delete root.dataset.rootStyle;
    const [x, y, w, h] = svg.getAttribute('viewBox').split(/\s+/).map(Number);
    root.setAttribute('xmlns', NS);
    root.setAttribute('width', String(Math.round(w * scale)));
    root.setAttribute('height', String(Math.round(h * scale)));
    // Definitions used, with the ones they use in turn.
    const defs = document.createElementNS(NS, 'defs');
    const done = new Set();
    const queue = [...used];
    while (queue.length) {
      const id = queue.shift();
      if (done.has(id)) continue;
      done.add(id);
      const def = document.getElementById(id);
      if (!def) continue;
      const d = def.cloneNode(true);
      for (const e of [d, ...d.querySelectorAll('*')]) {
        for (const a of e.attributes) for (const m of a.value.matchAll(/url\(#([^)]+)\)/g)) queue.push(m[1]);
      }
      defs.append(d);
    }
    const ordered = [...defs.children].sort((a, b) => a.id.localeCompare(b.id));
    defs.replaceChildren(...ordered);
    const css = [`svg{${rootStyle}}`, ...[...rules].map(([k, cls]) => `.${cls}{${k}}`)].join('\n');
    const styleEl = document.createElementNS(NS, 'style');
    styleEl.textContent = `\n${css}\n`;
    const bg = document.createElementNS(NS, 'rect');
    for (const [k, v] of Object.entries({ x, y, width: w, height: h, fill: background })) bg.setAttribute(k, String(v));
    root.prepend(styleEl, defs, bg);
    const text = new XMLSerializer().serializeToString(root)
      .replace(/></g, '>\n<');
    out.push({ name: `${fig.dataset.name}.svg`, svg: `${text}\n` });
  }
  return out;
}

/**
 * Every figure of every rules page, drawn by the app at `origin` in `page`, as
 * [{name, svg}] (the file name and its text), in page order.
 */
export async function drawnPictures(page, origin) {
  const cat = await (await fetch(`${origin}/api/catalog`)).json();
  const out = [];
  for (const g of cat.games) {
    await page.goto(`${origin}/rules/${g.name}`);
    await page.waitForSelector('.rules[data-figures]', { timeout: 20000 });
    const state = await page.evaluate(() => ({
      figures: document.querySelectorAll('figure.board-figure').length,
      drawn: document.querySelectorAll('figure.board-figure[data-drawn]').length,
      failed: [...document.querySelectorAll('figure.board-figure[data-failed]')].map((f) => `${f.dataset.name}: ${f.dataset.failed}`),
    }));
    if (state.failed.length || state.drawn !== state.figures) {
      throw new Error(`${g.name}: ${state.drawn} of ${state.figures} figures drawn; ${state.failed.join('; ')}`);
    }
    out.push(...await page.evaluate(exportFigures, { scale: SCALE, background: BACKGROUND }));
  }
  return out;
}

/** How the committed pictures differ from `pictures`: a list of problems, empty when none. */
export function compareWithCommitted(pictures) {
  const problems = [];
  const names = new Set(pictures.map((p) => p.name));
  for (const p of pictures) {
    const file = path.join(FIGURES_DIR, p.name);
    if (!fs.existsSync(file)) problems.push(`${p.name} is missing`);
    else if (fs.readFileSync(file, 'utf8') !== p.svg) problems.push(`${p.name} is out of date`);
  }
  if (fs.existsSync(FIGURES_DIR)) {
    for (const f of fs.readdirSync(FIGURES_DIR)) if (!names.has(f)) problems.push(`${f} belongs to no figure`);
  }
  return problems;
}

// ---------------------------------------------------------------- the command

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

async function main() {
  const argv = process.argv.slice(2);
  const arg = (name, def) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : def;
  };
  const check = argv.includes('--check');
  const given = arg('--bin', process.env.BOARDLAB_BIN || '');
  const candidates = given ? [given] : ['target/release/boardlab', 'target/debug/boardlab'];
  const bin = candidates.map((c) => path.resolve(repo, c)).find((p) => fs.existsSync(p));
  if (!bin) throw new Error(`no boardlab binary (tried ${candidates.join(', ')}); build it or pass --bin`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'boardlab-figures-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let log = '';
  const server = spawn(bin, ['serve', '--dev', '--addr', `127.0.0.1:${port}`, '--database', `sqlite://${path.join(tmp, 'db')}`],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: 'warn' } });
  server.stdout.on('data', (d) => { log += d; });
  server.stderr.on('data', (d) => { log += d; });
  let browser = null;
  try {
    const deadline = Date.now() + 30000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${log}`);
      try {
        if ((await fetch(`${origin}/api/health`)).ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`the server did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    browser = await chromium.launch({
      executablePath: arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium'),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // A picture not yet written fails to load: that is what this command is for.
    page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text()); });
    const pictures = await drawnPictures(page, origin);
    if (errors.length) throw new Error(`errors in the page:\n${errors.join('\n')}`);
    if (check) {
      const problems = compareWithCommitted(pictures);
      if (problems.length) throw new Error(`${problems.join('\n')}\nrun node web/tests/figures.mjs`);
      console.log(`${pictures.length} pictures up to date`);
    } else {
      fs.mkdirSync(FIGURES_DIR, { recursive: true });
      const names = new Set(pictures.map((p) => p.name));
      for (const f of fs.readdirSync(FIGURES_DIR)) {
        if (!names.has(f)) {
          fs.rmSync(path.join(FIGURES_DIR, f));
          console.log(`removed ${f}`);
        }
      }
      let total = 0;
      for (const p of pictures) {
        const file = path.join(FIGURES_DIR, p.name);
        const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
        if (old !== p.svg) {
          fs.writeFileSync(file, p.svg);
          console.log(`${old === null ? 'wrote  ' : 'updated'} ${path.relative(repo, file)} (${p.svg.length} bytes)`);
        }
        total += p.svg.length;
      }
      console.log(`${pictures.length} pictures, ${Math.round(total / 1024)} KiB in all`);
    }
  } finally {
    if (browser) await browser.close().catch(() => {});
    server.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((e) => {
    console.error(e.message || e);
    process.exitCode = 1;
  });
}

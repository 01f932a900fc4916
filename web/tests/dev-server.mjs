// Development helper: serves web/ from disk (so edits show on reload, without rebuilding the
// server) and forwards /api, WebSockets included, to a running boardlab server.
//
//   node web/tests/dev-server.mjs [--port 8090] [--api http://127.0.0.1:8080]

import http from 'node:http';
import net from 'node:net';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const port = Number(opt('--port', '8090'));
const apiUrl = new URL(opt('--api', 'http://127.0.0.1:8080'));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json', '.md': 'text/markdown' };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname.startsWith('/api/')) {
    const up = http.request({ host: apiUrl.hostname, port: apiUrl.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => { res.writeHead(502); res.end('backend down'); });
    req.pipe(up);
    return;
  }
  let rel = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  if (rel.split('/').some((s) => s === '..' || s.startsWith('.'))) { res.writeHead(404); res.end(); return; }
  let file = path.join(root, rel);
  let ext = path.extname(file);
  if (!ext || rel === '') { file = path.join(root, 'index.html'); ext = '.html'; }
  try {
    const body = await fs.readFile(file);
    res.writeHead(200, { 'Content-Type': types[ext] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
    res.end(body);
  } catch {
    res.writeHead(404); res.end('not found');
  }
});

server.on('upgrade', (req, socket, head) => {
  const up = net.connect(Number(apiUrl.port), apiUrl.hostname, () => {
    up.write(`${req.method} ${req.url} HTTP/1.1\r\n${Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
    if (head && head.length) up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('error', () => up.destroy());
});

server.listen(port, '127.0.0.1', () => console.log(`web UI from ${root} on http://127.0.0.1:${port}/ (API: ${apiUrl.origin})`));

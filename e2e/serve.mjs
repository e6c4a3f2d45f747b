// A tiny static file server for the built site (dist/), for the end-to-end tests.
// No dependencies; serves .wasm as application/wasm (needed for streaming compilation),
// answers 404 for anything missing so the tests notice broken links, and listens only on
// 127.0.0.1 on a free port.
//
//   node e2e/serve.mjs [dir=dist] [port=0]     prints the URL and serves until Ctrl-C
//   import { serve } from './serve.mjs'; const s = await serve('dist'); ... await s.close();
//   serve('dist', 0, { '/vendor/reveal.js/': 'node_modules/reveal.js' })   extra roots under URL prefixes

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Serves `dir` on 127.0.0.1:`port` (0 = any free port). `mounts` maps URL prefixes (ending in
 * `/`) to more directories, e.g. host pages and their libraries. Resolves to { url, close() }.
 */
export async function serve(dir = 'dist', port = 0, mounts = {}) {
  const root = resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) {
    throw new Error(`${root} is not a directory: build the site first (trunk build --release --offline)`);
  }
  const extra = Object.entries(mounts).map(([prefix, d]) => [prefix, resolve(d)]);
  const server = createServer(async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      let base = root;
      for (const [prefix, d] of extra) {
        if (path.startsWith(prefix)) {
          [base, path] = [d, path.slice(prefix.length - 1)];
          break;
        }
      }
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { url, close: () => new Promise((ok) => server.close(ok)) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const s = await serve(process.argv[2] ?? 'dist', Number(process.argv[3] ?? 0));
  console.log(`serving ${resolve(process.argv[2] ?? 'dist')} on ${s.url}`);
}

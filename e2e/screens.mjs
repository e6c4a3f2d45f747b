// Screenshots of the built site for people to look at (not a test): desktop 1280x800 and
// phone 390x844, into e2e/out/ (gitignored).
//
//   node e2e/screens.mjs [query ...]    e.g. node e2e/screens.mjs "" "?preset=intro"
// Needs dist/ (trunk build --release --offline). Each query string gets its own pair of files.

import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const queries = process.argv.length > 2 ? process.argv.slice(2) : [''];
const outDir = new URL('./out/', import.meta.url);

await mkdir(outDir, { recursive: true });
const server = await serve(process.env.SCHEDSCOPE_DIST ?? 'dist');
try {
  for (const [label, viewport] of Object.entries(SIZES)) {
    const browser = await launch(viewport);
    try {
      for (const [i, q] of queries.entries()) {
        const { page, problems } = await open(browser.context, new URL(q, server.url).href);
        await page.waitForSelector('canvas', { timeout: 20_000 }).catch(() => {});
        await page.waitForLoadState('networkidle').catch(() => {});
        await page.waitForTimeout(3000); // let the worker answer and a few frames paint
        const name = queries.length > 1 ? `${label}-${i}.png` : `${label}.png`;
        const file = fileURLToPath(new URL(name, outDir));
        await page.screenshot({ path: file, fullPage: true });
        console.log(`${file}  ${q || '/'}${problems.length ? `  (${problems.length} problems: ${problems[0]})` : ''}`);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}

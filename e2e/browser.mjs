// Starts Debian's Chromium through playwright-core (never a downloaded browser) with the flags
// that work on these machines as root, in a fresh profile that is deleted on close.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // V8 flags for a diagnostic run (e.g. CHROMIUM_JS_FLAGS=--no-wasm-lazy-compilation with
  // `PERF_ONLY=waterfall node e2e/perf.mjs`, BENCHMARKS "The worker's first run is compiling").
  ...(process.env.CHROMIUM_JS_FLAGS ? [`--js-flags=${process.env.CHROMIUM_JS_FLAGS}`] : []),
];

/** A fresh headless browser context with the given viewport. Resolves to { context, close() }. */
export async function launch(viewport = { width: 1280, height: 800 }, extra = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'schedscope-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport,
    ...extra,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a new page and records every problem a visitor would hit: console errors
 * and warnings (issue 17: a deprecation warning on every load went unnoticed), uncaught
 * exceptions, failed requests and HTTP error statuses. `problems` fills as it happens.
 */
export async function open(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}

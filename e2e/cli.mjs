// The command-line binary the e2e tests take their expected figures from: SCHEDSCOPE_BIN if
// set (./scripts/test sets it once for the e2e and python layers), else the binary that
// `cargo test` builds for tests/cli.rs: the dev profile, whose engine and hot dependencies are
// optimised (Cargo.toml), so after the native layer this costs no compilation at all (a plain
// `cargo build` would not do: the dev-dependencies change some crates' features, so it would
// build the tree a second time), and no fat-LTO release build either. Every profile gives the
// same figures (integer nanoseconds; tests/all.rs and tests/wasm.rs hold the digests).
//
// `node e2e/cli.mjs` prints the path (building it first if needed).

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let found;

/** The path of the `schedscope` binary `cargo test` uses, brought up to date. */
export function cliBinary() {
  if (process.env.SCHEDSCOPE_BIN) return process.env.SCHEDSCOPE_BIN;
  if (found) return found;
  const out = execFileSync('cargo', ['test', '--quiet', '--no-run', '--test', 'all', '--message-format=json'], {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'],
  });
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line);
    if (m.reason === 'compiler-artifact' && m.target?.name === 'schedscope' && m.target.kind.includes('bin') && m.executable) {
      found = m.executable;
    }
  }
  if (!found) throw new Error('cargo test --no-run --test all named no schedscope binary');
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(cliBinary());

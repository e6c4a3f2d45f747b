// The page's number formats (src/ui/format.rs: `count`, `num`), in JavaScript, so a test can
// turn the CLI's figures into the text the page must show. Keep in step with format.rs
// (its unit tests pin the same cases: 2.712, 0.7123, 0.003253, 12.35, 12,346).

/** `count`: an integer with thousands separators. */
export const count = (n) => String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `num`: three digits from 1 up, four significant digits below 1. */
export function num(x) {
  const a = Math.abs(x);
  if (a === 0) return '0';
  if (a >= 1e9) throw new Error(`pick a metric with an ordinary size, not ${x}`);
  if (a >= 1000) return (x < 0 ? '-' : '') + count(Math.round(a));
  if (a >= 100) return x.toFixed(1);
  if (a >= 10) return x.toFixed(2);
  if (a >= 1) return x.toFixed(3);
  if (a >= 0.001) return x.toFixed(Math.min(6, Math.max(3, 3 - Math.floor(Math.log10(a)))));
  throw new Error(`pick a metric with an ordinary size, not ${x}`);
}

/** Metrics the page shows as counts. */
export const INTEGER = new Set(['context_switches', 'timer_reprograms', 'ipis']);

/** The text the page shows for metric `key` of the CLI's metrics `m`. */
export const shown = (key, m) => (INTEGER.has(key) ? count(m[key]) : num(m[key]));

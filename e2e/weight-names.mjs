// What is in a wasm's code, by function name (issue 26's page weight): reads the code section's
// function bodies and the "name" section that rustc/wasm-ld write into the pre-bindgen wasm
// (target/wasm32-unknown-unknown/wasm-ui/schedscope.wasm; wasm-bindgen and wasm-opt strip it),
// and prints the code bytes per group (a crate, or a module of ours) and the largest functions.
//
//   node e2e/weight-names.mjs target/wasm32-unknown-unknown/wasm-ui/schedscope.wasm [top] [filter]
//
// A generic's instance counts under the crate its demangled name starts with (`<T as Trait>`
// under T's crate, then the trait's), so serde's derive code for our types counts as ours;
// `filter` (a substring) lists only the functions whose name contains it.

import { readFileSync } from 'node:fs';

const [file, topArg, filter] = process.argv.slice(2);
if (!file) {
  console.error('usage: node e2e/weight-names.mjs FILE.wasm [top] [filter]');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const b = readFileSync(file);

let at = 8;
const leb = () => {
  let r = 0, shift = 0, byte;
  do {
    byte = b[at++];
    r += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return r;
};
const str = () => {
  const n = leb();
  const s = b.subarray(at, at + n).toString('utf8');
  at += n;
  return s;
};

let imports = 0;
const bodies = [];
const names = new Map();
let dataBytes = 0;
while (at < b.length) {
  const id = b[at++];
  const size = leb();
  const end = at + size;
  if (id === 2) {
    for (let n = leb(); n > 0; n--) {
      str();
      str();
      const kind = b[at++];
      if (kind === 0) { leb(); imports++; }
      else if (kind === 1) { at++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 3) { at += 2; }
    }
  } else if (id === 10) {
    for (let n = leb(); n > 0; n--) {
      const len = leb();
      bodies.push(len);
      at += len;
    }
  } else if (id === 11) {
    dataBytes += size;
  } else if (id === 0) {
    const name = str();
    if (name === 'name') {
      while (at < end) {
        const sub = b[at++];
        const len = leb();
        const subEnd = at + len;
        if (sub === 1) {
          for (let n = leb(); n > 0; n--) {
            const i = leb();
            names.set(i, str());
          }
        }
        at = subEnd;
      }
    }
  }
  at = end;
}

// Rust's legacy mangling (`_ZN` <len><ident>... `E`) read back into a path with its `$LT$`-style
// escapes; a v0 name (`_R`) is grouped under the standard crate it names, left mangled.
function demangle(name) {
  const idents = (s) => {
    const out = [];
    for (let i = 0; i < s.length;) {
      const m = /^(\d+)/.exec(s.slice(i));
      if (!m) { i++; continue; }
      const n = Number(m[1]);
      i += m[1].length;
      out.push(s.slice(i, i + n).replace(/^_\$/, '$'));
      i += n;
    }
    return out;
  };
  if (name.startsWith('_ZN')) {
    const parts = idents(name.slice(3, name.lastIndexOf('E')));
    if (/^h[0-9a-f]{16}$/.test(parts[parts.length - 1] ?? '')) parts.pop();
    const esc = { LT: '<', GT: '>', RF: '&', C: ',', BP: '*', SP: '@', LP: '(', RP: ')' };
    return parts.join('::')
      .replace(/\$u([0-9a-f]+)\$/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\$([A-Z]+)\$/g, (m, k) => esc[k] ?? m)
      .replace(/\.\./g, '::');
  }
  if (name.startsWith('_R')) {
    const crate = /\d(core|alloc|std|dlmalloc|hashbrown|compiler_builtins|serde_json|serde_core|zmij|ryu)(?=[^a-z_]|$)/.exec(name);
    return `${crate ? crate[1] : 'v0'}::${name}`;
  }
  return name;
}

// The group of a demangled name: for `<a::b::T as c::Trait>::f` the type's path, else the
// path; ours (schedscope, schedscope_engine) to two levels, others to the crate.
function group(name) {
  let s = name.replace(/^core::ptr::drop_in_place<(.*)>$/, '$1');
  s = s.replace(/^<+/, '').replace(/^&(mut )?/, '').replace(/^dyn /, '');
  const path = s.split(/[<> ,(]/)[0].split('::').filter(Boolean);
  if (path[0] === 'schedscope' || path[0] === 'schedscope_engine') return path.slice(0, 3).join('::');
  return path[0] ?? '?';
}

const rows = bodies.map((len, k) => ({ name: demangle(names.get(imports + k) ?? `f${imports + k}`), len }));
const total = rows.reduce((a, r) => a + r.len, 0);
console.log(`${file}: ${rows.length} functions, ${total} bytes of code, ${dataBytes} bytes of data`);
if (filter) {
  const hit = rows.filter((r) => r.name.includes(filter)).sort((x, y) => y.len - x.len);
  console.log(`${hit.length} functions matching "${filter}": ${hit.reduce((a, r) => a + r.len, 0)} bytes`);
  for (const r of hit.slice(0, top)) console.log(`${String(r.len).padStart(8)}  ${r.name}`);
  process.exit(0);
}
const groups = new Map();
for (const r of rows) {
  const g = group(r.name);
  const e = groups.get(g) ?? { len: 0, n: 0 };
  e.len += r.len;
  e.n += 1;
  groups.set(g, e);
}
console.log('\nby group (bytes, functions):');
for (const [g, e] of [...groups].sort((x, y) => y[1].len - x[1].len).slice(0, top)) {
  console.log(`${String(e.len).padStart(8)} ${String(e.n).padStart(5)}  ${g}`);
}
console.log('\nlargest functions:');
for (const r of [...rows].sort((x, y) => y.len - x.len).slice(0, top)) {
  console.log(`${String(r.len).padStart(8)}  ${r.name.slice(0, 160)}`);
}

// Starts the app. Trunk would inject this as an inline <script type="module">, which the
// Content-Security-Policy (script-src 'self', no 'unsafe-inline') forbids; Trunk.toml's
// pattern_script instead writes <script type="module" src="boot.js" data-js=… data-wasm=…>
// with the hashed file names, and this external file does what the inline one did.
//
// The simulation worker is already on its way (static/early.js, a classic script earlier in
// the <head>): the app adopts it.
performance.mark('schedscope:boot');
const me = document.querySelector('script[data-js][data-wasm]');
if (!me) throw new Error('schedscope: boot.js needs its <script data-js data-wasm> tag');
// Views loaded on first use (issue 26's code splitting): `schedscopeLazy(name)` imports
// `name.js` (wasm-bindgen's ES-module glue, built by Trunk as a data-type="worker" asset with
// data-bindgen-target="web": unhashed, and not started with the page) and instantiates
// `name_bg.wasm` once; it resolves when the module's main has run (src/ui/common/lazy.rs
// waits on it). A failure is reported to the caller and forgotten, so a later call retries
// (under another URL: a browser may keep a failed import in its module map).
const base = me.dataset.js.replace(/[^/]*$/, '');
const lazy = new Map();
let tries = 0;
// An import starts after the frame that follows the call (a timeout queued from that frame's
// callback runs once it is drawn): the call comes from the task that rendered what asked (the
// first answer's, for the sweep), and starting the import was 6 ms of it (issue 26). Once
// loaded, a later call is answered at once.
const afterFrame = () => new Promise((go) => requestAnimationFrame(() => setTimeout(go)));
window.schedscopeLazy = (name) => {
  if (!lazy.has(name)) {
    const again = tries++ ? `?try=${tries}` : '';
    const loading = afterFrame()
      .then(() => import(`${base}${name}.js${again}`))
      .then((m) => m.default({ module_or_path: `${base}${name}_bg.wasm` }));
    lazy.set(name, loading);
    loading.catch(() => lazy.delete(name));
  }
  return lazy.get(name);
};
const bindings = await import(me.dataset.js);
const wasm = await bindings.default({ module_or_path: me.dataset.wasm });
// As Trunk's own loader does: the exported functions, for the console and tests.
window.wasmBindings = bindings;
performance.mark('schedscope:app-started');
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));

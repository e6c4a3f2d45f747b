// Starts the app. Trunk would inject this as an inline <script type="module">, which the
// Content-Security-Policy (script-src 'self', no 'unsafe-inline') forbids; Trunk.toml's
// pattern_script instead writes <script type="module" src="boot.js" data-js=… data-wasm=…>
// with the hashed file names, and this external file does what the inline one did.
const me = document.querySelector('script[data-js][data-wasm]');
if (!me) throw new Error('schedscope: boot.js needs its <script data-js data-wasm> tag');
const bindings = await import(me.dataset.js);
const wasm = await bindings.default({ module_or_path: me.dataset.wasm });
// As Trunk's own loader does: the exported functions, for the console and tests.
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));

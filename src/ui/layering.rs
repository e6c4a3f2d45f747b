//! The layering of `src/ui`, checked (tidy): no import circles between its files, each
//! folder's pure part reaches only what its rule allows, and pure models name no yew,
//! web-sys, gloo, js-sys or wasm-bindgen (so they are tested natively as they are).
//!
//! Edges are read by the crate's shared reader (`crate::layering`), as
//! `python3 /work/shared/tools/rs_cycles.py` reads them.

use crate::layering::{circles, code_of, Tree};

/// Files that are pure models: no web crate in their code.
const PURE: &[&str] = &[
    "app/jobs.rs",
    "app/link.rs",
    "app/run.rs",
    "app/state.rs",
    "app/tests.rs",
    "common/format.rs",
    "common/notices.rs",
    "common/palette.rs",
    "common/scale.rs",
    "common/topology.rs",
    "explore/replicas.rs",
    "explore/seeds.rs",
    "inspect/find.rs",
    "inspect/seam.rs",
    "inspect/state.rs",
    "share/files.rs",
    "share/tests.rs",
    "sweep/model.rs",
    "sweep/seam.rs",
    "sweep/state.rs",
    "timeline/draw/colours.rs",
    "timeline/draw/geometry.rs",
    "timeline/draw/hit.rs",
    "timeline/draw/index.rs",
    "timeline/draw/lod.rs",
    "timeline/draw/mod.rs",
    "timeline/draw/scene.rs",
    "timeline/draw/tests.rs",
    "timeline/gesture.rs",
    "timeline/nav.rs",
    "timeline/notes.rs",
    "timeline/runqueue.rs",
    "timeline/window.rs",
    "tour/mod.rs",
    "tour/seam.rs",
    "tour/state.rs",
    "traces/job.rs",
    "worker/execute.rs",
    "worker/packing.rs",
    "worker/protocol.rs",
    "worker/scheduler.rs",
];

/// Per folder (or file), the only `ui` folders its code may name besides itself.
const RULES: &[(&str, &[&str])] = &[
    // The shared helpers depend on nothing else in the UI.
    ("common/", &[]),
    // The protocol and its pure halves: the trace jobs the worker runs and the tour model an
    // import answers (`tour/mod.rs`, pure), nothing of the page.
    ("worker/protocol.rs", &["tour"]),
    ("worker/packing.rs", &[]),
    ("worker/scheduler.rs", &[]),
    ("worker/execute.rs", &["traces", "tour"]),
    // The sweep's model: numbers, replicas and the sweep's event budget; no panel, no state.
    ("sweep/model.rs", &["common", "explore", "worker"]),
    // Each feature's slice of the app's state: below the app (which composes them), so
    // none names the app or another feature's slice.
    ("explore/seeds.rs", &["worker"]),
    // The Experiments module's views and entry (a second wasm): no app state, only the
    // tables it is handed (the app's side of the seam is `experiments/mount.rs`).
    ("experiments/view.rs", &["common", "worker"]),
    ("experiments/scoreboard.rs", &[]),
    ("experiments/lazy.rs", &["common", "worker"]),
    ("inspect/state.rs", &["common", "worker"]),
    // The inspector's module side (the views module): the selection it is handed, no app
    // state, no trace (the app's side of the seam is `inspect/mod.rs`, `inspect/seam.rs`).
    ("inspect/view.rs", &[]),
    ("inspect/lazy.rs", &["common", "worker"]),
    ("sweep/state.rs", &["common", "explore", "worker"]),
    // The sweep panel's module side (the views module): the inputs it is handed, no app
    // state (the app's side of the seam is `sweep/mount.rs`).
    ("sweep/lazy.rs", &["common", "worker"]),
    ("tour/state.rs", &[]),
    // The tour card's module side (the views module): the card it is handed, no app state
    // (the app's side of the seam is `tour/mount.rs`, `tour/seam.rs`).
    ("tour/view.rs", &[]),
    ("tour/lazy.rs", &["common", "worker"]),
    // The timeline's pure files: no app state, no other feature.
    ("timeline/draw/", &["common", "timeline", "worker"]),
    ("timeline/gesture.rs", &[]),
    ("timeline/nav.rs", &["common", "timeline"]),
    ("timeline/notes.rs", &["common", "timeline", "worker"]),
    ("timeline/runqueue.rs", &[]),
    ("timeline/window.rs", &[]),
];

#[test]
fn src_ui_has_no_import_circle() {
    let found = circles(&Tree::read("ui").edges());
    assert!(found.is_empty(), "import circles in src/ui: {found:?}");
}

#[test]
fn each_folder_names_only_what_its_rule_allows() {
    let e = Tree::read("ui").edges();
    let mut wrong = Vec::new();
    for (scope, allowed) in RULES {
        for (f, targets) in e.iter().filter(|(f, _)| f.starts_with(scope)) {
            let own = f.split('/').next().unwrap_or_default();
            for t in targets {
                let folder = t.split('/').next().unwrap_or_default();
                // A file may always name its own folder.
                if folder != own && !allowed.contains(&folder) {
                    wrong.push(format!("{f} names {t}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "layering rules broken: {wrong:?}");
}

#[test]
fn pure_models_name_no_web_crate() {
    let files = Tree::read("ui").files;
    let mut wrong = Vec::new();
    for f in PURE {
        let code = code_of(files.get(*f).unwrap_or_else(|| panic!("{f} is listed as pure but missing")));
        for web in ["yew", "web_sys", "gloo", "js_sys", "wasm_bindgen"] {
            let named = code.match_indices(web).any(|(i, _)| {
                let before = code[..i].chars().last();
                let after = code[i + web.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if named {
                wrong.push(format!("{f} names {web}"));
            }
        }
    }
    assert!(wrong.is_empty(), "pure models naming a web crate: {wrong:?}");
}

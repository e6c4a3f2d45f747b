//! The layering of `src/cli`, checked (tidy): no import circles between its files, and the
//! shared layers (`args`, `setup`, `report`, `sweep`, `share_adapter`, `usage`) name no
//! command's file, so a command can use any of them and none of them needs a command.
//!
//! Edges are read by the crate's shared reader (`crate::layering`), as
//! `python3 /work/shared/tools/rs_cycles.py` reads them; `mod.rs` (the dispatcher) naming
//! its children is not an edge.

use crate::layering::{circles, Tree};

/// The files below the commands, and the files each may name (the root's items, `CliError`
/// and `Out`, are not edges).
const RULES: &[(&str, &[&str])] = &[
    ("args.rs", &[]),
    ("share_adapter.rs", &[]),
    ("usage.rs", &[]),
    ("setup.rs", &["args.rs", "share_adapter.rs"]),
    ("report.rs", &["setup.rs"]),
    ("sweep.rs", &["setup.rs", "report.rs"]),
];

#[test]
fn src_cli_has_no_import_circle() {
    let found = circles(&Tree::read("cli").edges());
    assert!(found.is_empty(), "import circles in src/cli: {found:?}");
}

#[test]
fn the_layers_below_the_commands_name_no_command() {
    let e = Tree::read("cli").edges();
    let mut wrong = Vec::new();
    for (f, allowed) in RULES {
        for t in e.get(*f).into_iter().flatten() {
            if !allowed.contains(&t.as_str()) {
                wrong.push(format!("{f} names {t}"));
            }
        }
    }
    assert!(wrong.is_empty(), "cli layering rules broken: {wrong:?}");
}

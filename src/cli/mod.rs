//! The native command line: `presets`, `run`, `sweep`, `compare`, `trace`, `validate`, `bench`, `help`.
//!
//! Hand-written parsing in two layers (as ripgrep does): `args` reads flags into a bag,
//! each subcommand validates that bag into a config before anything runs. Every mistake
//! ends as one `error: ...` line on stderr naming the flag or key and what is allowed,
//! with exit status 2; a failed validation row gives 1; success 0. Output is built as a
//! string and written once, so a closed pipe (`| head`) is not an error.
//!
//! `share_adapter` is the one place that calls the `share` module (rt-app import,
//! Perfetto export).

pub mod api;
mod args;
mod bench;
mod compare;
#[cfg(test)]
mod layering;
mod report;
mod run;
mod setup;
mod share_adapter;
mod sweep;
mod trace;
mod usage;
mod validate;

use std::io::Write;

use crate::engine::ConfigError;
use crate::share::text::escape_controls;

/// Exit status for a bad invocation (unknown flag, bad value, unreadable input file).
pub const EXIT_USAGE: i32 = 2;
/// Exit status for a failure after the arguments were accepted (a failed validation row,
/// an output file that cannot be written).
pub const EXIT_FAILURE: i32 = 1;

/// An error that ends the command: one line, printed after `error: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError {
    pub status: i32,
    pub message: String,
}

impl CliError {
    /// A bad invocation (exit status 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError { status: EXIT_USAGE, message: message.into() }
    }
    /// A failure after the arguments were accepted (exit status 1).
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError { status: EXIT_FAILURE, message: message.into() }
    }
}

impl From<ConfigError> for CliError {
    /// A rejected key or value: `error: <key>: <message>`, exit status 2.
    fn from(e: ConfigError) -> CliError {
        CliError::usage(format!("{}: {}", e.key, e.message))
    }
}

/// What a successful command prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// Written to stdout as is.
    pub text: String,
    /// Written to stderr, one `note: ` line each (never part of machine-readable output).
    pub notes: Vec<String>,
    /// Exit status (0, or 1 when `validate` finds a failing row).
    pub status: i32,
}

impl Out {
    fn text(text: String) -> Out {
        Out { text, notes: Vec::new(), status: 0 }
    }
}

/// The subcommands, for messages.
const SUBCOMMANDS: &str = "presets, run, sweep, compare, trace, validate, bench, help";

/// Runs the CLI with `args` (without the program name); returns the exit status.
pub fn main(args: Vec<String>) -> i32 {
    match dispatch(&args) {
        Ok(out) => {
            let mut err = std::io::stderr().lock();
            for note in &out.notes {
                let _ = writeln!(err, "note: {}", one_line(note));
            }
            let mut stdout = std::io::stdout().lock();
            // A reader that went away (`| head`) is not our failure.
            let text = escape_controls(&out.text);
            let _ = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
            out.status
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr().lock(), "error: {}", one_line(&e.message));
            e.status
        }
    }
}

/// Keeps an error or note on one line whatever text it quotes, with control characters
/// escaped (`share::text`: a task name or a value from a file must not drive the terminal).
fn one_line(s: &str) -> String {
    escape_controls(&s.replace(['\n', '\r'], " ")).into_owned()
}

/// Runs one command and returns what it prints, or the error that ends it.
pub fn dispatch(args: &[String]) -> Result<Out, CliError> {
    let Some(cmd) = args.first() else {
        return Ok(Out::text(usage::usage()));
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "help" | "--help" | "-h" => Ok(Out::text(usage::usage())),
        "--version" | "-V" | "version" => Ok(Out::text(format!("schedscope {}\n", env!("CARGO_PKG_VERSION")))),
        "presets" => presets(rest),
        "run" => run::run(rest),
        "sweep" => run::sweep(rest),
        "compare" => compare::compare(rest),
        "trace" => trace::trace(rest),
        "validate" => validate::validate(rest),
        "bench" => bench::bench(rest),
        other if other.starts_with('-') => {
            Err(CliError::usage(format!("unknown flag '{other}' before a subcommand (subcommands: {SUBCOMMANDS})")))
        }
        other => Err(CliError::usage(format!("unknown subcommand '{other}' (allowed: {SUBCOMMANDS})"))),
    }
}

fn presets(rest: &[String]) -> Result<Out, CliError> {
    let parsed = args::parse("presets", rest, &[])?;
    if parsed.help {
        return Ok(Out::text(usage::usage()));
    }
    let presets = crate::engine::presets::PRESETS;
    let width = presets.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for p in presets {
        text.push_str(&format!("{:width$}  {}\n", p.name, p.title));
    }
    Ok(Out::text(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn no_arguments_and_help_print_the_usage() {
        for args in ["", "help", "--help", "-h"] {
            let out = dispatch(&words(args)).unwrap();
            assert!(out.text.starts_with("schedscope"), "{args}");
            assert!(out.text.contains("sweep") && out.text.contains("rr_interval"), "{args}");
        }
    }

    #[test]
    fn unknown_subcommands_and_flags_are_usage_errors() {
        let e = dispatch(&words("frobnicate")).unwrap_err();
        assert_eq!(e.status, EXIT_USAGE);
        assert!(e.message.contains("'frobnicate'") && e.message.contains("presets, run"));
        let e = dispatch(&words("--frob")).unwrap_err();
        assert!(e.message.contains("'--frob'"));
    }

    #[test]
    fn errors_stay_on_one_line() {
        assert_eq!(one_line("a\nb\r\nc"), "a b  c");
        assert_eq!(one_line("comm \u{1b}]0;PWNED\u{7} \u{202e}"), "comm \\u001B]0;PWNED\\u0007 \\u202E");
    }

    /// The JSON output with the host-time field blanked (`wall_s` is the one figure that
    /// depends on the host and the threads).
    fn without_wall(text: &str) -> String {
        let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
        fn blank(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Object(m) => {
                    if m.contains_key("wall_s") {
                        m.insert("wall_s".into(), 0.into());
                    }
                    m.values_mut().for_each(blank);
                }
                serde_json::Value::Array(a) => a.iter_mut().for_each(blank),
                _ => {}
            }
        }
        blank(&mut v);
        v.to_string()
    }

    #[test]
    fn sweep_output_is_the_same_on_one_thread_and_on_two() {
        for args in [
            "sweep --preset intro --param hz --values 100,250,1000 --json",
            "sweep --preset intro --param hz --values 100,1000 --param2 cores --values2 1,2 --replicas 2 --metric ticks --json",
        ] {
            let one = dispatch(&words(&format!("{args} --jobs 1"))).unwrap().text;
            let two = dispatch(&words(&format!("{args} --jobs 2"))).unwrap().text;
            assert_eq!(without_wall(&one), without_wall(&two), "{args}");
        }
        let grid = dispatch(&words(
            "sweep --preset intro --param hz --values 100,1000 --param2 cores --values2 1,2 --metric ticks --jobs 2",
        ))
        .unwrap()
        .text;
        assert!(grid.contains("hz \\ cores") && grid.contains("ticks (ticks), mean of 1 seed"), "{grid}");
        let reps =
            dispatch(&words("sweep --preset intro --param hz --values 250 --replicas 3 --metric wakeup_latency_p99"))
                .unwrap()
                .text;
        assert!(
            reps.contains("mean") && reps.contains("min") && reps.contains("max") && reps.contains("3 seeds"),
            "{reps}"
        );
    }

    #[test]
    fn an_old_metric_spelling_is_read_and_printed_as_its_key() {
        let sweep = |m: &str| {
            let args = format!(
                "sweep --preset intro --set duration=5ms --param hz --values 250 --replicas 2 --metric {m} --json"
            );
            without_wall(&dispatch(&words(&args)).unwrap().text)
        };
        let new = sweep("wakeup_latency_p99");
        assert!(new.contains("\"metric\":\"wakeup_latency_p99\""), "{new}");
        assert_eq!(sweep("wakeup_latency_us.p99"), new);
        let compare = |m: &str| {
            let args =
                format!("compare --preset intro --set duration=5ms --b hz=1000 --seeds 1 --jobs 1 --metric {m} --json");
            without_wall(&dispatch(&words(&args)).unwrap().text)
        };
        let new = compare("governor_too_deep");
        assert!(new.contains("\"metric\":\"governor_too_deep\""), "{new}");
        assert_eq!(compare("governor_score.too_deep"), new);
    }

    #[test]
    fn bad_sweep_flags_name_the_flag() {
        for (args, want) in [
            ("sweep --param hz --values 100 --jobs 0", "--jobs: '0'"),
            ("sweep --param hz --values 100 --replicas many", "--replicas: 'many'"),
            ("sweep --param hz --values 100 --metric tick", "--metric: unknown metric 'tick'"),
            ("sweep --param hz --values 100 --param2 hz --values2 1", "--param2: 'hz' is already"),
            ("sweep --param hz --values 100 --values2 1", "--values2: given without --param2"),
            ("sweep --param hz --values 100 --param2 cores", "--values2: missing"),
        ] {
            let e = dispatch(&words(args)).unwrap_err();
            assert_eq!(e.status, EXIT_USAGE, "{args}");
            assert!(e.message.starts_with(want), "{args}: {}", e.message);
        }
    }
}

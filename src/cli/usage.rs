//! The usage text: subcommands, their flags, and every config key with its help and range.

use crate::engine::config::{Config, KeyDoc, KeyKind, ALIASES, KEYS};
use crate::engine::kernel::KERNELS;
use crate::engine::presets::PRESETS;
use crate::engine::profile::{profile_names, PROFILES};
use crate::engine::time::format_duration;

const HEAD: &str = "\
schedscope: a laboratory for Linux CPU scheduling (simulate, see, share)

Usage: schedscope <subcommand> [flags]

Subcommands:
  presets                       list the named presets (name, then title)
  run [--preset NAME] [--set KEY=VALUE]... [--import FILE] [--json] [--trace FILE]
                                simulate one config and print its metrics
      --preset NAME             start from a preset (default: the built-in default config)
      --set KEY=VALUE           change one config key (repeatable, applied in order, last)
      --import FILE             apply an rt-app JSON file (after the preset, before --set)
      --json                    print {\"config\": {...}, \"metrics\": {...}} as one JSON object
      --trace FILE              also write a Perfetto trace (JSON; open in ui.perfetto.dev)
      --explain TIME            print the decisions within 20us of TIME (e.g. 2ms): wakeup
                                placement and latency parts, picks, idle-state choices
      --trace-text FILE         also write the trace as `trace-cmd report` text
      --trace-text-raw FILE     ... in `trace-cmd report -R` form (numeric prev_state)
      --from-trace FILE         replay a recorded trace (trace-cmd report / perf script text,
                                or a trace-cmd trace.dat)
                                as the workload: its CPU count, then --preset/--set apply
  sweep --param KEY --values V1,V2,... [--preset NAME] [--set KEY=VALUE]... [--json | --csv]
                                run once per value of one key, one row each
      --values                  comma separated; use ';' when values contain commas
                                (e.g. --param tasks --values '2x3ms/10ms;4x1ms/4ms')
      --param2 KEY --values2 ...  a second key: one run per pair, printed as a grid
      --replicas N              each point is the mean of N seeds (seed, seed+1, ...); prints
                                mean, min and max of --metric
      --metric NAME             the figure of a grid or replicas (default: throughput, the
                                main result; p99 wakeup latency is wakeup_latency_p99)
      --jobs N                  threads (default: every core); the output does not depend on it
  compare --b KEY=VALUE... [--preset NAME] [--set KEY=VALUE]... [--seeds N] [--json]
                                A (preset, --set) against B (A with each --b) over N seeds
                                (default 5) as a plain-text table for an email (72 columns,
                                mmtests layout: Min/Amean/Max, B's change in %), then the
                                link and both configs
      --metric NAME             a row (repeatable; default: throughput, wakeup latency
                                p50/p99, context switches, migrations)
      --link-base URL           put URL before the link's ?query (default: nothing)
  trace stats FILE [--json]     per task runtime, wait, sleep, wakeups, migrations, wakeup
                                latency p50/p99/max, per CPU busy/idle of a recorded trace
                                (trace-cmd report or perf script text, trace.dat versions 6
                                and 7, systrace JSON)
  trace diff FILE [--preset NAME] [--set KEY=VALUE]... [--json]
                                replay FILE and compare recorded vs simulated per task
  validate [--quick] [--json] [--jobs N] [--preset NAME]
                                the seed and corpus tables: reported beside simulated
                                figures, each row at its source's length or shown settled
                                (length, change on doubling, stop reason); rows on N
                                threads (default: every core); --quick: the page's short
                                runs; exit status 1 if a row fails
  bench [--events N] [--json]   engine events/s beside a bare event-queue loop (best of 3)
  help, --help                  this text
  --version                     the version

Exit status: 0 success, 1 a failed validation row or an unwritable output file,
2 a bad flag, key or value (one line on stderr says which and what is allowed).
";

/// What a key accepts, in a word or a range.
pub fn kind_text(doc: &KeyDoc) -> String {
    match (doc.key, doc.kind) {
        (_, KeyKind::Int { min, max }) if max == u64::MAX => format!("{min} or more"),
        (_, KeyKind::Int { min, max }) => format!("{min}..{max}"),
        (_, KeyKind::Duration { min, max }) => format!("{}..{}", format_duration(min), format_duration(max)),
        (_, KeyKind::Bool) => "on|off".into(),
        (_, KeyKind::Choice(list)) => list.join("|"),
        ("cpu", KeyKind::Text) => profile_names().join("|"),
        ("cstates", KeyKind::Text) => "all|off|C1,C6,...".into(),
        ("latency_limit", KeyKind::Text) => "none|0ms..10ms".into(),
        ("tasks", KeyKind::Text) => "NxRUN/PERIOD,...".into(),
        ("features", KeyKind::Text) => "NAME NO_NAME ... (the era's sched_features)".into(),
        (_, KeyKind::Text) => "text".into(),
    }
}

/// The full usage text.
pub fn usage() -> String {
    let mut s = String::from(HEAD);
    s.push_str("\nPresets (schedscope presets):\n  ");
    s.push_str(&PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", "));
    s.push_str("\n\nConfig keys (--set KEY=VALUE; durations take ns, us, ms or s):\n");
    let defaults = Config::default();
    let mut group = "";
    for k in KEYS {
        if k.group != group {
            group = k.group;
            s.push_str(&format!("  {group}\n"));
        }
        let default = defaults.get(k.key).unwrap_or_default();
        s.push_str(&format!("    {} = {}  (default {default})\n        {}\n", k.key, kind_text(k), k.help));
    }
    s.push_str("\nKernel eras (kernel=NAME) and their sched_features (features=NAME or NO_NAME; * on by default):\n");
    for k in KERNELS {
        s.push_str(&format!("  {:<17} {}\n", k.name(), k.title()));
        let feats: Vec<String> =
            k.features().iter().map(|f| format!("{}{}", f.name, if f.default { "*" } else { "" })).collect();
        if feats.is_empty() {
            s.push_str("                    (no sched_features: not a CFS or EEVDF kernel)\n");
        }
        for line in wrap(&feats.join(" "), 96) {
            s.push_str(&format!("                    {line}\n"));
        }
    }
    s.push_str(
        "\nMachines (cpu=NAME; cores=N runs CPUs 0..N-1 as Linux numbers them, CPU i and i + the physical cores are siblings; \
         SMT yield; one cache line between siblings / in an LLC / across LLCs / across sockets):\n",
    );
    for p in PROFILES {
        let (t, c) = (p.topo, p.c2c);
        s.push_str(&format!("  {:<17} {}\n", p.name, p.title));
        s.push_str(&format!(
            "                    {}; SMT yield {:.2}; {} / {} / {} / {} ns\n",
            t.describe(),
            t.smt_yield_permille as f64 / 1000.0,
            c.sibling,
            c.llc,
            c.package,
            c.remote
        ));
    }
    s.push_str("\nOld keys, still read from links and --set:\n");
    for (a, help) in ALIASES {
        s.push_str(&format!("    {a}: {help}\n"));
    }
    s
}

/// Splits `text` at spaces into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_listed_with_its_help() {
        let u = usage();
        for k in KEYS {
            assert!(u.contains(k.key) && u.contains(k.help), "{}", k.key);
        }
    }

    #[test]
    fn every_era_and_its_features_are_listed() {
        let u = usage();
        for k in KERNELS {
            assert!(u.contains(k.name()), "{}", k.name());
            for f in k.features() {
                assert!(u.contains(f.name), "{} {}", k.name(), f.name);
            }
        }
        assert!(u.contains("RUN_TO_PARITY*") && u.contains("PREEMPT_RESTRICT*"), "defaults are marked");
        assert!(u.contains("resched_ipi"), "the old keys are explained");
    }

    #[test]
    fn ranges_are_readable() {
        let doc = |key| KEYS.iter().find(|k| k.key == key).unwrap();
        assert_eq!(kind_text(doc("cores")), "1..256");
        assert_eq!(kind_text(doc("rr_interval")), "100us..10s");
        assert_eq!(kind_text(doc("nohz")), "on|off");
        assert_eq!(kind_text(doc("seed")), "0 or more");
    }
}

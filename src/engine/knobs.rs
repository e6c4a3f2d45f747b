//! Why a knob changes nothing in a config: a small rule table over a run's counters.
//!
//! A sweep that comes out flat is only informative when the page says why: a granularity
//! decides nothing when no task ever waited for a slice to end, an idle-state knob nothing
//! when no CPU slept. Each rule reads the counters of one run (`Metrics`) of the config the
//! knob is swept around; a rule that does not fire says nothing (the knob may still matter).
//! These are statements about this run, not about the kernel: a knob a rule names inert here
//! can matter under another workload.

use super::config::Config;
use super::metrics::Metrics;

/// One rule: the knobs it is about, and the reason when the run shows the knob was inert.
struct Rule {
    keys: &'static [&'static str],
    why: fn(&Config, &Metrics) -> Option<String>,
}

const RULES: &[Rule] = &[
    Rule {
        keys: &["features"],
        why: |c, m| {
            let hrtick = c.features.iter().any(|f| f == "HRTICK");
            (hrtick && m.hrtick_fires == 0).then(|| "hrtick fired 0 times: no task ran to the end of its slice".into())
        },
    },
    Rule {
        keys: &["sched_latency", "min_granularity", "wakeup_granularity", "wakeup_gran_scale", "rr_interval"],
        why: |_, m| {
            (m.preemptions == 0).then(|| {
                "0 preemptions in this run: no task waited on a busy CPU, so no slice or granularity decided anything"
                    .into()
            })
        },
    },
    Rule {
        keys: &["cstates", "governor", "latency_limit", "idle"],
        why: |_, m| {
            let entries: u64 = m.cstate_entries.values().sum();
            (entries == 0).then(|| "no CPU entered an idle state: the idle path never ran".into())
        },
    },
    Rule {
        keys: &["nohz_ratelimit", "nohz_exit_reprograms"],
        why: |_, m| (m.nohz_entries == 0).then(|| "the tick was never stopped (0 nohz entries)".into()),
    },
    Rule {
        keys: &["migration_cost"],
        why: |_, m| (m.migrations == 0).then(|| "no task migrated (0 migrations)".into()),
    },
];

/// Why `key` does nothing in `config`, judged from `m` (a run of `config`): the key does not
/// apply to this config at all, or a rule's counter shows its mechanism never acted. None
/// when nothing says so.
pub fn why_inert(key: &str, config: &Config, m: &Metrics) -> Option<String> {
    if config.applies(key) == Ok(false) {
        return Some(format!("{key} is not used by this config"));
    }
    RULES.iter().filter(|r| r.keys.contains(&key)).find_map(|r| (r.why)(config, m))
}

/// The deepest idle state `cstates` allows that `m` never entered while shallower ones were
/// entered ("C6 never entered"), for a C-state knob's note. `states` is the profile's list,
/// shallow to deep.
pub fn deepest_unused(states: &[&str], m: &Metrics) -> Option<String> {
    let used = |s: &str| m.cstate_entries.get(s).copied().unwrap_or(0) > 0;
    let deepest = states.last()?;
    (!used(deepest) && states.iter().any(|s| used(s))).then(|| format!("{deepest} never entered"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A misspelt key in a rule would never match the knob it is about, silently.
    #[test]
    fn every_rule_names_config_keys() {
        for r in RULES {
            for k in r.keys {
                assert!(crate::engine::config::key_doc(k).is_some(), "{k} is not a config key");
            }
        }
    }

    #[test]
    fn each_rule_fires_on_its_counter_and_only_then() {
        let mut c = Config { features: vec!["HRTICK".into()], ..Config::default() };
        let quiet = Metrics::default();
        assert_eq!(
            why_inert("features", &c, &quiet).as_deref(),
            Some("hrtick fired 0 times: no task ran to the end of its slice")
        );
        let fired = Metrics { hrtick_fires: 3, preemptions: 1, migrations: 1, nohz_entries: 1, ..Default::default() };
        assert_eq!(why_inert("features", &c, &fired), None);
        c.features.clear();
        assert_eq!(why_inert("features", &c, &quiet), None, "without HRTICK there is nothing to say");
        assert!(why_inert("sched_latency", &c, &quiet).unwrap().starts_with("0 preemptions"));
        assert_eq!(why_inert("sched_latency", &c, &fired), None);
        assert!(why_inert("migration_cost", &c, &quiet).is_some() && why_inert("migration_cost", &c, &fired).is_none());
        assert_eq!(why_inert("hz", &c, &quiet), None, "no rule: nothing said");
    }

    #[test]
    fn keys_that_do_not_apply_say_so_and_unused_deep_states_are_named() {
        let c = Config::default();
        assert_eq!(c.applies("rr_interval"), Ok(false));
        assert_eq!(
            why_inert("rr_interval", &c, &Metrics::default()).as_deref(),
            Some("rr_interval is not used by this config")
        );
        let mut m = Metrics::default();
        m.cstate_entries.insert("C1".into(), 5);
        assert_eq!(deepest_unused(&["C1", "C3", "C6"], &m).as_deref(), Some("C6 never entered"));
        m.cstate_entries.insert("C6".into(), 1);
        assert_eq!(deepest_unused(&["C1", "C3", "C6"], &m), None);
    }
}

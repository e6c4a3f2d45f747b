//! The simulation's configuration: one `Config`, its keys, their ranges, and text I/O.
//!
//! Keys are the vocabulary shared by the CLI (`--set KEY=VALUE`), the URL codec
//! (`share::url`) and the UI (`input[name=KEY]`). `Config::set` is the one validating
//! parser for a key's text value; `Config::get` prints it back so `set(k, get(k))` is the
//! identity. `KEYS` (`keys.rs`) is every key as one row: what it does in the kernel, its
//! unit and range, when it applies, its getter and parser; `set`, `get` and `applies` look
//! the row up. The value types are in `values.rs`, below `kernel` (which names the class an
//! era runs), re-exported here. The old keys (`ALIASES`) are the only names handled here.
//!
//! Granularity keys (`sched_latency`, `min_granularity`, `wakeup_granularity`) hold the
//! kernel's *unscaled* defaults; the engine multiplies them by `1 + ilog2(min(cores, 8))`
//! as the kernel does (SCHED_TUNABLESCALING_LOG). For EEVDF, `min_granularity` is the
//! `base_slice`.

use super::kernel::{keep_features, parse_features, Feat, FeatureSet, Kernel, PreemptModel};
use super::profile::{profile, Profile};
use super::time::{format_duration, parse_duration, Ns, SEC, US};

mod keys;
pub mod values;

pub use keys::{key_doc, Config, KeyDoc, KeyKind, KEYS};
pub use values::{CStates, Governor, HackbenchMode, IdleMode, Ipc, PeriodicTask, PolicyKind, WorkloadKind};

/// Hard caps that keep any config (from a URL, a file, a slider) from freezing a tab.
pub const MAX_CORES: u32 = 256;
pub const MAX_DURATION: Ns = 600 * SEC;
/// (4 G events: hackbench's largest corpus rows at mmtests' 10,000 loops need ~2.5 G.)
pub const MAX_EVENTS: u64 = 4_000_000_000;
/// hackbench's largest table (296 groups of 40 tasks) fits.
pub const MAX_TASKS: usize = 16_384;
/// hackbench groups that fit in `MAX_TASKS` (40 tasks a group and the parent).
pub const MAX_HACKBENCH_GROUPS: u64 = ((MAX_TASKS - 1) / values::HACKBENCH_TASKS_PER_GROUP) as u64;

impl WorkloadKind {
    /// `loops` when a config switches to this workload with `loops` still at the previous
    /// workload's default: hackbench's own `-l` default (100, rt-tests hackbench.c
    /// `loops = 100`), else the config's default.
    pub fn default_loops(self) -> u64 {
        match self {
            WorkloadKind::Hackbench => 100,
            _ => Config::default().loops,
        }
    }

    /// `duration` likewise: hackbench ends when its messages are done, so its limit is only
    /// a cap (60 s); the others run for the config's default.
    pub fn default_duration(self) -> Ns {
        match self {
            WorkloadKind::Hackbench => 60 * SEC,
            _ => Config::default().duration,
        }
    }
}

/// A rejected key or value: names the key and says what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub key: String,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Keys kept so that old links and scripts keep working: each stands for a `kernel`,
/// `features` or `idle` setting (see `Config::set`). Not listed in `KEYS`, never printed.
pub const ALIASES: &[(&str, &str)] = &[
    (
        "policy",
        "cfs|eevdf|sd: picks an era of that class (kept if the era already is one): sd 2.6.21-sd, cfs 4.17, eevdf 6.6",
    ),
    ("hrtick", "on|off: the era's HRTICK feature"),
    ("wakeup_preempt", "on|off: the era's WAKEUP_PREEMPT(ION) feature"),
    (
        "hrtick_disables_wakeup_preempt",
        "on|off: ignored; HRTICK vs PREEMPT_RESTRICT is part of kernel=sched-devel-2007",
    ),
    ("resched_ipi", "on|off: off is idle=poll, on is idle=default"),
];

/// Longest key or value a message quotes whole.
pub const ECHO_MAX: usize = 80;

/// `s` cut to `ECHO_MAX` bytes at a character boundary, saying how long it was.
fn shorten_echo(s: &str) -> String {
    let mut n = ECHO_MAX.min(s.len());
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    format!("{}… ({} bytes)", &s[..n], s.len())
}

fn err(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError { key: key.to_string(), message: message.into() }
}

/// The error for a name that is no key, listing the keys.
fn unknown_key(key: &str) -> ConfigError {
    err(key, format!("unknown key (known: {})", KEYS.iter().map(|k| k.key).collect::<Vec<_>>().join(", ")))
}

fn parse_bool(key: &str, v: &str) -> Result<bool, ConfigError> {
    match v {
        "on" | "1" | "true" | "yes" => Ok(true),
        "off" | "0" | "false" | "no" => Ok(false),
        _ => Err(err(key, format!("'{v}' is not on or off"))),
    }
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

fn parse_int(key: &str, v: &str, min: u64, max: u64) -> Result<u64, ConfigError> {
    let n: u64 =
        v.trim().parse().map_err(|_| err(key, format!("'{v}' is not a whole number (allowed {min} to {max})")))?;
    if n < min || n > max {
        return Err(err(key, format!("{n} is out of range (allowed {min} to {max})")));
    }
    Ok(n)
}

fn parse_dur(key: &str, v: &str, min: Ns, max: Ns) -> Result<Ns, ConfigError> {
    let d = parse_duration(v).map_err(|m| err(key, m))?;
    if d < min || d > max {
        return Err(err(
            key,
            format!(
                "{} is out of range (allowed {} to {})",
                format_duration(d),
                format_duration(min),
                format_duration(max)
            ),
        ));
    }
    Ok(d)
}

/// Parses `2x3ms/10ms,1x500us/2ms@slice=300us` (a missing `COUNTx` means 1; `@slice=` sets
/// the group's `sched_attr.sched_runtime`, 0 or absent for none).
pub fn parse_tasks(v: &str) -> Result<Vec<PeriodicTask>, String> {
    let mut out = Vec::new();
    let mut total = 0usize;
    for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (count, rest) = match part.split_once('x') {
            Some((c, r)) => (c.trim().parse::<u32>().map_err(|_| format!("'{c}' is not a task count in '{part}'"))?, r),
            None => (1, part),
        };
        let (rest, slice) = match rest.split_once('@') {
            Some((r, attr)) => {
                let v = attr
                    .trim()
                    .strip_prefix("slice=")
                    .ok_or_else(|| format!("'{part}': after '@' only slice=DURATION is known"))?;
                (r, if v.trim() == "0" { 0 } else { parse_duration(v)? })
            }
            None => (rest, 0),
        };
        let (run, period) = rest.split_once('/').ok_or_else(|| format!("'{part}' is not RUN/PERIOD"))?;
        let run = parse_duration(run)?;
        let period = parse_duration(period)?;
        if slice > MAX_DURATION {
            return Err(format!(
                "'{part}': a slice of at most {} (the kernel clamps to 100ms)",
                format_duration(MAX_DURATION)
            ));
        }
        if count == 0 {
            return Err(format!("'{part}' has a count of 0"));
        }
        if run == 0 || period < 10 * US || run > period {
            return Err(format!("'{part}': need 0 < RUN <= PERIOD and PERIOD >= 10us"));
        }
        total += count as usize;
        if total > MAX_TASKS {
            return Err(format!("more than {MAX_TASKS} tasks"));
        }
        out.push(PeriodicTask { count, run, period, slice });
    }
    if out.is_empty() {
        return Err("no task groups (write e.g. 2x3ms/10ms)".into());
    }
    Ok(out)
}

/// Prints task groups in the form `parse_tasks` reads.
pub fn format_tasks(tasks: &[PeriodicTask]) -> String {
    tasks
        .iter()
        .map(|t| {
            let slice = if t.slice > 0 { format!("@slice={}", format_duration(t.slice)) } else { String::new() };
            format!("{}x{}/{}{slice}", t.count, format_duration(t.run), format_duration(t.period))
        })
        .collect::<Vec<_>>()
        .join(",")
}

impl Config {
    /// The hardware profile named by `cpu` (validated by `set`, so always present).
    pub fn profile(&self) -> &'static Profile {
        profile(&self.cpu).unwrap_or(&super::profile::PROFILES[0])
    }

    /// Sets one key from its text value, validating it. On error nothing changes.
    /// A message quotes at most `ECHO_MAX` bytes of the key and the value (a 100 KB value
    /// was echoed whole: issue 30).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        self.set_unquoted(key, value).map_err(|mut e| {
            let v = value.trim();
            if v.len() > ECHO_MAX {
                e.message = e.message.replace(v, &shorten_echo(v));
            }
            if e.key.len() > ECHO_MAX {
                e.message = e.message.replace(&e.key, &shorten_echo(&e.key));
                e.key = shorten_echo(&e.key);
            }
            e
        })
    }

    fn set_unquoted(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let v = value.trim();
        if ALIASES.iter().any(|(a, _)| *a == key) {
            return self.set_alias(key, v);
        }
        let doc = key_doc(key).ok_or_else(|| unknown_key(key))?;
        (doc.set)(self, doc, v)
    }

    /// The canonical text of one key's value (what `set` reads back); the old keys
    /// (`ALIASES`) print what they stand for.
    pub fn get(&self, key: &str) -> Option<String> {
        match key_doc(key) {
            Some(doc) => Some((doc.get)(self)),
            None => self.get_alias(key),
        }
    }

    fn get_alias(&self, key: &str) -> Option<String> {
        Some(match key {
            "policy" => self.policy.name().into(),
            "hrtick" => on_off(self.feats().has(Feat::Hrtick)),
            "wakeup_preempt" => on_off(self.feats().has(Feat::WakeupPreempt)),
            "hrtick_disables_wakeup_preempt" => on_off(self.kernel == Kernel::SchedDevel2007),
            "resched_ipi" => on_off(self.idle != IdleMode::Poll),
            _ => return None,
        })
    }

    /// Switches the era: its class, and its tunable defaults for every tunable still at the
    /// old era's default (a value the user changed is kept); keeps the feature overrides the
    /// new era also has.
    pub fn set_kernel(&mut self, k: Kernel) {
        let (old, new) = (self.kernel.tunables(), k.tunables());
        let follow = |v: &mut Ns, was: Ns, now: Ns| {
            if *v == was {
                *v = now;
            }
        };
        follow(&mut self.sched_latency, old.sched_latency, new.sched_latency);
        follow(&mut self.min_granularity, old.min_granularity, new.min_granularity);
        follow(&mut self.wakeup_granularity, old.wakeup_granularity, new.wakeup_granularity);
        follow(&mut self.migration_cost, old.migration_cost, new.migration_cost);
        follow(&mut self.rr_interval, old.rr_interval, new.rr_interval);
        self.kernel = k;
        self.policy = k.policy();
        self.features = keep_features(k, &self.features);
    }

    /// The preemption model the run uses: the config's, else the era's default.
    pub fn preempt_model(&self) -> PreemptModel {
        self.preempt.unwrap_or_else(|| self.kernel.preempt_default())
    }

    /// The era's features with this config's overrides (resolve once per run, not per event).
    pub fn feats(&self) -> FeatureSet {
        FeatureSet::resolve(self.kernel, &self.features)
    }

    /// One of the old keys (`ALIASES`): translated into `kernel`, `features` or `idle`.
    fn set_alias(&mut self, key: &str, v: &str) -> Result<(), ConfigError> {
        let feature = |c: &mut Config, feat: Feat, on: bool| -> Result<(), ConfigError> {
            let Some(name) = super::kernel::feature_name(c.kernel, feat) else {
                if on == c.kernel.implied(feat) {
                    return Ok(());
                }
                return Err(err(
                    key,
                    format!(
                        "kernel {} cannot turn this {} (no such feature in that release)",
                        c.kernel.name(),
                        if on { "on" } else { "off" }
                    ),
                ));
            };
            let mut words = c.features.clone();
            words.push(if on { name.to_string() } else { format!("NO_{name}") });
            c.features = parse_features(c.kernel, &words.join(" ")).map_err(|m| err(key, m))?;
            Ok(())
        };
        match key {
            "policy" => {
                let p = match v {
                    "cfs" => PolicyKind::Cfs,
                    "eevdf" => PolicyKind::Eevdf,
                    "sd" => PolicyKind::Sd,
                    _ => return Err(err(key, format!("'{v}' is not one of cfs, eevdf, sd"))),
                };
                let k = self.kernel.for_policy(p);
                if k != self.kernel {
                    self.set_kernel(k);
                }
            }
            "hrtick" => feature(self, Feat::Hrtick, parse_bool(key, v)?)?,
            "wakeup_preempt" => feature(self, Feat::WakeupPreempt, parse_bool(key, v)?)?,
            "hrtick_disables_wakeup_preempt" => {
                parse_bool(key, v)?;
            }
            "resched_ipi" => self.idle = if parse_bool(key, v)? { IdleMode::Default } else { IdleMode::Poll },
            _ => return Err(err(key, "alias without a parser (a bug)")),
        }
        Ok(())
    }

    /// All keys with their canonical values, in `KEYS` order.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        KEYS.iter().filter_map(|k| self.get(k.key).map(|v| (k.key, v))).collect()
    }

    /// The keys to set on `base`, in `KEYS` order, to get this config, as `key=value` text.
    /// Replayed, not compared key by key: setting a key can move a later one that is still
    /// at its default (`kernel` moves the tunables, `workload` moves `loops` and `duration`),
    /// so a later key is listed whenever the replay has it differ, even if it equals `base`'s.
    pub fn diff(&self, base: &Config) -> Vec<(&'static str, String)> {
        let mut cur = base.clone();
        let mut out = Vec::new();
        for k in KEYS {
            let (Some(want), Some(have)) = (self.get(k.key), cur.get(k.key)) else { continue };
            if want != have {
                // Our own printed values always parse; if one ever did not, listing it is
                // still right (the reader reports it).
                let _ = cur.set(k.key, &want);
                out.push((k.key, want));
            }
        }
        out
    }

    /// Whether a key matters for the current policy/workload (the UI disables the others):
    /// its row's `applies` rule. An old key (`ALIASES`) always applies; any other name is an
    /// error, as in `set` (a misspelt key is never taken for one that matters).
    pub fn applies(&self, key: &str) -> Result<bool, ConfigError> {
        match key_doc(key) {
            Some(d) => Ok((d.applies)(self)),
            None if ALIASES.iter().any(|(a, _)| *a == key) => Ok(true),
            None => Err(unknown_key(key)),
        }
    }

    /// The era's tunable scaling factor: `1 + ilog2(min(cores, 8))` from 2.6.32, uncapped before.
    pub fn granularity_factor(&self) -> u64 {
        self.kernel.granularity_factor(self.cores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_get_and_set() {
        let c = Config::default();
        for k in KEYS {
            let v = c.get(k.key).unwrap_or_else(|| panic!("no getter for {}", k.key));
            let mut d = Config::default();
            d.set(k.key, &v).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(d, c, "{}", k.key);
        }
    }

    #[test]
    fn the_kernel_choices_are_every_era() {
        // The picker offers these: 5.15 was missing, so a 5.15 config showed "6.12" selected.
        let KeyKind::Choice(list) = key_doc("kernel").unwrap().kind else { panic!("kernel is a choice") };
        assert_eq!(list.to_vec(), Kernel::names());
    }

    #[test]
    fn errors_name_the_key_and_range() {
        let mut c = Config::default();
        let e = c.set("cores", "257").unwrap_err();
        assert_eq!(e.key, "cores");
        assert!(e.message.contains("1 to 256"), "{}", e.message);
        let e = c.set("rr_interval", "20s").unwrap_err();
        assert!(e.message.contains("100us") && e.message.contains("10s"), "{}", e.message);
        assert!(c.set("nonsense", "1").is_err());
        assert_eq!(c, Config::default(), "failed sets change nothing");
    }

    /// `applies` said true for any name that was not a row, so a misspelt key passed for one
    /// that matters.
    #[test]
    fn an_unknown_key_is_an_error_for_applies_as_for_set() {
        let c = Config::default();
        let e = c.applies("rr_intervall").unwrap_err();
        assert_eq!(e, c.clone().set("rr_intervall", "1ms").unwrap_err(), "the same message as set's");
        assert!(e.message.starts_with("unknown key (known: cpu, cores, "), "{}", e.message);
        assert_eq!(c.applies("rr_interval"), Ok(false), "a row: its rule (CFS has no rr_interval)");
        assert_eq!(c.applies("sched_latency"), Ok(true));
        for (alias, _) in ALIASES {
            assert_eq!(c.applies(alias), Ok(true), "{alias}: an old key is never disabled");
        }
    }

    /// Issue 30, defect 9: `cstates=` (an unset shell variable) silently meant off,
    /// `features=HRTICK NO_HRTICK` silently became empty, and a 100 KB value was echoed
    /// whole in the error.
    #[test]
    fn empty_contradicting_and_huge_values_are_refused_plainly() {
        let mut c = Config::default();
        assert!(c.set("cstates", "").unwrap_err().message.starts_with("empty"));
        assert!(c.set("cstates", " , ").unwrap_err().message.contains("names no state"));
        c.set("kernel", "6.6").unwrap();
        let e = c.set("features", "HRTICK NO_HRTICK").unwrap_err();
        assert!(e.message.contains("both HRTICK and NO_HRTICK"), "{}", e.message);
        let huge = "x".repeat(100_000);
        let e = c.set("cpu", &huge).unwrap_err();
        assert!(e.message.len() < 1_000 && e.message.contains("(100000 bytes)"), "{}", &e.message[..200]);
        let e = c.set(&huge, "1").unwrap_err();
        assert!(e.key.len() < 200 && e.message.len() < 2_000, "{}", e.key.len());
    }

    #[test]
    fn cstates_lists_are_checked_against_the_cpu() {
        let mut c = Config::default();
        c.set("cpu", "x5675").unwrap();
        c.set("cstates", "c6,C1").unwrap();
        assert_eq!(c.get("cstates").unwrap(), "C1,C6");
        assert!(c.set("cstates", "C7").is_err());
        c.set("cpu", "sapphire-rapids").unwrap();
        assert_eq!(c.get("cstates").unwrap(), "C1,C6", "both exist on SPR");
    }

    #[test]
    fn task_lists_parse_and_print() {
        let t = parse_tasks("2x3ms/10ms, 500us/2ms").unwrap();
        assert_eq!(format_tasks(&t), "2x3ms/10ms,1x500us/2ms");
        let t = parse_tasks("2x3ms/10ms@slice=300us, 500us/2ms@slice=0").unwrap();
        assert_eq!((t[0].slice, t[1].slice), (300 * US, 0));
        assert_eq!(format_tasks(&t), "2x3ms/10ms@slice=300us,1x500us/2ms");
        assert_eq!(parse_tasks(&format_tasks(&t)).unwrap(), t);
        for bad in ["", "3ms", "0x1ms/2ms", "2x3ms/1ms", "20000x1ms/2ms", "1ms/2ms@300us", "1ms/2ms@slice=x"] {
            assert!(parse_tasks(bad).is_err(), "{bad}");
        }
    }

    /// Applies `diff` the way a link is read: each key in `KEYS` order on `base`.
    fn replay(base: &Config, keys: &[(&'static str, String)]) -> Config {
        let mut c = base.clone();
        for (k, v) in keys {
            c.set(k, v).unwrap();
        }
        c
    }

    #[test]
    fn switching_to_hackbench_takes_its_loops_and_a_cap_for_duration_unless_set() {
        let mut c = Config::default();
        c.set("workload", "hackbench").unwrap();
        assert_eq!((c.loops, c.duration), (100, 60 * SEC), "hackbench -l 100; the run ends when done");
        c.set("workload", "pipe").unwrap();
        assert_eq!((c.loops, c.duration), (Config::default().loops, Config::default().duration));
        c.set("loops", "7").unwrap();
        c.set("workload", "hackbench").unwrap();
        assert_eq!(c.loops, 7, "a value the user set is kept");
    }

    #[test]
    fn diff_replays_keys_that_an_earlier_key_moves() {
        // On a 2.6.23 base, switch to 4.17 and put sched_latency back at 2.6.23's 20 ms: the
        // kernel switch moves sched_latency to 6 ms, so 20 ms must be listed although it
        // equals the base. Comparing key by key lost it (the link read back 6 ms).
        let mut base = Config::default();
        base.set("kernel", "2.6.23").unwrap();
        let mut c = base.clone();
        c.set("kernel", "4.17").unwrap();
        c.set("sched_latency", "20ms").unwrap();
        let d = c.diff(&base);
        assert!(d.iter().any(|(k, v)| *k == "sched_latency" && v == "20ms"), "{d:?}");
        assert_eq!(replay(&base, &d), c);
        // The same for a workload's loops.
        let base = Config::default();
        let mut c = base.clone();
        c.set("workload", "hackbench").unwrap();
        c.set("loops", &base.loops.to_string()).unwrap();
        assert_eq!(replay(&base, &c.diff(&base)), c);
        assert!(Config::default().diff(&Config::default()).is_empty());
    }

    /// Which keys apply, written out from each key's help text rather than read from the
    /// rules: the class's tunables, nohz's sub-keys, and each workload's own keys.
    #[test]
    fn each_key_applies_where_its_help_says() {
        const SCHBENCH: &[&str] = &[
            "schbench_message_threads",
            "schbench_workers",
            "schbench_operations",
            "schbench_footprint",
            "schbench_sleep",
            "schbench_locking",
        ];
        let own: &[(&str, &[&str])] = &[
            ("pipe", &["loops"]),
            ("token", &["loops", "pairs", "work"]),
            ("hackbench", &["loops", "groups", "msg_size", "hackbench_mode", "ipc"]),
            ("iperf", &["streams"]),
            ("kbuild", &["jobs"]),
            ("rtapp", &["tasks"]),
            ("stress-ng-pipe", &["workers"]),
            ("schbench", SCHBENCH),
        ];
        let workload_keys: Vec<&str> = own.iter().flat_map(|(_, k)| k.iter().copied()).collect();
        // Per era: the class's keys that do not apply.
        let eras: &[(&str, &[&str])] = &[
            (
                "2.6.21-sd",
                &[
                    "sched_latency",
                    "min_granularity",
                    "wakeup_granularity",
                    "wakeup_gran_scale",
                    "features",
                    "pick_eevdf_v1",
                ],
            ),
            ("2.6.23", &["rr_interval", "wakeup_gran_scale", "pick_eevdf_v1"]),
            ("sched-devel-2007", &["rr_interval", "wakeup_gran_scale", "pick_eevdf_v1"]),
            ("4.17", &["rr_interval", "pick_eevdf_v1"]),
            ("6.6", &["rr_interval", "sched_latency", "wakeup_granularity", "wakeup_gran_scale"]),
        ];
        let mut checked = 0;
        for (kernel, era_off) in eras {
            for (workload, mine) in own {
                for nohz in ["on", "off"] {
                    let mut c = Config::default();
                    for (k, v) in [("kernel", *kernel), ("workload", *workload), ("nohz", nohz)] {
                        c.set(k, v).unwrap();
                    }
                    for doc in KEYS {
                        let k = doc.key;
                        let off = era_off.contains(&k)
                            || (workload_keys.contains(&k) && !mine.contains(&k))
                            || (nohz == "off" && ["nohz_ratelimit", "nohz_exit_reprograms"].contains(&k));
                        assert_eq!(c.applies(k), Ok(!off), "{k} on kernel={kernel} workload={workload} nohz={nohz}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn granularity_scales_like_the_kernel() {
        let mut c = Config::default();
        for (cores, f) in [(1, 1), (2, 2), (4, 3), (8, 4), (64, 4)] {
            c.cores = cores;
            assert_eq!(c.granularity_factor(), f);
        }
    }
}

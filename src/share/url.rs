//! The URL format: the one module that turns a config (and the UI's view state) into a readable
//! query string and back.
//!
//! # Format, version 1
//!
//! ```text
//! ?v=1&preset=intro&cores=4&rr_interval=5ms&view=timeline,metrics&compare=1&b.policy=eevdf
//! ```
//!
//! * `v=1`: the format version, always printed first. A link without it (a hand-written
//!   one) is read as the current version without a notice.
//! * `preset=NAME`: the starting config (`engine::presets::preset`). Without it the start is
//!   `Config::default()`.
//! * Config keys: exactly the keys of `engine::config::KEYS`, with the text `Config::set`
//!   reads. Only values that differ from the start are printed, in `KEYS` order.
//!   They are applied in `KEYS` order whatever their order in the query, so `cpu` comes
//!   before `cstates` (state names depend on the CPU).
//! * `embed=1`: the page is embedded (slides, iframes): the UI hides its chrome.
//! * `view=timeline,plot,metrics,compare`: which views are open, in order. Absent means
//!   the UI's default. `view=seeds` opens the Experiments page (the seed tables) instead
//!   of the explorer.
//! * `tour=NAME&step=N`: a guided tour (`ui::tour`) at step N (from 1; absent means 1).
//!   The name must be a known tour; the UI checks it (this module only reads the text).
//! * `sweep=KEY`: the config key a sweep varies.
//! * `sweep_y=METRIC`: the figure on the sweep's y axis (and the heatmap's colour): a
//!   `metrics::NAMED` key, `residency.STATE` or `workload.NAME`; absent is the preset's own.
//! * `sweep2=KEY`: a second swept key: the sweep becomes a 2-D grid drawn as a heatmap.
//! * `replicas=N` (1-16): each sweep point is the mean of N seeds, drawn with its min-max band.
//! * `pareto=METRIC`: the x axis of the Pareto view (the y axis is `sweep_y`).
//! * `t0=DURATION&t1=DURATION`: the timeline's visible stretch (`12ms`, `750us`: the
//!   config's duration text), both or neither, `t0` before `t1`; absent means the whole
//!   run. A stretch past the run's end is clamped by the timeline.
//! * `compare=1`: a second config "B" is shown next to the first ("A"). B is written
//!   *relative to A*: it starts as a copy of the final A config and `b.KEY=VALUE` pairs
//!   set what differs (applied in `KEYS` order), e.g. `compare=1&b.policy=eevdf` is "the
//!   same experiment under EEVDF". A `b.` key without `compare` turns compare on too;
//!   `compare=0` turns it off and its `b.` keys are ignored (with a notice).
//!
//! Values are percent-encoded (`+` reads as a space); the printed form escapes only what
//! must be escaped so `,` `/` `:` stay readable.
//!
//! # Hostile input
//!
//! `parse` never fails and never panics: every unknown key, bad value, bad escape,
//! duplicate, unknown preset or version becomes a `Notice` (a human sentence) and the
//! value falls back to the preset's (or the default). Every valid value is kept. Input
//! is capped (`MAX_QUERY_LEN`, `MAX_PAIRS`, `MAX_NOTICES`) so no query is slow.

use std::fmt;

use crate::engine::config::{key_doc, Config, ALIASES, KEYS};
use crate::engine::presets::{self, PRESETS};

/// The format version this module writes (and the only one it reads).
pub const VERSION: &str = "1";
/// Longest query read, in bytes; the rest is dropped (at a `&`) with a notice.
pub const MAX_QUERY_LEN: usize = 16 * 1024;
/// Most `key=value` pairs read; the rest are dropped with a notice.
pub const MAX_PAIRS: usize = 200;
/// Most notices returned; past that one last notice says how many were left out.
pub const MAX_NOTICES: usize = 50;
/// Prefix of the keys of the compared (B) config.
pub const B_PREFIX: &str = "b.";

/// Every key a link may set: the old aliases (`config::ALIASES`), then `KEYS` in order.
fn config_keys() -> impl Iterator<Item = &'static str> {
    ALIASES.iter().map(|(a, _)| *a).chain(KEYS.iter().map(|k| k.key))
}

/// Longest value quoted back in a notice.
const NOTICE_VALUE_LEN: usize = 60;

/// A view of the UI that the URL can open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    Timeline,
    Plot,
    Metrics,
    Compare,
    /// The Experiments page (seed tables and corpus), not an explorer view.
    Seeds,
}

impl View {
    pub const ALL: [View; 5] = [View::Timeline, View::Plot, View::Metrics, View::Compare, View::Seeds];
    /// The views an embed can show (the Experiments page is a page of its own).
    pub const EMBEDDABLE: [View; 4] = [View::Timeline, View::Plot, View::Metrics, View::Compare];

    /// The name used in `view=`.
    pub fn name(self) -> &'static str {
        match self {
            View::Timeline => "timeline",
            View::Plot => "plot",
            View::Metrics => "metrics",
            View::Compare => "compare",
            View::Seeds => "seeds",
        }
    }

    pub fn from_name(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// Everything a URL says, flat: what the UI restores from a link.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UrlState {
    /// A known preset name (unknown ones are dropped by `parse` with a notice).
    pub preset: Option<String>,
    pub config: Config,
    pub embed: bool,
    /// Open views, in order; empty means the UI's default.
    pub views: Vec<View>,
    /// The B side of a comparison.
    pub compare: Option<Config>,
    /// The key being swept.
    pub sweep: Option<String>,
    /// A guided tour's name and its step (1-based) when the link opens one.
    pub tour: Option<(String, usize)>,
    /// The sweep's metric, second key, replicas and Pareto axis.
    pub sweep_view: SweepView,
    /// The timeline's visible stretch `(t0, t1)` in ns, `t0 < t1` (None: the whole run).
    pub stretch: Option<(u64, u64)>,
    /// The main figures as the mean of this many seeds (`seeds=N`: the config's seed and
    /// the N-1 after it); None or 1: one run.
    pub main_seeds: Option<u32>,
}

/// Most replicas a link may ask for.
pub const MAX_REPLICAS: u32 = 16;

/// How the sweep is drawn: the keys `sweep_y`, `sweep2`, `replicas` and `pareto`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepView {
    /// The y metric (None: the preset's).
    pub y: Option<String>,
    /// The second swept key (a heatmap).
    pub key2: Option<String>,
    /// Seeds per point (None or 1: one).
    pub replicas: Option<u32>,
    /// The Pareto view's x metric (None: no Pareto view).
    pub pareto: Option<String>,
}

impl UrlState {
    /// The config values are written relative to: the preset's, else `Config::default()`.
    pub fn base(&self) -> Config {
        self.preset.as_deref().and_then(presets::preset).map(|p| (p.config)()).unwrap_or_default()
    }
}

/// Something in a query that was not used as written, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The key as written (decoded), or `(query)` for the query as a whole.
    pub key: String,
    /// The value as written (decoded, shortened when long).
    pub value: String,
    /// A sentence for people: what was wrong and what is used instead.
    pub reason: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}: {}", self.key, self.reason)
        } else {
            write!(f, "{}={}: {}", self.key, self.value, self.reason)
        }
    }
}

/// Collects notices up to `MAX_NOTICES`.
struct Notices {
    list: Vec<Notice>,
    dropped: usize,
}

impl Notices {
    fn push(&mut self, key: &str, value: &str, reason: impl Into<String>) {
        if self.list.len() >= MAX_NOTICES {
            self.dropped += 1;
            return;
        }
        self.list.push(Notice { key: shorten(key), value: shorten(value), reason: reason.into() });
    }

    fn finish(mut self) -> Vec<Notice> {
        if self.dropped > 0 {
            self.list.push(Notice {
                key: "(query)".into(),
                value: String::new(),
                reason: format!("{} more problems were not listed", self.dropped),
            });
        }
        self.list
    }
}

fn shorten(s: &str) -> String {
    match s.char_indices().nth(NOTICE_VALUE_LEN) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Decodes `%XX` escapes and `+` (a space). Errors say what is wrong.
pub fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
                    (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                    _ => {
                        let bad: String = s[i..].chars().take(3).collect();
                        return Err(format!("'{bad}' is not a percent escape (% must be followed by two hex digits)"));
                    }
                }
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| "the escapes do not decode to UTF-8 text".to_string())
}

/// Escapes everything but unreserved characters and the readable delimiters `,` `/` `:`.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~,/:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Parses the boolean flags `embed` and `compare` (a bare key means on).
fn parse_flag(v: &str) -> Option<bool> {
    match v.trim() {
        "" | "1" | "on" | "true" | "yes" => Some(true),
        "0" | "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// Levenshtein distance, for "did you mean" hints on short keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

const UI_KEYS: &[&str] = &[
    "v", "preset", "embed", "view", "t0", "t1", "sweep", "sweep_y", "sweep2", "replicas", "pareto", "seeds", "compare",
    "tour", "step",
];

/// Longest tour name read.
const MAX_TOUR_NAME: usize = 40;
/// Highest tour step read.
const MAX_TOUR_STEP: usize = 99;

fn unknown_key_reason(key: &str) -> String {
    let bare = key.strip_prefix(B_PREFIX).unwrap_or(key);
    let mut hint = String::new();
    if bare.chars().count() <= 40 {
        let candidates = KEYS.iter().map(|k| k.key).chain(UI_KEYS.iter().copied());
        if let Some(best) = candidates.min_by_key(|k| edit_distance(&bare.to_ascii_lowercase(), k)) {
            if edit_distance(&bare.to_ascii_lowercase(), best) <= 2 {
                let prefix = if key.starts_with(B_PREFIX) { B_PREFIX } else { "" };
                hint = format!(" (did you mean '{prefix}{best}'?)");
            }
        }
    }
    format!("unknown key{hint}; ignored")
}

/// Reads a query string (with or without its leading `?`). Never fails: what cannot be used
/// is reported as notices and replaced by the preset's or the default value.
pub fn parse(query: &str) -> (UrlState, Vec<Notice>) {
    let mut notices = Notices { list: Vec::new(), dropped: 0 };
    let mut query = query.strip_prefix('?').unwrap_or(query);

    if query.len() > MAX_QUERY_LEN {
        let cut = query.as_bytes()[..=MAX_QUERY_LEN].iter().rposition(|&b| b == b'&').unwrap_or(0);
        // Name the keys that were dropped, so a long link never loses one silently.
        let keys = query[cut..].split('&').filter_map(|p| p.split('=').next()).filter(|k| !k.is_empty());
        let (mut named, mut more) = (Vec::new(), 0usize);
        for k in keys {
            if named.len() < 8 {
                named.push(shorten(&percent_decode(k).unwrap_or_else(|_| k.to_string())));
            } else {
                more += 1;
            }
        }
        let lost = match (named.is_empty(), more) {
            (true, _) => String::new(),
            (false, 0) => format!("; not read: {}", named.join(", ")),
            (false, n) => format!("; not read: {} and {n} more", named.join(", ")),
        };
        notices.push(
            "(query)",
            "",
            format!(
                "the query is {} bytes long; only the first {} were read (the limit is {MAX_QUERY_LEN} bytes){lost}",
                query.len(),
                cut
            ),
        );
        query = &query[..cut];
    }

    // Decoded pairs in first-seen order; a repeated key keeps its place, takes the last value.
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (n, piece) in query.split('&').filter(|p| !p.is_empty()).enumerate() {
        if n >= MAX_PAIRS {
            notices.push("(query)", "", format!("more than {MAX_PAIRS} pairs; the rest were ignored"));
            break;
        }
        let (raw_key, raw_value) = piece.split_once('=').unwrap_or((piece, ""));
        let key = match percent_decode(raw_key) {
            Ok(k) => k,
            Err(e) => {
                notices.push(raw_key, raw_value, format!("bad key: {e}; ignored"));
                continue;
            }
        };
        let value = match percent_decode(raw_value) {
            Ok(v) => v,
            Err(e) => {
                notices.push(&key, raw_value, format!("bad value: {e}; ignored"));
                continue;
            }
        };
        if key.trim().is_empty() {
            notices.push("", &value, "a pair without a key; ignored");
            continue;
        }
        if let Some(slot) = pairs.iter_mut().find(|(k, _)| *k == key) {
            notices.push(&key, &slot.1, format!("'{key}' is given more than once; the last value is used"));
            slot.1 = value;
        } else {
            pairs.push((key, value));
        }
    }

    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
    let mut used = vec![false; pairs.len()];
    let mut mark = |k: &str| {
        if let Some(i) = pairs.iter().position(|(key, _)| key == k) {
            used[i] = true;
        }
    };

    // Version.
    mark("v");
    match get("v") {
        Some(v) if v.trim() == VERSION => {}
        Some(v) => {
            let reason = match v.trim().parse::<u64>() {
                Ok(n) if n > 1 => {
                    format!("made by a newer schedscope (version {n}); read as version {VERSION}, some values may not apply")
                }
                _ => format!("unknown format version; read as version {VERSION}"),
            };
            notices.push("v", v, reason);
        }
        // A hand-written link without `v=` is the current version: nothing to say.
        None => {}
    }

    // Preset.
    let mut state = UrlState::default();
    mark("preset");
    if let Some(name) = get("preset") {
        match presets::preset(name.trim()) {
            Some(p) => {
                state.preset = Some(p.name.to_string());
                state.config = (p.config)();
            }
            None => {
                let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
                notices.push(
                    "preset",
                    name,
                    format!("unknown preset (known: {}); starting from the default config", known.join(", ")),
                );
            }
        }
    }

    // A config: the old keys of earlier links first (they stand for a kernel era or its
    // features), then KEYS in order.
    for key in config_keys() {
        mark(key);
        if let Some(v) = get(key) {
            if let Err(e) = state.config.set(key, v) {
                let kept = state.config.get(key).unwrap_or_default();
                notices.push(key, v, format!("{}; using {kept}", e.message));
            }
        }
    }

    // UI keys.
    mark("embed");
    if let Some(v) = get("embed") {
        match parse_flag(v) {
            Some(b) => state.embed = b,
            None => notices.push("embed", v, "not 1 or 0; not embedded"),
        }
    }
    mark("view");
    if let Some(v) = get("view") {
        for name in v.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match View::from_name(name) {
                Some(view) if state.views.contains(&view) => notices.push("view", name, "listed twice; shown once"),
                Some(view) => state.views.push(view),
                None => {
                    let known: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
                    notices.push("view", name, format!("unknown view (known: {}); ignored", known.join(", ")))
                }
            }
        }
    }
    mark("t0");
    mark("t1");
    match (get("t0"), get("t1")) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            let mut time = |k: &str, v: &str| match crate::engine::time::parse_duration(v) {
                Ok(t) => Some(t),
                Err(e) => {
                    notices.push(k, v, format!("{e}; the timeline shows the whole run"));
                    None
                }
            };
            if let (Some(t0), Some(t1)) = (time("t0", a), time("t1", b)) {
                if t0 < t1 {
                    state.stretch = Some((t0, t1));
                } else {
                    notices.push("t1", b, "not after t0; the timeline shows the whole run");
                }
            }
        }
        (Some(v), None) | (None, Some(v)) => {
            let k = if get("t0").is_some() { "t0" } else { "t1" };
            notices.push(k, v, "t0 and t1 come together; the timeline shows the whole run");
        }
    }
    mark("sweep");
    if let Some(v) = get("sweep") {
        match key_doc(v.trim()) {
            Some(doc) => state.sweep = Some(doc.key.to_string()),
            None => notices.push("sweep", v, "not a config key; no sweep"),
        }
    }

    let metric_names = || crate::engine::metrics::NAMED.iter().map(|n| n.key).collect::<Vec<_>>().join(", ");
    for (key, fallback) in [("sweep_y", "showing the preset's metric"), ("pareto", "no Pareto view")] {
        mark(key);
        if let Some(v) = get(key) {
            // An old spelling (`metrics::ALIASES`) is read as its one spelling.
            if let Some(v) = crate::engine::metrics::canonical(v.trim()) {
                let v = Some(v);
                if key == "sweep_y" {
                    state.sweep_view.y = v;
                } else {
                    state.sweep_view.pareto = v;
                }
            } else {
                let reason =
                    format!("unknown metric (known: {}, residency.STATE, workload.NAME); {fallback}", metric_names());
                notices.push(key, v, reason);
            }
        }
    }
    mark("sweep2");
    if let Some(v) = get("sweep2") {
        match key_doc(v.trim()) {
            Some(doc) => state.sweep_view.key2 = Some(doc.key.to_string()),
            None => notices.push("sweep2", v, "not a config key; a 1-D sweep"),
        }
    }
    mark("replicas");
    if let Some(v) = get("replicas") {
        match v.trim().parse::<u32>() {
            Ok(n) if (1..=MAX_REPLICAS).contains(&n) => state.sweep_view.replicas = (n > 1).then_some(n),
            _ => {
                notices.push("replicas", v, format!("not a whole number from 1 to {MAX_REPLICAS}; one seed per point"))
            }
        }
    }
    mark("seeds");
    if let Some(v) = get("seeds") {
        match v.trim().parse::<u32>() {
            Ok(n) if (1..=MAX_REPLICAS).contains(&n) => state.main_seeds = (n > 1).then_some(n),
            _ => notices.push("seeds", v, format!("not a whole number from 1 to {MAX_REPLICAS}; one run")),
        }
    }
    mark("tour");
    mark("step");
    if let Some(name) = get("tour") {
        let name = name.trim();
        let ok = !name.is_empty()
            && name.len() <= MAX_TOUR_NAME
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            let step = match get("step").map(str::trim) {
                None => 1,
                Some(v) => match v.parse::<usize>() {
                    Ok(n) if (1..=MAX_TOUR_STEP).contains(&n) => n,
                    _ => {
                        notices.push(
                            "step",
                            v,
                            format!("not a step number from 1 to {MAX_TOUR_STEP}; starting at step 1"),
                        );
                        1
                    }
                },
            };
            state.tour = Some((name.to_string(), step));
        } else {
            notices.push("tour", name, "not a tour name (letters, digits, - and _); no tour");
        }
    } else if let Some(v) = get("step") {
        notices.push("step", v, "a step without a tour; ignored");
    }

    // B config, relative to A.
    mark("compare");
    let compare_flag = match get("compare") {
        None => None,
        Some(v) => match parse_flag(v) {
            Some(b) => Some(b),
            None => {
                notices.push("compare", v, "not 1 or 0; read as 1");
                Some(true)
            }
        },
    };
    // Only `b.` keys naming a config key count; others are reported as unknown below.
    let b_keys: Vec<&(String, String)> =
        pairs.iter().filter(|(k, _)| k.strip_prefix(B_PREFIX).is_some_and(|k| config_keys().any(|c| c == k))).collect();
    let compare_on = compare_flag.unwrap_or(!b_keys.is_empty());
    if compare_on {
        let mut b = state.config.clone();
        for key in config_keys() {
            let bk = format!("{B_PREFIX}{key}");
            mark(&bk);
            if let Some(v) = get(&bk) {
                if let Err(e) = b.set(key, v) {
                    let kept = b.get(key).unwrap_or_default();
                    notices.push(&bk, v, format!("{}; using {kept}", e.message));
                }
            }
        }
        state.compare = Some(b);
    } else {
        for (k, v) in &b_keys {
            mark(k);
            notices.push(k, v, "compare=0, so the B config is ignored");
        }
    }

    for ((k, v), used) in pairs.iter().zip(&used) {
        if !used {
            notices.push(k, v, unknown_key_reason(k));
        }
    }
    (state, notices.finish())
}

/// Prints the canonical minimal query (without the leading `?`): `v`, `preset`, the config
/// keys that differ from the base in `KEYS` order, then `embed`, `view`, `t0`, `t1`, `sweep`, `tour`, `step`, `compare`
/// and the `b.` keys that differ from A. An unknown preset name is not printed (values are
/// then written relative to the default config).
pub fn to_query(state: &UrlState) -> String {
    let preset = state.preset.as_deref().and_then(presets::preset);
    let base = preset.map(|p| (p.config)()).unwrap_or_default();
    let mut out: Vec<(String, String)> = vec![("v".into(), VERSION.into())];
    if let Some(p) = preset {
        out.push(("preset".into(), p.name.into()));
    }
    for (k, v) in state.config.diff(&base) {
        out.push((k.into(), v));
    }
    if state.embed {
        out.push(("embed".into(), "1".into()));
    }
    if !state.views.is_empty() {
        out.push(("view".into(), state.views.iter().map(|v| v.name()).collect::<Vec<_>>().join(",")));
    }
    if let Some((t0, t1)) = state.stretch {
        out.push(("t0".into(), crate::engine::time::format_duration(t0)));
        out.push(("t1".into(), crate::engine::time::format_duration(t1)));
    }
    if let Some(s) = &state.sweep {
        out.push(("sweep".into(), s.clone()));
    }
    let sv = &state.sweep_view;
    for (k, v) in [("sweep_y", &sv.y), ("sweep2", &sv.key2), ("pareto", &sv.pareto)] {
        if let Some(v) = v {
            out.push((k.into(), v.clone()));
        }
    }
    if let Some(n) = sv.replicas.filter(|n| *n > 1) {
        out.push(("replicas".into(), n.to_string()));
    }
    if let Some(n) = state.main_seeds.filter(|n| *n > 1) {
        out.push(("seeds".into(), n.to_string()));
    }
    if let Some((name, step)) = &state.tour {
        out.push(("tour".into(), name.clone()));
        if *step != 1 {
            out.push(("step".into(), step.to_string()));
        }
    }
    if let Some(b) = &state.compare {
        out.push(("compare".into(), "1".into()));
        for (k, v) in b.diff(&state.config) {
            out.push((format!("{B_PREFIX}{k}"), v));
        }
    }
    out.iter().map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v))).collect::<Vec<_>>().join("&")
}

#[cfg(test)]
mod tests;

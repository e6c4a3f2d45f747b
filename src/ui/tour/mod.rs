//! Guided tours: predict-then-reveal lessons carried by a preset, read from small JSON files.
//!
//! A tour is a preset plus a few steps. Each step sets some knobs on top of the preset
//! (`set`: the run compares A, the preset, with B, the preset plus those knobs), points at a
//! metric (`metric`) and optionally a stretch of the timeline (`region`), and asks a question:
//! a choice (`choices` + `answer`, the index of the right one) or a number (`number`: the
//! expected value and how far off still counts). The reader answers before the figures
//! show; then `explain` names the mechanism and the kernel function, written from the
//! engine's module docs. A step is a link (`tour=NAME&step=N`, `share::url`).
//!
//! The built-in tours are `tours/*.json`, which `build.rs` turns into Rust data (`BUILTIN`):
//! the page holds no JSON parser. `parse` reads an imported one, in a worker
//! (`worker::execute::import`), like rt-app import: never a panic, a clear error with the
//! line of the problem.
//! This module is pure (no yew or web-sys), so it is tested natively; `view` renders a step
//! (in the views module: `seam` is what crosses, `mount` the page's side, `lazy` the module's).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::engine::config::{Config, KEYS};
use crate::engine::presets::{preset, PRESETS};

#[cfg(test)]
mod figures;
#[cfg(target_arch = "wasm32")]
pub mod lazy;
pub mod mount;
pub mod seam;
pub mod state;
pub mod view;

/// Largest tour file read.
pub const MAX_TOUR_BYTES: usize = 64 * 1024;
/// Most steps in a tour.
pub const MAX_STEPS: usize = 20;

/// A guided tour.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tour {
    /// The name links use (`tour=NAME`): letters, digits, `-` and `_`.
    pub name: String,
    pub title: String,
    /// The preset every step starts from.
    pub preset: String,
    pub steps: Vec<Step>,
}

/// One step: knobs, a pointer, a question and its explanation.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: String,
    /// Config keys and values set on top of the preset (B); empty means the preset alone.
    #[serde(default)]
    pub set: BTreeMap<String, String>,
    /// The metric the question is about (an `engine::metrics::NAMED` key; an old spelling is
    /// read as its key, `metrics::ALIASES`).
    pub metric: String,
    /// Where to look in the timeline, in words ("a wakeup on CPU 1").
    #[serde(default)]
    pub region: Option<String>,
    pub question: String,
    /// A choice question's options; `answer` is the right one's index.
    #[serde(default)]
    pub choices: Vec<String>,
    #[serde(default)]
    pub answer: Option<usize>,
    /// A number question: the expected value and the accepted distance.
    #[serde(default)]
    pub number: Option<NumberAnswer>,
    /// Shown after the answer: the mechanism and the kernel function.
    pub explain: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberAnswer {
    pub value: f64,
    pub tolerance: f64,
}

/// `set` in `config::KEYS` order (as links apply them: `kernel` before `features`, `cpu`
/// before `cstates`); unknown keys last, so `Config::set` names them.
fn in_key_order(set: &BTreeMap<String, String>) -> Vec<(&str, &str)> {
    let pos = |k: &str| KEYS.iter().position(|d| d.key == k).unwrap_or(usize::MAX);
    let mut v: Vec<(&str, &str)> = set.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    crate::engine::order::sort_by_key(&mut v, |(k, _)| pos(k));
    v
}

impl Step {
    /// The configs of this step: A (the preset) and, when the step sets knobs, B.
    pub fn configs(&self, tour: &Tour) -> (Config, Option<Config>) {
        let base = preset(&tour.preset).map(|p| (p.config)()).unwrap_or_default();
        if self.set.is_empty() {
            return (base, None);
        }
        let mut b = base.clone();
        for (k, v) in in_key_order(&self.set) {
            let _ = b.set(k, v); // checked by `parse`
        }
        (base, Some(b))
    }

    /// Whether `reply` (a choice index or a number as text) is right.
    pub fn is_right(&self, reply: &str) -> bool {
        if let Some(n) = self.number {
            return crate::engine::decimal::parse(reply.trim()).is_some_and(|x| (x - n.value).abs() <= n.tolerance);
        }
        reply.trim().parse::<usize>().ok() == self.answer
    }

    /// The right answer in words.
    pub fn right_answer(&self) -> String {
        match (self.number, self.answer) {
            (Some(n), _) if n.tolerance > 0.0 => {
                format!(
                    "{} (± {})",
                    crate::ui::common::format::num(n.value),
                    crate::ui::common::format::num(n.tolerance)
                )
            }
            (Some(n), _) => crate::ui::common::format::num(n.value),
            (None, Some(i)) => self.choices.get(i).cloned().unwrap_or_default(),
            (None, None) => String::new(),
        }
    }
}

/// Why a tour file cannot be used, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourError {
    /// 1-based line of the problem (0 when it concerns the whole file).
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TourError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

/// The line of the first occurrence of `needle` at or after line `from` (1-based), else `from`.
fn line_of(text: &str, needle: &str, from: usize) -> usize {
    text.lines().enumerate().skip(from.saturating_sub(1)).find(|(_, l)| l.contains(needle)).map_or(from, |(i, _)| i + 1)
}

/// Whether a text looks like a tour (a JSON object with `steps`) rather than an rt-app file.
pub fn looks_like_tour(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.get("steps").is_some() && v.get("tasks").is_none())
}

/// Reads and checks a tour: JSON syntax and fields (serde's line), a known preset, knobs
/// `Config::set` accepts, a known metric, a question with a valid answer.
pub fn parse(text: &str) -> Result<Tour, TourError> {
    if text.len() > MAX_TOUR_BYTES {
        return Err(TourError {
            line: 0,
            message: format!("the file is {} bytes; a tour is at most {MAX_TOUR_BYTES}", text.len()),
        });
    }
    let tour: Tour = serde_json::from_str(text).map_err(|e| TourError { line: e.line(), message: e.to_string() })?;
    let err = |needle: &str, message: String| Err(TourError { line: line_of(text, needle, 1), message });
    let ok_name = !tour.name.is_empty()
        && tour.name.len() <= 40
        && tour.name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !ok_name {
        return err("\"name\"", format!("name '{}' must be 1 to 40 letters, digits, - or _", tour.name));
    }
    let Some(p) = preset(&tour.preset) else {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        return err("\"preset\"", format!("unknown preset '{}' (known: {})", tour.preset, known.join(", ")));
    };
    if tour.steps.is_empty() || tour.steps.len() > MAX_STEPS {
        return err("\"steps\"", format!("a tour has 1 to {MAX_STEPS} steps, not {}", tour.steps.len()));
    }
    // Each step's checks point at the lines after its title.
    let mut from = 1;
    for (i, st) in tour.steps.iter().enumerate() {
        let n = i + 1;
        from = line_of(text, &format!("\"{}\"", st.title.replace('"', "\\\"")), from);
        let at = |needle: &str| line_of(text, needle, from);
        let mut c = (p.config)();
        for (k, v) in in_key_order(&st.set) {
            if let Err(e) = c.set(k, v) {
                return Err(TourError {
                    line: at(&format!("\"{k}\"")),
                    message: format!("step {n}: {k}={v}: {}", e.message),
                });
            }
        }
        if crate::engine::metrics::named(&st.metric).is_none() {
            let known: Vec<&str> = crate::engine::metrics::NAMED.iter().map(|m| m.key).collect();
            return Err(TourError {
                line: at("\"metric\""),
                message: format!("step {n}: unknown metric '{}' (known: {})", st.metric, known.join(", ")),
            });
        }
        match (st.number, st.answer, st.choices.len()) {
            (Some(x), None, 0) if x.value.is_finite() && x.tolerance.is_finite() && x.tolerance >= 0.0 => {}
            (Some(_), None, 0) => {
                return Err(TourError {
                    line: at("\"number\""),
                    message: format!(
                        "step {n}: the number and its tolerance must be finite, the tolerance not negative"
                    ),
                })
            }
            (None, Some(a), k) if k >= 2 && a < k => {}
            (None, Some(a), k) if k >= 2 => {
                return Err(TourError {
                    line: at("\"answer\""),
                    message: format!("step {n}: answer {a} is not one of the {k} choices (counted from 0)"),
                })
            }
            _ => {
                return Err(TourError {
                    line: at("\"question\""),
                    message: format!("step {n}: give either 2 or more choices with an answer (its index), or a number"),
                })
            }
        }
        if st.question.trim().is_empty() || st.explain.trim().is_empty() {
            return Err(TourError {
                line: at("\"question\""),
                message: format!("step {n}: the question and the explanation must not be empty"),
            });
        }
    }
    // One spelling from here on: an old tour's `wakeup_latency_us.p50` is `wakeup_latency_p50`.
    let mut tour = tour;
    for st in &mut tour.steps {
        if let Some(n) = crate::engine::metrics::named(&st.metric) {
            st.metric = n.key.to_string();
        }
    }
    Ok(tour)
}

/// A built-in tour as static data: `build.rs` writes `BUILTIN` from `tours/*.json`, so the
/// page shows the built-in tours without a JSON parser (imported ones are read by `parse`
/// in a worker, `worker::execute::import`).
#[derive(Debug)]
pub struct StaticTour {
    pub name: &'static str,
    pub title: &'static str,
    pub preset: &'static str,
    pub steps: &'static [StaticStep],
}

/// A built-in tour's step (`Step`'s fields; `number` is the value and the tolerance).
#[derive(Debug)]
pub struct StaticStep {
    pub title: &'static str,
    pub set: &'static [(&'static str, &'static str)],
    pub metric: &'static str,
    pub region: Option<&'static str>,
    pub question: &'static str,
    pub choices: &'static [&'static str],
    pub answer: Option<usize>,
    pub number: Option<(f64, f64)>,
    pub explain: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/builtin_tours.rs"));

impl StaticTour {
    pub fn tour(&self) -> Tour {
        let step = |s: &StaticStep| Step {
            title: s.title.into(),
            set: {
                // Inserted one by one: `collect` into a map sorts, another sort's code on the page.
                let mut set = BTreeMap::new();
                for (k, v) in s.set {
                    set.insert(k.to_string(), v.to_string());
                }
                set
            },
            metric: s.metric.into(),
            region: s.region.map(String::from),
            question: s.question.into(),
            choices: s.choices.iter().map(|c| c.to_string()).collect(),
            answer: s.answer,
            number: s.number.map(|(value, tolerance)| NumberAnswer { value, tolerance }),
            explain: s.explain.into(),
        };
        Tour {
            name: self.name.into(),
            title: self.title.into(),
            preset: self.preset.into(),
            steps: self.steps.iter().map(step).collect(),
        }
    }
}

/// The built-in tour named `name`.
pub fn builtin(name: &str) -> Option<Tour> {
    BUILTIN.iter().find(|t| t.name == name).map(StaticTour::tour)
}

/// The built-in tour of a preset, if it has one.
pub fn for_preset(preset: &str) -> Option<Tour> {
    BUILTIN.iter().find(|t| t.preset == preset).map(StaticTour::tour)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in tours' files, in `BUILTIN`'s order.
    const BUILTIN_JSON: [&str; 5] = [
        include_str!("tours/intro.json"),
        include_str!("tours/hrtick-iperf.json"),
        include_str!("tours/rr-kbuild.json"),
        include_str!("tours/nohz-pipe.json"),
        include_str!("tours/eevdf-vs-cfs.json"),
    ];

    #[test]
    fn the_built_in_tours_data_is_what_parse_reads_from_their_files() {
        assert_eq!(BUILTIN.len(), BUILTIN_JSON.len());
        for (data, text) in BUILTIN.iter().zip(BUILTIN_JSON) {
            assert_eq!(data.tour(), parse(text).unwrap_or_else(|e| panic!("{e}")), "{}", data.name);
        }
    }

    #[test]
    fn every_builtin_tour_parses_and_the_intro_and_each_seed_has_one() {
        for text in BUILTIN_JSON {
            let t = parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert!(t.steps.len() >= 3, "{}: a tour has a few steps", t.name);
            for st in &t.steps {
                assert!(st.explain.contains('`'), "{}: '{}' names a kernel function in `code`", t.name, st.title);
            }
        }
        for p in PRESETS.iter().filter(|p| p.name == "intro" || p.title.starts_with("Seed")) {
            assert!(for_preset(p.name).is_some(), "{} has no tour", p.name);
        }
        assert_eq!(builtin("nohz-pipe").unwrap().preset, "nohz-pipe");
        assert!(builtin("nope").is_none());
    }

    #[test]
    fn a_step_compares_the_preset_with_its_knobs() {
        let t = builtin("intro").unwrap();
        let st = t.steps.iter().find(|s| s.set.contains_key("hz")).unwrap();
        let (a, b) = st.configs(&t);
        assert_eq!(a, Config::default());
        assert_eq!(b.unwrap().hz, 1000);
        let right = st.answer.unwrap().to_string();
        assert!(st.is_right(&right) && !st.is_right("99") && !st.is_right("x"));
        assert!(!st.right_answer().is_empty());
    }

    #[test]
    fn bad_files_give_errors_with_lines_never_a_panic() {
        let good = BUILTIN_JSON[0];
        assert_eq!(parse("{").unwrap_err().line, 1);
        let e = parse("{\n  \"name\": \"x\",\n  \"title\": 3\n}").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = parse(&good.replacen("\"preset\": \"intro\"", "\"preset\": \"nope\"", 1)).unwrap_err();
        assert!(e.message.contains("unknown preset") && e.line > 1, "{e}");
        let e = parse(&good.replacen("\"hz\": \"1000\"", "\"hz\": \"999\"", 1)).unwrap_err();
        assert!(e.message.contains("hz=999") && e.line == line_of(good, "\"hz\": \"1000\"", 1), "{e}");
        let e = parse(&good.replacen("\"answer\": 1", "\"answer\": 7", 1)).unwrap_err();
        assert!(e.message.contains("answer 7"), "{e}");
        let e = parse(&good.replacen("\"metric\": \"ticks\"", "\"metric\": \"bogus\"", 1)).unwrap_err();
        assert!(e.message.contains("unknown metric"), "{e}");
        assert!(parse(&good.replacen("\"title\"", "\"titel\"", 1)).is_err(), "unknown fields are errors");
        assert!(parse(&"x".repeat(MAX_TOUR_BYTES + 1)).is_err());
        for cut in (0..good.len()).step_by(37) {
            if let Some(part) = good.get(..cut) {
                let _ = parse(part);
            }
        }
        assert!(looks_like_tour(good) && !looks_like_tour("{\"tasks\": {}}") && !looks_like_tour("nonsense"));
    }

    #[test]
    fn a_tour_in_the_old_metric_spelling_reads_as_the_same_tour() {
        let new = BUILTIN_JSON[0];
        assert!(new.contains("\"metric\": \"wakeup_latency_p99\""), "the intro asks about the p99");
        let old = new.replacen("\"metric\": \"wakeup_latency_p99\"", "\"metric\": \"wakeup_latency_us.p99\"", 1);
        assert_eq!(parse(&old).unwrap(), parse(new).unwrap());
        let t = parse(&old).unwrap();
        assert!(t.steps.iter().any(|s| s.metric == "wakeup_latency_p99"), "read as its one spelling");
    }
}

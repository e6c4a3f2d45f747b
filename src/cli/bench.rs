//! `bench`: the engine's events per second beside a bare event-queue loop on the same host.
//!
//! The bare loop (`engine::queue::bare_loop`) pops and pushes as many events as the engine
//! ran, with the engine's own event type (`engine::sim::Ev`) on a queue as wide as the
//! engine's was on average (measured by `engine::sim::probe_queue` on the same config): it
//! is the ceiling a simulation with this queue could reach, so `ratio` (engine / bare) says
//! how much of the time goes into the model rather than the queue. Each side runs 3 times;
//! the best counts.

use std::hint::black_box;
use std::time::Instant;

use super::args::{self, Flag};
use super::report::{self, num};
use super::{usage, CliError, Out};
use crate::engine::config::MAX_EVENTS;
use crate::engine::presets::{preset, PRESETS};
use crate::engine::queue::bare_loop;
use crate::engine::sim::{probe_queue, Ev};

const FLAGS: &[Flag] = &[Flag::value("--events", "N"), Flag::switch("--json")];

/// The preset the benchmark runs (falls back to the first preset when it is missing).
pub const BENCH_PRESET: &str = "nohz-pipe";
/// Default event budget.
pub const DEFAULT_EVENTS: u64 = 2_000_000;
/// Smallest `--events` (the engine's own minimum for `max_events`).
pub const MIN_EVENTS: u64 = 1_000;
/// Runs per side; the fastest counts (the others absorb warm-up and noise).
pub const REPEATS: usize = 3;
/// The bare loop's event: the engine's own event type.
pub type BareEvent = Ev;

/// Parses `--events`, naming the flag and the range on error.
pub fn parse_events(text: &str) -> Result<u64, CliError> {
    let bad = |what: String| CliError::usage(format!("--events: {what} (allowed {MIN_EVENTS} to {MAX_EVENTS})"));
    let n: u64 = text.trim().parse().map_err(|_| bad(format!("'{text}' is not a whole number")))?;
    if !(MIN_EVENTS..=MAX_EVENTS).contains(&n) {
        return Err(bad(format!("{n} is out of range")));
    }
    Ok(n)
}

/// What the benchmark measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchResult {
    pub preset: String,
    /// Events the engine ran (the bare loop runs as many; the budget if the engine ran none).
    pub events: u64,
    pub event_budget: u64,
    pub engine_wall_s: f64,
    pub engine_events_per_s: f64,
    pub bare_events: u64,
    pub bare_wall_s: f64,
    pub bare_events_per_s: f64,
    pub bare_event_bytes: usize,
    /// Mean queue length the engine saw at a pop (the bare loop's width).
    pub bare_width: usize,
    /// Longest queue the engine saw.
    pub engine_max_queue: usize,
    /// engine_events_per_s / bare_events_per_s.
    pub ratio: f64,
}

fn best_of<F: FnMut() -> Result<(), CliError>>(mut f: F) -> Result<f64, CliError> {
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        let start = Instant::now();
        f()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best.max(1e-9))
}

/// `schedscope bench`.
pub fn bench(words: &[String]) -> Result<Out, CliError> {
    let parsed = args::parse("bench", words, FLAGS)?;
    if parsed.help {
        return Ok(Out { text: usage::usage(), ..Out::default() });
    }
    let budget = parsed.get("--events").map(parse_events).transpose()?.unwrap_or(DEFAULT_EVENTS);
    let chosen = preset(BENCH_PRESET)
        .or_else(|| PRESETS.first())
        .ok_or_else(|| CliError::failure("bench: no presets in this build"))?;
    let mut notes = Vec::new();
    if chosen.name != BENCH_PRESET {
        notes.push(format!("bench: preset {BENCH_PRESET} does not exist in this build; using {}", chosen.name));
    }
    let mut config = (chosen.config)();
    config.set("max_events", &budget.to_string())?;

    let mut events = 0;
    let engine_wall = best_of(|| {
        let outcome = crate::engine::run(black_box(&config), None)?;
        events = outcome.metrics.events;
        black_box(&outcome);
        Ok(())
    })?;
    if events == 0 {
        notes.push("bench: the engine ran no events (is its simulation core in this build?)".into());
    }
    let bare_events = if events > 0 { events } else { budget };
    let probe = probe_queue(&config);
    let width = probe.mean_len.max(1);
    let bare_wall = best_of(|| {
        black_box(bare_loop::<BareEvent>(black_box(bare_events), black_box(width)));
        Ok(())
    })?;
    let engine_rate = events as f64 / engine_wall;
    let bare_rate = bare_events as f64 / bare_wall;
    let result = BenchResult {
        preset: chosen.name.to_string(),
        events,
        event_budget: budget,
        engine_wall_s: engine_wall,
        engine_events_per_s: engine_rate,
        bare_events,
        bare_wall_s: bare_wall,
        bare_events_per_s: bare_rate,
        bare_event_bytes: std::mem::size_of::<BareEvent>(),
        bare_width: width,
        engine_max_queue: probe.max_len,
        ratio: engine_rate / bare_rate,
    };
    let text = if parsed.has("--json") { report::to_json(&result)? } else { render(&result) };
    Ok(Out { text, notes, status: 0 })
}

fn rate(per_s: f64) -> String {
    format!("{} M events/s", num(per_s / 1e6))
}

/// The readable report.
pub fn render(r: &BenchResult) -> String {
    let mut s = String::new();
    s.push_str(&format!("preset           {}\n", r.preset));
    s.push_str(&format!("events           {} (budget {})\n", r.events, r.event_budget));
    s.push_str(&format!(
        "engine           {}  (best of {REPEATS}: {} s)\n",
        rate(r.engine_events_per_s),
        num(r.engine_wall_s)
    ));
    s.push_str(&format!(
        "bare queue loop  {}  (best of {REPEATS}: {} s; {} events of {} bytes, queue width {} = the engine's mean, max {})\n",
        rate(r.bare_events_per_s),
        num(r.bare_wall_s),
        r.bare_events,
        r.bare_event_bytes,
        r.bare_width,
        r.engine_max_queue
    ));
    s.push_str(&format!("ratio            {:.3} (engine / bare)\n", r.ratio));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_flag_is_checked() {
        assert_eq!(parse_events("5000").unwrap(), 5000);
        let e = parse_events("abc").unwrap_err();
        assert!(e.message.starts_with("--events: 'abc' is not a whole number (allowed 1000 to"), "{}", e.message);
        assert!(parse_events("999").unwrap_err().message.contains("out of range"));
        assert!(parse_events("-5").is_err());
    }
}

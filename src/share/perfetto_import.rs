//! Reads back the Chrome/Perfetto JSON that `perfetto::to_json` writes, as an engine `Trace`
//! (the round trip: a simulated run exported from the page or the CLI opens again on the
//! page's timeline and, through `ftrace::export::to_text`, in the trace table and replay).
//!
//! Only this tool's own layout is understood (see `perfetto`'s module doc): one process,
//! thread `1000 + n` for CPU n, `X` events of category `run` (args `task`, `sys`, `group`),
//! `idle` (args `state`) and `overhead` (the overhead's name), `i` events `tick`, `hrtick`,
//! `ipi`, `wakeup`, `migrate` (args `from_cpu`, `task_id`), and `metadata` with `cores`,
//! `idle_states`, `end_ns`. Counter (`C`) and metadata (`M`) events are derived data and are
//! skipped; so is any event of another category. A file from another tool (Chrome, Perfetto's
//! own traces) is refused with what was expected. Microsecond floats are rounded to the
//! nanosecond, which is what the export wrote.
//!
//! Errors name where: a JSON syntax error its line and column, a bad event its index in
//! `traceEvents` and the field that was expected.

use serde_json::Value;

use crate::engine::time::Ns;
use crate::engine::trace::{Instant, InstantKind, Overhead, Span, SpanKind, TaskInfo, Trace};

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub message: String,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn fail(message: impl Into<String>) -> ImportError {
    ImportError { message: message.into() }
}

/// Whether `text` looks like a Chrome JSON trace (a JSON object with `traceEvents` near its start).
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start();
    // The first 4 KiB, cut at a character boundary (a byte slice at 4096 panicked inside
    // a multi-byte character: issue 30).
    let mut n = t.len().min(4096);
    while !t.is_char_boundary(n) {
        n -= 1;
    }
    t.starts_with('{') && t[..n].contains("\"traceEvents\"")
}

/// More tasks or CPUs than this is refused (a corrupt index would allocate without bound).
const MAX_TASKS: u64 = 1 << 20;
const MAX_CORES: u64 = 4096;

fn ns_of(v: &Value) -> Option<Ns> {
    let us = v.as_f64()?;
    if !us.is_finite() || !(0.0..=1.8e13).contains(&us) {
        return None;
    }
    Some((us * 1000.0).round() as Ns)
}

/// The trace a `perfetto::to_json` file describes.
pub fn to_trace(text: &str) -> Result<Trace, ImportError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| fail(format!("line {}, column {}: not valid JSON: {e}", e.line(), e.column())))?;
    let events = v
        .get("traceEvents")
        .and_then(Value::as_array)
        .ok_or_else(|| fail("expected a JSON object with a \"traceEvents\" array (Chrome/Perfetto trace format)"))?;
    let meta = v.get("metadata");
    if meta.and_then(|m| m.get("tool")).and_then(Value::as_str) != Some("schedscope") {
        return Err(fail(
            "expected schedscope's own Perfetto export (metadata.tool = \"schedscope\"); \
             traces recorded by other tools open as trace-cmd report or perf script text",
        ));
    }
    let mut t = Trace::default();
    if let Some(states) = meta.and_then(|m| m.get("idle_states")).and_then(Value::as_array) {
        t.idle_states = states.iter().map(|s| s.as_str().unwrap_or("?").to_string()).collect();
    }
    let mut cores = meta.and_then(|m| m.get("cores")).and_then(Value::as_u64).unwrap_or(0).min(MAX_CORES);
    let mut names: Vec<Option<(String, String)>> = Vec::new();
    let name_task = |names: &mut Vec<Option<(String, String)>>, k: u64, name: &str, group: Option<&str>| {
        let k = k as usize;
        if names.len() <= k {
            names.resize(k + 1, None);
        }
        if names[k].is_none() || group.is_some() {
            let group = group.map(str::to_string).unwrap_or_else(|| name.to_string());
            names[k] = Some((name.to_string(), group));
        }
    };
    for (i, e) in events.iter().enumerate() {
        let at = |what: &str| fail(format!("traceEvents[{i}]: expected {what}"));
        let ph = e.get("ph").and_then(Value::as_str).ok_or_else(|| at("\"ph\" (the event's phase)"))?;
        if ph == "M" || ph == "C" {
            continue;
        }
        let tid = e.get("tid").and_then(Value::as_u64).ok_or_else(|| at("\"tid\" (1000 + CPU)"))?;
        let core = tid
            .checked_sub(super::perfetto::TID_BASE as u64)
            .filter(|&c| c < MAX_CORES)
            .ok_or_else(|| at(&format!("\"tid\" of a CPU track (1000 + CPU), got {tid}")))?;
        cores = cores.max(core + 1);
        let ts = e.get("ts").and_then(ns_of).ok_or_else(|| at("\"ts\" in microseconds"))?;
        let args = e.get("args");
        let arg_u = |k: &str| args.and_then(|a| a.get(k)).and_then(Value::as_u64);
        let cat = e.get("cat").and_then(Value::as_str).unwrap_or("");
        let name = e.get("name").and_then(Value::as_str).unwrap_or("");
        match ph {
            "X" => {
                let dur = e.get("dur").and_then(ns_of).ok_or_else(|| at("\"dur\" in microseconds"))?;
                let kind = match cat {
                    "run" => {
                        let task = arg_u("task").filter(|&k| k < MAX_TASKS).ok_or_else(|| at("args.task"))?;
                        let group = args.and_then(|a| a.get("group")).and_then(Value::as_str);
                        name_task(&mut names, task, name, group);
                        let sys = args.and_then(|a| a.get("sys")).and_then(Value::as_bool).unwrap_or(false);
                        SpanKind::Run { task: task as u32, sys }
                    }
                    "idle" => {
                        let state = arg_u("state").filter(|&s| s < 256).ok_or_else(|| at("args.state"))?;
                        SpanKind::Idle { state: state as u8 }
                    }
                    "overhead" => {
                        let kind = Overhead::ALL
                            .into_iter()
                            .find(|o| o.name() == name)
                            .ok_or_else(|| at(&format!("an overhead name, got \"{name}\"")))?;
                        SpanKind::Overhead { kind }
                    }
                    _ => continue,
                };
                t.spans.push(Span { core: core as u16, start: ts, end: ts + dur, kind });
            }
            "i" | "I" => {
                let from = || arg_u("from_cpu").filter(|&c| c < MAX_CORES).ok_or_else(|| at("args.from_cpu"));
                let task = || arg_u("task_id").filter(|&k| k < MAX_TASKS).ok_or_else(|| at("args.task_id"));
                let kind = match name {
                    "tick" => InstantKind::Tick,
                    "hrtick" => InstantKind::Hrtick,
                    "ipi" => InstantKind::Ipi { from: from()? as u16 },
                    "wakeup" | "migrate" => {
                        let (f, k) = (from()?, task()?);
                        let tname = args.and_then(|a| a.get("task")).and_then(Value::as_str).unwrap_or("");
                        name_task(&mut names, k, tname, None);
                        cores = cores.max(f + 1);
                        if name == "wakeup" {
                            InstantKind::Wakeup { from: f as u16, task: k as u32 }
                        } else {
                            InstantKind::Migrate { from: f as u16, task: k as u32 }
                        }
                    }
                    _ => continue,
                };
                t.instants.push(Instant { core: core as u16, time: ts, kind });
            }
            _ => continue,
        }
    }
    if t.spans.is_empty() && t.instants.is_empty() {
        return Err(fail("expected at least one run, idle or overhead span in traceEvents; found none"));
    }
    t.cores = cores.max(1) as u16;
    t.tasks = names
        .into_iter()
        .enumerate()
        .map(|(k, n)| {
            let (name, group) = n.unwrap_or_else(|| (format!("task {k}"), format!("task {k}")));
            TaskInfo { name, group }
        })
        .collect();
    let last = t.spans.iter().map(|s| s.end).chain(t.instants.iter().map(|i| i.time)).max().unwrap_or(0);
    t.end = meta.and_then(|m| m.get("end_ns")).and_then(Value::as_u64).unwrap_or(last).max(last);
    t.truncated = meta.and_then(|m| m.get("truncated")).and_then(Value::as_bool).unwrap_or(false);
    if t.idle_states.is_empty() {
        let deepest =
            t.spans.iter().filter_map(|s| if let SpanKind::Idle { state } = s.kind { Some(state) } else { None });
        let n = deepest.max().map_or(0, |d| d as usize + 1);
        t.idle_states = (0..n).map(|s| format!("state {s}")).collect();
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_where() {
        let e = to_trace("{\"traceEvents\": [\n  {\"ph\": \"X\",, }]}").unwrap_err();
        assert!(e.message.starts_with("line 2, column"), "{e}");
        let e = to_trace("{\"traceEvents\": [], \"metadata\": {\"tool\": \"chrome\"}}").unwrap_err();
        assert!(e.message.contains("schedscope's own"), "{e}");
        let bad = r#"{"traceEvents":[{"ph":"X","cat":"run","ts":1.0,"dur":2.0,"pid":1,"tid":1000}],"metadata":{"tool":"schedscope"}}"#;
        let e = to_trace(bad).unwrap_err();
        assert_eq!(e.message, "traceEvents[0]: expected args.task");
        assert!(!looks_like("[1,2]") && looks_like(" {\"traceEvents\": []}"));
        // Issue 30: a multi-byte character across byte 4096 panicked.
        let text = format!("{{\"traceEvents\": [], \"x\": \"{}é\"}}", "a".repeat(4096 - 27));
        assert!(!text.is_char_boundary(4096));
        assert!(looks_like(&text));
    }
}

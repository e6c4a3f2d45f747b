//! rt-app import: reads an rt-app JSON workload and turns it into config changes
//! (`workload=rtapp`, `tasks=...`, `duration=...`) for the engine's periodic tasks.
//!
//! rt-app (github.com/scheduler-tools/rt-app) describes threads as loops of events. The
//! engine models each thread as a periodic task `PeriodicTask { count, run, period }`:
//! * `count` is the thread's `instance` (default 1);
//! * `run` is the sum of its `run`/`runtime` events in one loop;
//! * `period` is its `timer` period, or run + sleep (the `sleep` events) without a timer;
//! * `slice` is its `dl-runtime` when its policy (or `global.default_policy`) is SCHED_OTHER:
//!   rt-app (`parse_thread_data`'s "Move from usec to nanosec" in `src/rt-app_parse_config.c`,
//!   `__set_thread_sched_other_attrs` in `src/rt-app.c`) passes it as `sched_attr.sched_runtime`,
//!   which Linux 6.12 takes as the task's custom slice and older kernels ignore for fair
//!   tasks (a notice says so). A `dl-runtime` inside a phase is not modelled.
//!
//! Threads with several `phases` are averaged, weighted by each phase's `loop`, so the
//! total CPU time and the number of activations stay those of the file. `global.duration`
//! (seconds) becomes `duration`. Times in rt-app are integer microseconds.
//! What cannot be represented (RT and deadline policies, priorities, affinities, locks,
//! barriers, finite loops, ...) is listed in `notices`; what is wrong (bad JSON, negative
//! times, a timer without a period, too many tasks, wrong types) is an `ImportError`
//! naming the JSON path of the offending field. Tasks are read in name order.
//!
//! rt-app's JSON dialect (it reads files with json-c's `json_tokener_parse`, not strict
//! JSON; its own `doc/examples` rely on it) is read the same way (`rtapp_dialect`): C and
//! C++ comments, a comma before `}` or `]`, and a member with no value (`"suspend",` in
//! `video-short.json`: `parse_task_event_data` in `src/rt-app_parse_config.c` ignores a
//! suspend's value and suspends on the thread's own name) read as `null`. An unterminated
//! `/*` is an error naming its line. A duplicate key keeps its last value, as json-c's
//! `json_object_object_add` replaces it.
//! Loops as `src/rt-app.c` runs them (`while (thread_loop != data->loop)`, counting up from
//! 0): any count below 1 in a phase, and any negative count for a thread, loops forever;
//! a thread's `loop: 0` with phases never runs. Counts other than the documented -1 that
//! mean forever are noted.

use std::fmt;

use serde_json::{Map, Value};

use crate::engine::config::{format_tasks, Config, PeriodicTask, MAX_DURATION, MAX_TASKS};
use crate::engine::time::{format_duration, Ns, SEC, US};

/// Largest file read.
pub const MAX_FILE_BYTES: usize = 1_000_000;
/// Shortest period the engine accepts (see `engine::config::parse_tasks`).
const MIN_PERIOD: Ns = 10 * US;

/// What an import changes and what it had to approximate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportResult {
    /// Config keys and values, for `Config::set` (each is known to be accepted).
    pub config_changes: Vec<(String, String)>,
    /// One sentence per approximation or ignored field, starting with its JSON path.
    pub notices: Vec<String>,
}

/// Why a file cannot be imported, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// JSON path of the offending field (`tasks.thread0.run`); empty for the whole file.
    pub path: String,
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ImportError {}

fn fail<T>(path: &str, message: impl Into<String>) -> Result<T, ImportError> {
    Err(ImportError { path: path.to_string(), message: message.into() })
}

/// rt-app's JSON dialect as strict JSON with the same lines (see the module doc): comments
/// blanked, a comma before `}`/`]` blanked, a member without a value given `: null`.
fn rtapp_dialect(text: &str) -> Result<String, ImportError> {
    let text = blank_comments(text)?;
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    // Per open bracket: whether it is an object, and (objects) whether a key comes next.
    let mut stack: Vec<(bool, bool)> = Vec::new();
    let next_solid = |from: usize| b[from..].iter().position(|c| !c.is_ascii_whitespace()).map(|k| b[from + k]);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                // Copy the whole string (escapes included).
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.push_str(&text[start..i]);
                if let Some(top) = stack.last_mut() {
                    if top.0 && top.1 {
                        top.1 = false;
                        if matches!(next_solid(i), Some(b',') | Some(b'}')) {
                            out.push_str(": null");
                        }
                    }
                }
                continue;
            }
            b'{' => stack.push((true, true)),
            b'[' => stack.push((false, false)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.1 = top.0;
                }
                if matches!(next_solid(i + 1), Some(b'}') | Some(b']')) {
                    out.push(' ');
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        // Multi-byte characters are copied byte by byte: only ASCII bytes are tested above.
        let end = (i + 1..=b.len()).find(|&k| text.is_char_boundary(k)).unwrap_or(b.len());
        out.push_str(&text[i..end]);
        i = end;
    }
    Ok(out)
}

/// Replaces `/* */` and `//` comments outside strings by spaces (newlines kept), so JSON
/// error positions still match the file. An unterminated `/*` is an error with its line.
fn blank_comments(text: &str) -> Result<String, ImportError> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let (mut in_string, mut escaped) = (false, false);
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                while let Some(&n) = chars.peek() {
                    if n == '\n' {
                        break;
                    }
                    chars.next();
                    out.push(' ');
                }
                out.push(' ');
            }
            ('/', Some('*')) => {
                chars.next();
                out.push_str("  ");
                let at = out.len();
                let mut prev = ' ';
                let mut closed = false;
                for n in chars.by_ref() {
                    out.push(if n == '\n' { '\n' } else { ' ' });
                    if prev == '*' && n == '/' {
                        closed = true;
                        break;
                    }
                    prev = n;
                }
                if !closed {
                    let line = out[..at].matches('\n').count() + 1;
                    return fail("", format!("line {line}: a /* comment is never closed"));
                }
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn int(path: &str, v: &Value, what: &str) -> Result<i64, ImportError> {
    match v.as_i64() {
        Some(n) => Ok(n),
        None => fail(path, format!("expected {what}, found {}", kind(v))),
    }
}

/// A non-negative time in microseconds, as nanoseconds.
fn micros(path: &str, v: &Value) -> Result<Ns, ImportError> {
    let n = int(path, v, "a whole number of microseconds")?;
    if n < 0 {
        return fail(path, format!("{n} is negative (times are microseconds >= 0)"));
    }
    match (n as u64).checked_mul(US) {
        Some(ns) if ns <= MAX_DURATION => Ok(ns),
        _ => fail(path, format!("{n} us is longer than the longest run ({})", format_duration(MAX_DURATION))),
    }
}

fn object<'a>(path: &str, v: &'a Value) -> Result<&'a Map<String, Value>, ImportError> {
    v.as_object().map_or_else(|| fail(path, format!("expected an object, found {}", kind(v))), Ok)
}

const POLICIES: &[&str] = &["SCHED_OTHER", "SCHED_IDLE", "SCHED_RR", "SCHED_FIFO", "SCHED_DEADLINE"];

/// Checks a policy name and returns it; anything but SCHED_OTHER is approximated.
fn policy<'a>(path: &str, v: &'a Value, notices: &mut Vec<String>) -> Result<&'a str, ImportError> {
    let Some(name) = v.as_str() else {
        return fail(path, format!("expected a policy name, found {}", kind(v)));
    };
    if !POLICIES.contains(&name) {
        return fail(path, format!("unknown policy '{name}' (rt-app knows {})", POLICIES.join(", ")));
    }
    if name != "SCHED_OTHER" {
        notices.push(format!("{path}: {name} is simulated as SCHED_OTHER (the engine has only the fair class)"));
    }
    Ok(name)
}

/// One loop of a phase: CPU time, sleep time, timer period, and how many loops it runs.
struct Phase {
    run: Ns,
    sleep: Ns,
    timer: Option<Ns>,
    weight: u64,
    /// The `loop` given, if any.
    count: Option<i64>,
    /// The `policy` given, if any.
    policy: Option<String>,
    /// The `dl-runtime` given, with its JSON path, if any.
    dl_runtime: Option<(String, Ns)>,
}

const IGNORED_PROPERTIES: &[&str] =
    &["cpus", "delay", "util_min", "util_max", "membind_nodes", "taskgroup", "dl-period", "dl-deadline", "nice"];
const IGNORED_EVENTS: &[&str] = &[
    "lock", "unlock", "wait", "signal", "broad", "sync", "barrier", "suspend", "resume", "mem", "iorun", "yield",
    "fork", "slack",
];

/// Reads the events and properties of one phase (or of a thread without `phases`).
fn phase(
    path: &str,
    obj: &Map<String, Value>,
    in_thread: bool,
    notices: &mut Vec<String>,
) -> Result<Phase, ImportError> {
    let mut p = Phase { run: 0, sleep: 0, timer: None, weight: 1, count: None, policy: None, dl_runtime: None };
    for (key, v) in obj {
        let at = join(path, key);
        match key.as_str() {
            // Thread-level properties, read by the caller.
            "instance" | "phases" if in_thread => {}
            "loop" => {
                let n = int(&at, v, "a whole number of loops")?;
                p.count = Some(n);
                if !in_thread && n > 0 {
                    p.weight = n as u64;
                } else if n > 0 {
                    notices.push(format!("{at}: {n} loops become a task that repeats until the run ends"));
                }
            }
            // rt-app's grammar before its run/sleep/timer events (2015, `doc/tutorial.txt`
            // since): a phase's `exec` and `period`, and `lock_order` for its resources.
            "exec" | "lock_order" => {
                return fail(
                    &at,
                    format!(
                        "\"{key}\" is rt-app's old grammar (exec, period, lock_order; replaced by run, sleep and \
                         timer events in 2015), not read"
                    ),
                )
            }
            "policy" => p.policy = Some(policy(&at, v, notices)?.to_string()),
            "priority" => {
                int(&at, v, "a whole number")?;
                notices.push(format!("{at}: ignored (every simulated task has the same weight)"));
            }
            // Read by `thread`, which knows the policy it goes with.
            "dl-runtime" => p.dl_runtime = Some((at.clone(), micros(&at, v)?)),
            k if IGNORED_PROPERTIES.contains(&k) => notices.push(format!("{at}: ignored (not simulated)")),
            k if k.starts_with("runtime") || k.starts_with("run") => {
                p.run = p.run.saturating_add(micros(&at, v)?);
            }
            k if k.starts_with("sleep") => p.sleep = p.sleep.saturating_add(micros(&at, v)?),
            k if k.starts_with("timer") => {
                let t = object(&at, v)?;
                let period_path = join(&at, "period");
                let period = match t.get("period") {
                    Some(pv) => micros(&period_path, pv)?,
                    None => return fail(&period_path, "missing: a timer needs a period in microseconds"),
                };
                if period == 0 {
                    return fail(&period_path, "a timer period must be more than 0");
                }
                if p.timer.is_some() {
                    notices.push(format!("{at}: several timers in one loop; their periods are added"));
                }
                p.timer = Some(p.timer.unwrap_or(0).saturating_add(period));
            }
            k if IGNORED_EVENTS.iter().any(|e| k.starts_with(e)) => {
                notices.push(format!("{at}: event ignored (only run, sleep and timer are simulated)"))
            }
            _ => notices.push(format!("{at}: unknown field, ignored")),
        }
    }
    Ok(p)
}

/// The notice for a loop count other than -1 that rt-app runs forever.
fn forever(path: &str, n: i64) -> String {
    format!("{path}.loop: {n} loops forever, as in rt-app (rt-app.c ends a loop when its counter, from 0, equals it)")
}

/// Reads one thread into a task group (`None` when it creates no thread or never runs).
/// `default_policy` is `global.default_policy` (rt-app's default: SCHED_OTHER).
fn thread(
    path: &str,
    v: &Value,
    default_policy: &str,
    notices: &mut Vec<String>,
) -> Result<Option<PeriodicTask>, ImportError> {
    let obj = object(path, v)?;
    let count = match obj.get("instance") {
        None => 1,
        Some(iv) => {
            let at = join(path, "instance");
            let n = int(&at, iv, "a whole number of threads")?;
            if n < 0 {
                return fail(&at, format!("{n} is negative"));
            }
            if n as u64 > MAX_TASKS as u64 {
                return fail(&at, format!("{n} threads is more than the engine's {MAX_TASKS}"));
            }
            n as u32
        }
    };
    let top = phase(path, obj, true, notices)?;
    let thread_loop = top.count;
    let slice = match &top.dl_runtime {
        None => 0,
        Some((at, runtime)) => {
            let pol = top.policy.as_deref().unwrap_or(default_policy);
            if pol != "SCHED_OTHER" {
                notices.push(format!("{at}: ignored: {pol}'s runtime (the engine has only the fair class)"));
                0
            } else {
                if *runtime > 0 {
                    notices.push(format!(
                        "{at}: {} becomes the custom slice (sched_attr.sched_runtime) honoured from \
                         Linux 6.12; older kernels ignore it for SCHED_OTHER, as kernel=6.6 and earlier do here",
                        format_duration(*runtime)
                    ));
                }
                *runtime
            }
        }
    };
    let phases: Vec<Phase> = match obj.get("phases") {
        None => {
            if let Some(n) = thread_loop.filter(|&n| n < 1 && n != -1) {
                notices.push(forever(path, n));
            }
            vec![top]
        }
        Some(pv) => {
            let at = join(path, "phases");
            let list = object(&at, pv)?;
            if list.is_empty() {
                return fail(&at, "no phases");
            }
            if top.run > 0 || top.sleep > 0 || top.timer.is_some() {
                notices.push(format!("{path}: events next to \"phases\" are ignored (rt-app runs the phases)"));
            }
            match thread_loop {
                Some(0) => {
                    notices.push(format!("{path}.loop: 0 with phases never runs the thread (rt-app.c); skipped"));
                    return Ok(None);
                }
                Some(n) if n < -1 => notices.push(forever(path, n)),
                _ => {}
            }
            let mut out = Vec::new();
            for (name, ph) in list {
                let pp = join(&at, name);
                let p = phase(&pp, object(&pp, ph)?, false, notices)?;
                if let Some((at, _)) = &p.dl_runtime {
                    notices.push(format!("{at}: ignored: a slice per phase is not modelled (only the thread's)"));
                }
                let forever = p.count.is_some_and(|n| n < 1);
                out.push(p);
                if forever {
                    // rt-app stays in this phase: the ones before it ran once, none after.
                    notices.push(format!(
                        "{pp}.loop: {} is below 1: rt-app repeats this phase forever, so it alone is simulated",
                        out[out.len() - 1].count.unwrap_or(0)
                    ));
                    out = out.split_off(out.len() - 1);
                    break;
                }
            }
            out
        }
    };
    if count == 0 {
        notices.push(format!("{path}: instance 0 creates no thread; skipped"));
        return Ok(None);
    }

    // Per phase: period is the timer's, else run + sleep. Then the loop-weighted mean.
    let (mut w_sum, mut run_sum, mut period_sum) = (0u128, 0u128, 0u128);
    for p in &phases {
        let period = p.timer.unwrap_or(p.run.saturating_add(p.sleep));
        w_sum += p.weight as u128;
        run_sum += p.weight as u128 * p.run as u128;
        period_sum += p.weight as u128 * period as u128;
    }
    let run = (run_sum / w_sum) as Ns;
    let period = (period_sum / w_sum) as Ns;
    if phases.len() > 1 {
        notices.push(format!(
            "{path}: {} phases are averaged by their loop counts into {} every {}",
            phases.len(),
            format_duration(run),
            format_duration(period)
        ));
    }
    if run == 0 {
        notices.push(format!("{path}: no run event, the thread never uses a CPU; skipped"));
        return Ok(None);
    }
    if period < MIN_PERIOD {
        return fail(
            path,
            format!(
                "a period of {} is shorter than the engine's {}",
                format_duration(period),
                format_duration(MIN_PERIOD)
            ),
        );
    }
    let run = if run > period {
        notices.push(format!(
            "{path}: runs {} per {} timer period, longer than the period; capped at the period",
            format_duration(run),
            format_duration(period)
        ));
        period
    } else {
        run
    };
    Ok(Some(PeriodicTask { count, run, period, slice }))
}

/// Reads an rt-app JSON file. See the module doc for the mapping.
pub fn import(text: &str) -> Result<ImportResult, ImportError> {
    if text.len() > MAX_FILE_BYTES {
        return fail("", format!("the file is {} bytes; the limit is {MAX_FILE_BYTES}", text.len()));
    }
    let root: Value = serde_json::from_str(&rtapp_dialect(text)?).or_else(|e| {
        let full = e.to_string();
        let what = full.rsplit_once(" at line ").map_or(full.as_str(), |(w, _)| w);
        fail("", format!("not valid JSON at line {}, column {}: {what}", e.line(), e.column()))
    })?;
    let root = object("", &root)?;
    let mut notices = Vec::new();
    let mut changes: Vec<(String, String)> = vec![("workload".into(), "rtapp".into())];

    let mut duration = None;
    let mut default_policy = "SCHED_OTHER";
    if let Some(g) = root.get("global") {
        for (key, v) in object("global", g)? {
            let at = join("global", key);
            match key.as_str() {
                "duration" => {
                    let s = int(&at, v, "a whole number of seconds")?;
                    if s <= 0 {
                        notices.push(format!("{at}: {s} (until the threads end) keeps the config's duration"));
                    } else if (s as u64).saturating_mul(SEC) > MAX_DURATION {
                        notices.push(format!("{at}: {s} s is capped at {}", format_duration(MAX_DURATION)));
                        duration = Some(MAX_DURATION);
                    } else {
                        duration = Some(s as u64 * SEC);
                    }
                }
                "default_policy" => default_policy = policy(&at, v, &mut notices)?,
                // Logging, calibration and memory settings do not change scheduling.
                "calibration" | "pi_enabled" | "lock_pages" | "logdir" | "log_basename" | "log_size" | "ftrace"
                | "gnuplot" | "io_device" | "mem_buffer_size" | "cumulative_slack" => {}
                _ => notices.push(format!("{at}: unknown field, ignored")),
            }
        }
    }
    for key in root.keys().filter(|k| !matches!(k.as_str(), "global" | "tasks" | "resources")) {
        notices.push(format!("{key}: unknown field, ignored"));
    }

    let Some(tasks) = root.get("tasks") else {
        return fail("tasks", "missing: an rt-app file needs a \"tasks\" object");
    };
    let tasks = object("tasks", tasks)?;
    if tasks.is_empty() {
        return fail("tasks", "no tasks");
    }
    let mut groups = Vec::new();
    let mut total = 0usize;
    for (name, t) in tasks {
        let at = join("tasks", name);
        if let Some(g) = thread(&at, t, default_policy, &mut notices)? {
            total += g.count as usize;
            if total > MAX_TASKS {
                return fail(&at, format!("more than {MAX_TASKS} threads in total (the engine's limit)"));
            }
            groups.push(g);
        }
    }
    if groups.is_empty() {
        return fail("tasks", "no thread ever runs (every one has instance 0 or no run event)");
    }
    changes.push(("tasks".into(), format_tasks(&groups)));
    if let Some(d) = duration {
        changes.push(("duration".into(), format_duration(d)));
    }

    // The changes must be accepted as they are: check them on a default config.
    let mut probe = Config::default();
    for (k, v) in &changes {
        if let Err(e) = probe.set(k, v) {
            return fail("", format!("internal: the import made a value the engine rejects ({e})"));
        }
    }
    Ok(ImportResult { config_changes: changes, notices })
}

#[cfg(test)]
mod tests;

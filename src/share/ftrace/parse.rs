//! Line parser for `trace-cmd report` / `trace_pipe` text and `perf script` text of sched tracepoints.
//!
//! A line is `TASK [CPU] FLAGS? TIMESTAMP: EVENT: FIELDS`. TASK is `comm-pid` in ftrace text
//! (optionally followed by ` (tgid)` as Android's systrace prints it) and `comm pid` or
//! `comm pid/tid` in perf script; comm may contain spaces, dashes and brackets, so the line is
//! anchored on the first `[digits]` that is followed by a timestamp and an event name.
//! Timestamps are seconds with a decimal fraction (µs or ns digits), kept as integer ns.
//! Field values run to the next ` key=`, so comm values with spaces survive.
//! `trace-cmd report`'s default `sched_switch` / `sched_wakeup` text (libtraceevent's
//! plugin: `prev:1 [120] S ==> next:2 [120]`, `comm:3 [120] success=1 CPU:001`) is read
//! too. `prev_state` is read in both forms: letters (`S`, `R+`, `D|K`, newer kernels'
//! `sched_switch` TP_printk) and the old numeric bit mask (`1` = TASK_INTERRUPTIBLE,
//! `2` = TASK_UNINTERRUPTIBLE, 0 = running, 16/32/64 = exit states; include/linux/sched.h).
//! A value with no bit below 256 is runnable: it is TASK_STATE_MAX, which the kernel ORs in
//! for a preempted task (4096 in 4.8 to 4.13, where TASK_NEW is 2048; 1024 or 2048 before),
//! or TASK_REPORT_MAX (256) from 4.14. Simplified: 64 is TASK_DEAD up to 4.13 but
//! TASK_PARKED (asleep) from 4.14, and 256 is TASK_WAKING before 4.14; the number alone
//! does not say which era wrote it, so 64 is read as dead and 256 as runnable (newer
//! `trace-cmd` prints letters, which are exact).
//! `irq_handler_entry` of an interrupt named `IPI` (arm64's and RISC-V's IPIs are per-CPU
//! interrupts) is an IPI mark on the CPU that received it; other interrupts are skipped.
//! The parser never panics: every failure is a `LineError` naming the line and what was expected.

use crate::engine::time::Ns;

/// How a task left the CPU at a `sched_switch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrevState {
    /// `R`/`R+`/0: preempted, still runnable.
    Runnable,
    /// `S`, `D`, `I`, `T`, ... : went to sleep or blocked.
    Sleeping,
    /// `X`, `Z` or an exit bit: the task is dead.
    Dead,
}

/// One event the model uses; others are only counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Switch {
        prev_comm: String,
        prev_pid: u32,
        prev_state: PrevState,
        next_comm: String,
        next_pid: u32,
        next_prio: i32,
    },
    /// `sched_wakeup` (`new` for `sched_wakeup_new`) or `sched_waking` (`waking`).
    Wakeup {
        comm: String,
        pid: u32,
        target_cpu: Option<u32>,
        new: bool,
        waking: bool,
    },
    Migrate {
        comm: String,
        pid: u32,
        orig_cpu: u32,
        dest_cpu: u32,
    },
    Exit {
        comm: String,
        pid: u32,
    },
    /// `cpu_idle`: `state` is the C-state index entered, `None` on exit (4294967295).
    CpuIdle {
        state: Option<u32>,
        cpu: u32,
    },
    /// `ipi_*` with the target CPU when the line names one.
    Ipi {
        name: String,
        target: Option<u32>,
    },
    Hrtimer {
        name: String,
    },
    /// A `print` (trace_marker) line.
    Marker,
}

/// A parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// 1-based line number in the file.
    pub line: usize,
    pub ts: Ns,
    pub cpu: u32,
    /// The task current on `cpu` when the event fired (0 for idle).
    pub pid: u32,
    pub comm: String,
    pub kind: Kind,
}

/// What a line was, if not a used event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Event(Event),
    /// A well-formed line of an event the model does not use (its name).
    Skipped(String),
    /// A header, comment or blank line.
    Blank,
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

fn err(line: usize, message: impl Into<String>) -> LineError {
    LineError { line, message: message.into() }
}

/// Whether a line is a header or comment the tools print around events.
fn is_header(t: &str) -> bool {
    t.is_empty() || t.starts_with('#') || t.starts_with("cpus=") || t.starts_with("TRACE:")
}

/// Whether a line may be a header (`version = 6`, `CPU 3 is empty`, `trace-cmd: ...`) when
/// it is not an event: tasks are named `trace-cmd` (in every trace-cmd recording) and
/// `CPU 0/KVM` (QEMU's vCPU threads), so such a line is read as an event first.
fn maybe_header(t: &str) -> bool {
    t.starts_with("version") || t.starts_with("CPU ") || t.starts_with("trace-cmd")
}

/// Seconds with a fraction (`46.299705`, `3376096.592216000`) as nanoseconds.
pub fn parse_ts(s: &str) -> Option<Ns> {
    let (int, frac) = s.split_once('.')?;
    if int.is_empty() || frac.is_empty() || frac.len() > 9 {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs: u64 = int.parse().ok()?;
    let mut f: u64 = frac.parse().ok()?;
    for _ in frac.len()..9 {
        f *= 10;
    }
    secs.checked_mul(1_000_000_000)?.checked_add(f)
}

/// How far past the `]` of a CPU column the flags, timestamp and event name may reach:
/// `tail` looks no further, so trying every `[digits]` of a line costs O(1) each and a
/// line is read in time linear in its length (issue 30: `[1]` x 200,000 took 46 s).
pub const TAIL_WINDOW: usize = 256;

/// The longest `s[..n]` (n <= max) that ends on a character boundary.
fn prefix(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut n = max;
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    &s[..n]
}

/// After the `]` of the CPU field: optional flags, timestamp, event name, fields.
/// Looks at most `TAIL_WINDOW` bytes for everything before the fields.
fn tail(rest: &str) -> Option<(Ns, &str, &str)> {
    // A CPU column is followed by a blank in every dialect.
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let head = prefix(rest, TAIL_WINDOW);
    let skipped = head.len() - head.trim_start().len();
    let h = &head[skipped..];
    let (first, after) = h.split_once(char::is_whitespace).unwrap_or((h, ""));
    let (ts_tok, after) = if first.ends_with(':') && parse_ts(&first[..first.len() - 1]).is_some() {
        (first, after)
    } else {
        // `first` is the flags column (`d..2.`, `....`); the timestamp follows.
        let after = after.trim_start();
        after.split_once(char::is_whitespace).unwrap_or((after, ""))
    };
    let ts = parse_ts(ts_tok.strip_suffix(':')?)?;
    let after = after.trim_start();
    // `after` is a suffix of `head`, which is a prefix of `rest`: its offset in `rest`.
    let at = head.len() - after.len();
    // The event name ends at ': ' (perf names it `sched:sched_switch`), or a final ':'.
    let (name, fields) = match after.find(": ") {
        Some(k) => (&after[..k], &rest[at + k + 2..]),
        None if head.len() == rest.len() => (after.strip_suffix(':')?, ""),
        None => return None,
    };
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    Some((ts, name, fields.trim()))
}

/// `comm-pid`, `comm-pid (tgid)`, `comm pid`, `comm pid/tid`.
fn task(left: &str) -> Option<(String, u32)> {
    let mut left = left.trim();
    if left.ends_with(')') {
        if let Some(open) = left.rfind('(') {
            let inner = left[open + 1..left.len() - 1].trim();
            if inner.bytes().all(|b| b.is_ascii_digit()) || inner == "-----" {
                left = left[..open].trim_end();
            }
        }
    }
    // perf script -F pid,tid,...: no comm, `pid/tid`.
    if let Some((p, tid)) = left.split_once('/') {
        if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && tid.bytes().all(|b| b.is_ascii_digit()) {
            return Some((String::new(), tid.parse().ok()?));
        }
    }
    if let Some((comm, id)) = left.rsplit_once(char::is_whitespace) {
        let tid = id.rsplit('/').next().unwrap_or(id);
        if !tid.is_empty() && tid.bytes().all(|b| b.is_ascii_digit()) {
            return Some((comm.trim().to_string(), tid.parse().ok()?));
        }
    }
    let (comm, pid) = left.rsplit_once('-')?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((comm.to_string(), pid.parse().ok()?))
}

/// Longest line read, in bytes: a longer one is a bad line (named, ignored). Real lines
/// are under 1 KiB (a `print` event's payload is at most a page); the bound keeps the
/// memory a line can cost a small constant (issue 30: one 60 MB line took 975 MB).
pub const MAX_LINE: usize = 64 * 1024;
/// Latest timestamp read (2^62 ns, about 146 years: uptimes and epoch clocks fit, and
/// sums of two trace times cannot overflow).
pub const MAX_TS: Ns = 1 << 62;
/// Most `key=value` fields an event line may have (`sched_switch` has 7).
pub const MAX_FIELDS: usize = 64;

/// `key=value` pairs; a value runs to the next ` key=` so it may contain spaces.
/// `None` when there are more than `MAX_FIELDS`.
fn fields(s: &str) -> Option<Vec<(&str, &str)>> {
    let b = s.as_bytes();
    // Start of each `key=`: a run of [A-Za-z0-9_] at the start or after a space, then '='.
    let mut starts = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if i == 0 || b[i - 1] == b' ' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if j > i && j < b.len() && b[j] == b'=' {
                if starts.len() == MAX_FIELDS {
                    return None;
                }
                starts.push((i, j));
            }
            i = j.max(i + 1);
            continue;
        }
        i += 1;
    }
    let mut out = Vec::with_capacity(starts.len());
    for (k, &(a, eq)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map(|&(n, _)| n).unwrap_or(b.len());
        out.push((&s[a..eq], s[eq + 1..end].trim()));
    }
    Some(out)
}

fn get<'a>(f: &[(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    f.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

fn num<T: std::str::FromStr>(f: &[(&str, &str)], key: &str, line: usize, event: &str) -> Result<T, LineError> {
    let v = get(f, key).ok_or_else(|| err(line, format!("{event}: expected {key}=NUMBER")))?;
    v.trim().parse().map_err(|_| err(line, format!("{event}: expected {key}=NUMBER, got '{v}'")))
}

fn text(f: &[(&str, &str)], key: &str, line: usize, event: &str) -> Result<String, LineError> {
    get(f, key).map(str::to_string).ok_or_else(|| err(line, format!("{event}: expected {key}=NAME")))
}

/// `prev_state` in either form.
pub fn prev_state(v: &str) -> Option<PrevState> {
    let v = v.trim().trim_end_matches("==>").trim();
    if v.is_empty() {
        return None;
    }
    if v.bytes().all(|b| b.is_ascii_digit()) {
        let n: u64 = v.parse().ok()?;
        return Some(if n & (16 | 32 | 64) != 0 {
            PrevState::Dead
        } else if n & 0xff != 0 {
            PrevState::Sleeping
        } else {
            PrevState::Runnable
        });
    }
    if let Some(hex) = v.strip_prefix("0x") {
        let n = u64::from_str_radix(hex, 16).ok()?;
        return prev_state(&n.to_string());
    }
    Some(match v.as_bytes()[0] {
        b'R' => PrevState::Runnable,
        b'X' | b'Z' | b'x' => PrevState::Dead,
        b'S' | b'D' | b'I' | b'T' | b't' | b'P' | b'K' | b'W' | b'N' => PrevState::Sleeping,
        _ => return None,
    })
}

/// `COMM:PID [PRIO]` (the prio optional), comm possibly with colons and spaces.
fn plugin_task(s: &str) -> Option<(String, u32, Option<i32>)> {
    let s = s.trim();
    let (head, prio) = match s.strip_suffix(']').and_then(|x| x.rsplit_once(" [")) {
        Some((h, p)) => (h, Some(p.trim().parse().ok()?)),
        None => (s, None),
    };
    let (comm, pid) = head.rsplit_once(':')?;
    Some((comm.to_string(), pid.trim().parse().ok()?, prio))
}

/// libtraceevent's sched_switch plugin text, the default of `trace-cmd report`
/// (`plugins/plugin_sched_switch.c`): `PREV_COMM:PREV_PID [PRIO] STATE ==> NEXT_COMM:NEXT_PID
/// [PRIO]`. Its state letters come from a fixed table (`SDTtZXxW`, later `SDTtXZPIp`),
/// read by `prev_state` as the letters of the print format are.
fn plugin_switch(rest: &str) -> Option<Kind> {
    let (left, right) = rest.split_once(" ==> ")?;
    let (left, state) = left.trim_end().rsplit_once(' ')?;
    let (prev_comm, prev_pid, _) = plugin_task(left)?;
    let (next_comm, next_pid, next_prio) = plugin_task(right)?;
    Some(Kind::Switch {
        prev_comm,
        prev_pid,
        prev_state: prev_state(state)?,
        next_comm,
        next_pid,
        next_prio: next_prio.unwrap_or(120),
    })
}

/// The plugin's sched_wakeup text: `COMM:PID [PRIO] success=1 CPU:005` (`success` and the
/// CPU only when the event has those fields).
fn plugin_wakeup(rest: &str) -> Option<(String, u32, Option<u32>)> {
    let mut s = rest.trim();
    let mut target = None;
    if let Some((h, c)) = s.rsplit_once(" CPU:") {
        target = Some(c.trim().parse().ok()?);
        s = h;
    }
    if let Some((h, ok)) = s.rsplit_once(" success=") {
        ok.trim().parse::<u32>().ok()?;
        s = h;
    }
    let (comm, pid, _) = plugin_task(s)?;
    Some((comm, pid, target))
}

/// Whether an interrupt's name is an IPI's: `IPI` (arm64, RISC-V since 5.10/5.16), or a
/// name whose words include `IPI`.
pub fn is_ipi_name(n: &str) -> bool {
    n.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w.eq_ignore_ascii_case("ipi"))
}

/// Reads one line (1-based `line` number).
pub fn parse_line(raw: &str, line: usize) -> Result<Line, LineError> {
    if raw.len() > MAX_LINE {
        return Err(err(line, format!("longer than {MAX_LINE} bytes ({} bytes)", raw.len())));
    }
    let t = raw.trim();
    if is_header(t) {
        return Ok(Line::Blank);
    }
    // Find the CPU column: the first `[digits]` followed by a timestamp and an event name.
    let b = t.as_bytes();
    let mut found = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 && j < b.len() && b[j] == b']' {
                if let Some(tl) = tail(&t[j + 1..]) {
                    found = Some((i, t[i + 1..j].parse::<u32>().ok(), tl));
                    break;
                }
            }
        }
        i += 1;
    }
    let Some((at, cpu, (ts, name, rest))) = found else {
        if maybe_header(t) {
            return Ok(Line::Blank);
        }
        return Err(err(
            line,
            "expected 'COMM-PID [CPU] TIMESTAMP: EVENT: FIELDS' (trace-cmd report or perf script text)",
        ));
    };
    let cpu = cpu.ok_or_else(|| err(line, "expected a CPU number in [..]"))?;
    if ts > MAX_TS {
        return Err(err(
            line,
            format!("timestamp {} s is beyond {} s (about 146 years)", ts / 1_000_000_000, MAX_TS / 1_000_000_000),
        ));
    }
    let Some((comm, pid)) = task(&t[..at]) else {
        if maybe_header(t) {
            return Ok(Line::Blank);
        }
        return Err(err(line, "expected the task as COMM-PID (or COMM PID) before [CPU]"));
    };
    // perf script names events `sched:sched_switch`.
    let name = name.rsplit(':').next().unwrap_or(name);
    let used = matches!(name, "sched_switch" | "sched_wakeup" | "sched_wakeup_new" | "sched_waking")
        || matches!(name, "sched_migrate_task" | "sched_process_exit" | "cpu_idle")
        || name.starts_with("ipi_")
        || name == "irq_handler_entry"
        || name.starts_with("hrtimer_")
        || (name == "print" && rest.contains("tracing_mark_write: schedscope: "));
    if !used {
        return Ok(Line::Skipped(name.to_string()));
    }
    let f = fields(rest).ok_or_else(|| err(line, format!("{name}: more than {MAX_FIELDS} key=value fields")))?;
    let ev = |kind| Ok(Line::Event(Event { line, ts, cpu, pid, comm: comm.clone(), kind }));
    match name {
        "sched_switch" if get(&f, "prev_pid").is_none() && rest.contains(" ==> ") => {
            let k = plugin_switch(rest).ok_or_else(|| {
                err(line, "sched_switch: expected 'PREV_COMM:PREV_PID [PRIO] STATE ==> NEXT_COMM:NEXT_PID [PRIO]'")
            })?;
            ev(k)
        }
        "sched_switch" => {
            let ps = get(&f, "prev_state").ok_or_else(|| err(line, "sched_switch: expected prev_state=STATE"))?;
            let prev_state = prev_state(ps).ok_or_else(|| {
                err(line, format!("sched_switch: expected prev_state as a letter or number, got '{ps}'"))
            })?;
            ev(Kind::Switch {
                prev_comm: text(&f, "prev_comm", line, name)?,
                prev_pid: num(&f, "prev_pid", line, name)?,
                prev_state,
                next_comm: text(&f, "next_comm", line, name)?,
                next_pid: num(&f, "next_pid", line, name)?,
                next_prio: get(&f, "next_prio").and_then(|v| v.parse().ok()).unwrap_or(120),
            })
        }
        "sched_wakeup" | "sched_wakeup_new" | "sched_waking" if get(&f, "pid").is_none() => {
            let (comm, pid, target_cpu) = plugin_wakeup(rest)
                .ok_or_else(|| err(line, format!("{name}: expected pid=NUMBER or 'COMM:PID [PRIO] CPU:NNN'")))?;
            ev(Kind::Wakeup { comm, pid, target_cpu, new: name == "sched_wakeup_new", waking: name == "sched_waking" })
        }
        "sched_wakeup" | "sched_wakeup_new" | "sched_waking" => ev(Kind::Wakeup {
            comm: text(&f, "comm", line, name)?,
            pid: num(&f, "pid", line, name)?,
            target_cpu: get(&f, "target_cpu").and_then(|v| v.parse().ok()),
            new: name == "sched_wakeup_new",
            waking: name == "sched_waking",
        }),
        "sched_migrate_task" => ev(Kind::Migrate {
            comm: text(&f, "comm", line, name)?,
            pid: num(&f, "pid", line, name)?,
            orig_cpu: num(&f, "orig_cpu", line, name)?,
            dest_cpu: num(&f, "dest_cpu", line, name)?,
        }),
        "sched_process_exit" => {
            ev(Kind::Exit { comm: text(&f, "comm", line, name)?, pid: num(&f, "pid", line, name)? })
        }
        "cpu_idle" => {
            let state: u64 = num(&f, "state", line, name)?;
            let cpu_id = get(&f, "cpu_id").and_then(|v| v.parse().ok()).unwrap_or(cpu);
            ev(Kind::CpuIdle { state: if state >= u32::MAX as u64 { None } else { Some(state as u32) }, cpu: cpu_id })
        }
        "irq_handler_entry" => match get(&f, "name") {
            // arm64 and RISC-V IPIs are per-CPU interrupts named "IPI" (arch/arm64/kernel/smp.c:
            // request_percpu_irq(..., ipi_handler, "IPI", ...)): a mark on the receiving CPU
            // (the sender is not in the event).
            Some(n) if is_ipi_name(n) => ev(Kind::Ipi { name: format!("irq_handler_entry {n}"), target: Some(cpu) }),
            _ => Ok(Line::Skipped(name.to_string())),
        },
        n if n.starts_with("ipi_") => {
            let target = get(&f, "cpu").or_else(|| get(&f, "target_cpu")).and_then(|v| v.parse().ok());
            ev(Kind::Ipi { name: n.to_string(), target })
        }
        n if n.starts_with("hrtimer_") => ev(Kind::Hrtimer { name: n.to_string() }),
        // schedscope's export marks its run's start and end with ftrace's trace_marker
        // (`print: tracing_mark_write: schedscope: ...`): no state, but it bounds the trace.
        // Other prints stay counted as skipped.
        "print" if rest.contains("tracing_mark_write: schedscope: ") => ev(Kind::Marker),
        other => Ok(Line::Skipped(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(s: &str) -> Event {
        match parse_line(s, 1).unwrap() {
            Line::Event(e) => e,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn trace_cmd_with_flags_and_letter_state() {
        let e = event("          <idle>-0       [007] d...2..    46.299728: sched_switch: prev_comm=swapper/7 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=rcuc/7 next_pid=53 next_prio=98");
        assert_eq!((e.cpu, e.pid, e.comm.as_str(), e.ts), (7, 0, "<idle>", 46_299_728_000));
        match e.kind {
            Kind::Switch { prev_state, next_pid, next_comm, .. } => {
                assert_eq!((prev_state, next_pid, next_comm.as_str()), (PrevState::Runnable, 53, "rcuc/7"))
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn numeric_state_no_flags_and_comm_with_spaces() {
        let e = event("Web Content-4242 [001]  10.000001: sched_switch: prev_comm=Web Content prev_pid=4242 prev_prio=120 prev_state=1 ==> next_comm=swapper/1 next_pid=0 next_prio=120");
        assert_eq!((e.comm.as_str(), e.pid, e.ts), ("Web Content", 4242, 10_000_001_000));
        match e.kind {
            Kind::Switch { prev_comm, prev_state, .. } => {
                assert_eq!((prev_comm.as_str(), prev_state), ("Web Content", PrevState::Sleeping))
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn perf_script_forms() {
        let e = event(
            "    kworker/0:1  1234 [000] 12345.678901234: sched:sched_wakeup: comm=sshd pid=77 prio=120 target_cpu=003",
        );
        assert_eq!((e.comm.as_str(), e.pid, e.ts), ("kworker/0:1", 1234, 12_345_678_901_234));
        assert!(matches!(e.kind, Kind::Wakeup { pid: 77, target_cpu: Some(3), .. }));
        let e = event("1372378/1372379 [006] 3376096.592216000:   sched:sched_migrate_task: comm=a b pid=9 prio=120 orig_cpu=1 dest_cpu=2");
        assert_eq!(e.pid, 1372379);
        assert!(matches!(e.kind, Kind::Migrate { ref comm, pid: 9, orig_cpu: 1, dest_cpu: 2 } if comm == "a b"));
    }

    #[test]
    fn systrace_tgid_and_skipped_and_headers() {
        let e = event("app-100 (100) [001] .... 5.000000: sched_wakeup: comm=x pid=3 prio=1 target_cpu=001");
        assert_eq!((e.comm.as_str(), e.pid), ("app", 100));
        assert_eq!(parse_line("cpus=8", 1).unwrap(), Line::Blank);
        assert_eq!(parse_line("# tracer: nop", 1).unwrap(), Line::Blank);
        assert_eq!(
            parse_line("a-1 [000] 1.0: sched_stat_runtime: comm=a pid=1", 1).unwrap(),
            Line::Skipped("sched_stat_runtime".into())
        );
    }

    /// libtraceevent's sched_switch plugin (trace-cmd report's default): names with colons
    /// and spaces, `[prio]`, a wakeup with `success=` and `CPU:`.
    #[test]
    fn trace_cmd_plugin_text() {
        let e =
            event("kworker/0:1-12 [000] 1.000000: sched_switch: kworker/0:1:12 [120] R+ ==> Web Content:4242 [100]");
        match e.kind {
            Kind::Switch { prev_comm, prev_pid, prev_state, next_comm, next_pid, next_prio } => {
                assert_eq!((prev_comm.as_str(), prev_pid, prev_state), ("kworker/0:1", 12, PrevState::Runnable));
                assert_eq!((next_comm.as_str(), next_pid, next_prio), ("Web Content", 4242, 100));
            }
            k => panic!("{k:?}"),
        }
        let e = event("a-1 [003] 2.000000: sched_wakeup: ls:4734 [120] success=1 CPU:005");
        assert!(
            matches!(e.kind, Kind::Wakeup { ref comm, pid: 4734, target_cpu: Some(5), new: false, .. } if comm == "ls")
        );
        let e = event("a-1 [003] 2.000000: sched_wakeup_new: x y:9 [120] CPU:001");
        assert!(matches!(e.kind, Kind::Wakeup { pid: 9, target_cpu: Some(1), new: true, .. }));
        let e = parse_line("a-1 [000] 1.0: sched_switch: a:1 [120] ==> b:2 [120]", 4).unwrap_err();
        assert!(e.message.contains("PREV_COMM:PREV_PID [PRIO] STATE ==>"), "{e}");
    }

    #[test]
    fn errors_name_the_line_and_the_expectation() {
        let e = parse_line("garbage here", 7).unwrap_err();
        assert_eq!(e.line, 7);
        assert!(e.message.contains("expected"), "{e}");
        let e = parse_line("a-1 [000] 1.0: sched_switch: prev_comm=a prev_pid=1 prev_state=S ==> next_comm=b", 9)
            .unwrap_err();
        assert!(e.to_string().starts_with("line 9: sched_switch: expected next_pid="), "{e}");
        assert_eq!(parse_ts("1.0000000001"), None);
        assert_eq!(prev_state("R+"), Some(PrevState::Runnable));
        assert_eq!(prev_state("D|K"), Some(PrevState::Sleeping));
        assert_eq!(prev_state("64"), Some(PrevState::Dead));
        assert_eq!(prev_state("0"), Some(PrevState::Runnable));
    }
}

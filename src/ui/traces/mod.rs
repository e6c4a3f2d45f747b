//! Real traces on the page: import a recorded `trace-cmd report` / `trace_pipe` / `perf
//! script` text (or this tool's own Perfetto JSON) with the Import trace… button or by
//! dropping it on the page, see it on the same canvas timeline as a simulation with a
//! per-task table, replay it under the page's config and compare.
//!
//! Parts: `job` (the worker's side: chunked reading with progress, format detection, the
//! replay; pure, tested natively), `table` (the sortable per-task and diff tables), `web`
//! (wasm: the page's trace worker, a second instance of the simulation worker bin, so a long
//! parse never holds up the live runs and Cancel terminates only it), `worker::trace_io` (wasm, in
//! the worker: the `File` read in chunks with `FileReaderSync`). The file's bytes never pass
//! through the main thread: the page posts the `File` object, the worker reads it.
//!
//! The panel's state (`TraceState`, its own reducer) is apart from the page's `State`: an
//! import that fails, or a replay, changes neither the config nor the runs. The link cannot
//! carry a file; the panel says so and offers the config link (`share::url` through
//! `State::query`) for the replay.

pub mod job;
pub mod table;
#[cfg(target_arch = "wasm32")]
pub mod web;

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::trace::Trace;
use crate::share::ftrace::TaskStat;
use crate::ui::common::format;
use crate::ui::timeline::{Timeline, ViewLink};
use crate::ui::StateCtx;
use job::{Opened, Replayed};
use table::{Col, DiffSummary, DiffTable, TaskTable};

/// A file being read (or a replay reading it again).
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub id: u64,
    pub name: String,
    pub bytes: u64,
    pub total: u64,
    pub replay: bool,
}

/// A recording shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub name: String,
    /// Names the file for the worker's cache (name, size, modification time).
    pub key: String,
    pub opened: Rc<Opened>,
    pub trace: Rc<Trace>,
    pub tasks: Rc<Vec<TaskStat>>,
}

/// A replay shown.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayView {
    pub result: Rc<Replayed>,
    pub trace: Rc<Trace>,
    pub diff: Rc<crate::share::ftrace::replay::Diff>,
    /// The config's keys that name the kernel and machine, for the heading.
    pub label: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TraceState {
    pub reading: Option<Reading>,
    pub error: Option<String>,
    pub loaded: Option<Loaded>,
    pub replay: Option<ReplayView>,
    pub replay_error: Option<String>,
    pub sort: (Col, bool),
    pub diff_sort: (Col, bool),
    pub highlight: Option<usize>,
}

impl Default for TraceState {
    fn default() -> Self {
        TraceState {
            reading: None,
            error: None,
            loaded: None,
            replay: None,
            replay_error: None,
            sort: (Col::Runtime, true),
            diff_sort: (Col::Runtime, true),
            highlight: None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum TAction {
    /// A file is sent to the worker as job `id` (`replay`: to replay it).
    Start {
        id: u64,
        name: String,
        total: u64,
        replay: bool,
    },
    Progress {
        id: u64,
        bytes: u64,
        total: u64,
    },
    Opened {
        id: u64,
        key: String,
        result: Result<Opened, String>,
    },
    Replayed {
        id: u64,
        label: String,
        result: Result<Replayed, String>,
    },
    Cancel,
    /// The trace worker could not start: what the panel says (`protocol::WorkerDown`). The
    /// file is not read (the page never reads one itself); the rest is unchanged.
    WorkerDown(String),
    /// A file refused before any reading (too large, unreadable, the worker failed).
    Fail(String),
    Sort(Col),
    DiffSort(Col),
    Pick(usize),
}

/// The next sort for a header click: the same column reverses, a new one starts descending
/// (names ascending).
fn next_sort(cur: (Col, bool), col: Col) -> (Col, bool) {
    if cur.0 == col {
        (col, !cur.1)
    } else {
        (col, col != Col::Task)
    }
}

impl TraceState {
    pub fn apply(mut self, a: TAction) -> TraceState {
        match a {
            TAction::Start { id, name, total, replay } => {
                self.reading = Some(Reading { id, name, bytes: 0, total, replay });
                if replay {
                    self.replay_error = None;
                } else {
                    self.error = None;
                }
            }
            TAction::Progress { id, bytes, total } => {
                if let Some(r) = self.reading.as_mut().filter(|r| r.id == id) {
                    r.bytes = bytes;
                    r.total = total;
                }
            }
            TAction::Opened { id, key, result } => {
                let Some(r) = self.reading.take_if(|r| r.id == id) else { return self };
                match result {
                    Ok(mut o) => {
                        // Moved, not copied: a trace of 10^5 items is megabytes.
                        let tasks = Rc::new(std::mem::take(&mut o.stats.tasks));
                        let trace = Rc::new(std::mem::take(&mut o.trace));
                        self.loaded = Some(Loaded { name: r.name, key, opened: Rc::new(o), trace, tasks });
                        self.replay = None;
                        self.replay_error = None;
                        self.highlight = None;
                        self.error = None;
                    }
                    Err(e) => {
                        let kept = if self.loaded.is_some() {
                            "The trace shown, the config and the runs are unchanged."
                        } else {
                            "The config and the runs are unchanged."
                        };
                        self.error = Some(format!("Cannot import {}: {e}. {kept}", r.name));
                    }
                }
            }
            TAction::Replayed { id, label, result } => {
                if self.reading.take_if(|r| r.id == id).is_none() {
                    return self;
                }
                match result {
                    Ok(mut r) => {
                        let trace = Rc::new(std::mem::take(&mut r.trace));
                        let diff = Rc::new(r.diff.clone());
                        self.replay = Some(ReplayView { result: Rc::new(r), trace, diff, label });
                    }
                    Err(e) => self.replay_error = Some(format!("The replay failed: {e}")),
                }
            }
            TAction::Cancel => {
                if let Some(r) = self.reading.take() {
                    let what = if r.replay { "Replay cancelled" } else { "Import cancelled" };
                    let msg = format!("{what}: {}. Nothing was changed.", r.name);
                    if r.replay {
                        self.replay_error = Some(msg);
                    } else {
                        self.error = Some(msg);
                    }
                }
            }
            TAction::WorkerDown(text) => {
                self.reading = None;
                self.error = Some(text);
            }
            TAction::Fail(e) => {
                self.reading = None;
                self.error = Some(e);
            }
            TAction::Sort(c) => self.sort = next_sort(self.sort, c),
            TAction::DiffSort(c) => self.diff_sort = next_sort(self.diff_sort, c),
            TAction::Pick(i) => self.highlight = if self.highlight == Some(i) { None } else { Some(i) },
        }
        self
    }
}

impl Reducible for TraceState {
    type Action = TAction;
    fn reduce(self: Rc<Self>, a: TAction) -> Rc<Self> {
        Rc::new((*self).clone().apply(a))
    }
}

/// The config keys that decide a replay, as `key=value` text (what the heading names).
pub fn config_label(c: &crate::engine::config::Config) -> String {
    let keys = ["kernel", "hz", "governor", "cpu", "features"];
    keys.iter()
        .filter_map(|k| c.get(k).filter(|v| !(k == &"features" && v.is_empty())).map(|v| format!("{k}={v}")))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A file size as kB or MB.
pub fn size_text(b: u64) -> String {
    if b >= 1_000_000 {
        format!("{} MB", crate::engine::decimal::fixed(b as f64 / 1e6, 1))
    } else {
        format!("{} kB", crate::engine::decimal::fixed(b as f64 / 1e3, 1))
    }
}

/// The largest file the page reads (a 100 MB trace reads in well under a minute).
pub const MAX_TRACE_BYTES: f64 = 1.5e9;

thread_local! {
    /// The panel's handler for a file dropped on the page (`claim_drop`), while mounted.
    #[cfg(target_arch = "wasm32")]
    static DROP: std::cell::RefCell<Option<Callback<web_sys::File>>> = const { std::cell::RefCell::new(None) };
}

/// Whether a file dropped on the page is a trace for this panel (then it is taken): any
/// file but JSON (rt-app and tours, `ui::share`), and JSON whose name says it is a Perfetto
/// export (`.perfetto.json`, `trace` in the name). The content decides in the worker.
#[cfg(target_arch = "wasm32")]
pub fn claim_drop(file: &web_sys::File) -> bool {
    let name = file.name().to_ascii_lowercase();
    let json = name.ends_with(".json");
    let trace_json = json && (name.contains("perfetto") || name.contains("trace"));
    if json && !trace_json {
        return false;
    }
    hand_to_panel(file)
}

/// Gives a file to the mounted panel (false when none is mounted).
#[cfg(target_arch = "wasm32")]
fn hand_to_panel(file: &web_sys::File) -> bool {
    DROP.with(|d| match &*d.borrow() {
        Some(cb) => {
            cb.emit(file.clone());
            true
        }
        None => false,
    })
}

/// The "Import trace…" button, beside "Import rt-app…" in the share bar: the picked file
/// goes to the "Recorded trace" panel, which scrolls into view and shows the reading. A
/// plain function: no state of its own (issue 26: each component is page code).
pub fn trace_import_button() -> Html {
    let on_file = Callback::from(|file: web_sys::File| {
        #[cfg(target_arch = "wasm32")]
        hand_to_panel(&file);
        #[cfg(not(target_arch = "wasm32"))]
        let _ = file;
    });
    crate::ui::common::file_button::file_button(
        "Import trace…",
        "Open a trace-cmd report / trace_pipe text, perf script text of sched events, a trace.dat, or schedscope's Perfetto JSON (or drop the file on the page); it opens in the Recorded trace panel",
        "trace-import",
        ".txt,.dat,.json,.log,text/plain,application/json",
        on_file,
    )
}

#[derive(Properties, PartialEq)]
pub struct TracesPanelProps {}

/// The "Recorded trace" panel.
#[function_component(TracesPanel)]
pub fn traces_panel(_: &TracesPanelProps) -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let st = use_reducer(TraceState::default);
    #[cfg(target_arch = "wasm32")]
    let io = use_mut_ref(|| None::<web::TraceWorker>);
    let link = use_memo((), |_| ViewLink::new(true));
    let copied = use_state(|| None::<bool>);
    let section = use_node_ref();

    // Opening a file (button or drop): the worker reads it.
    #[cfg(target_arch = "wasm32")]
    let open = {
        let (io, st) = (io.clone(), st.clone());
        let section = section.clone();
        use_callback((), move |file: web_sys::File, _| {
            if let Some(el) = section.cast::<web_sys::Element>() {
                el.scroll_into_view();
            }
            let dispatch = st.dispatcher();
            let mut io = io.borrow_mut();
            let w = io.get_or_insert_with(|| web::TraceWorker::new(Callback::from(move |a| dispatch.dispatch(a))));
            w.open(file);
        })
    };
    #[cfg(target_arch = "wasm32")]
    {
        let open = open.clone();
        use_effect_with((), move |_| {
            DROP.with(|d| *d.borrow_mut() = Some(open));
            || DROP.with(|d| *d.borrow_mut() = None)
        });
    }
    let cancel = {
        #[cfg(target_arch = "wasm32")]
        let io = io.clone();
        let st = st.clone();
        Callback::from(move |_: MouseEvent| {
            #[cfg(target_arch = "wasm32")]
            if let Some(w) = io.borrow_mut().as_mut() {
                w.cancel();
            }
            st.dispatch(TAction::Cancel);
        })
    };
    // Replays the loaded trace as `config`'s workload.
    let replay_as = {
        #[cfg(target_arch = "wasm32")]
        let io = io.clone();
        let st = st.clone();
        Callback::from(move |config: crate::engine::config::Config| {
            let label = config_label(&config);
            #[cfg(target_arch = "wasm32")]
            if let (Some(w), Some(l)) = (io.borrow_mut().as_mut(), st.loaded.as_ref()) {
                w.replay(l.key.clone(), config, label);
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (&st, config, label);
        })
    };
    let replay = {
        let (replay_as, ctx) = (replay_as.clone(), ctx.clone());
        Callback::from(move |_: MouseEvent| replay_as.emit(ctx.config.clone()))
    };
    // Replays on another profile: the page's `cpu` follows, so the heading and the link agree.
    let replay_on = {
        let ctx = ctx.clone();
        Callback::from(move |cpu: &'static str| {
            ctx.dispatch(crate::ui::app::state::Action::Set { key: "cpu", value: cpu.into() });
            let mut config = ctx.config.clone();
            let _ = config.set("cpu", cpu);
            replay_as.emit(config);
        })
    };
    let pick = {
        let st = st.clone();
        Callback::from(move |i: usize| st.dispatch(TAction::Pick(i)))
    };
    let sort = {
        let st = st.clone();
        Callback::from(move |c: Col| st.dispatch(TAction::Sort(c)))
    };
    let diff_sort = {
        let st = st.clone();
        Callback::from(move |c: Col| st.dispatch(TAction::DiffSort(c)))
    };
    let copy_link = {
        let (ctx, copied) = (ctx.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let url = crate::ui::common::browser::link_of(&ctx.query());
            let copied = copied.clone();
            crate::ui::common::browser::copy_text(&url, Callback::from(move |ok| copied.set(Some(ok))));
        })
    };

    let reading = st.reading.as_ref().map(|r| {
        let frac = if r.total == 0 { 0.0 } else { r.bytes as f64 / r.total as f64 };
        let what = if r.replay && r.bytes == 0 {
            format!("Replaying {} under the current config…", r.name)
        } else if r.replay {
            format!("Reading {} again for the replay: {} of {}", r.name, size_text(r.bytes), size_text(r.total))
        } else {
            format!("Reading {}: {} of {}", r.name, size_text(r.bytes), size_text(r.total))
        };
        html! {
            <div class="trace-progress" role="status" data-progress={crate::engine::decimal::fixed(frac, 3)}>
                <progress max="1" value={crate::engine::decimal::fixed(frac, 3)} aria-label="Bytes read"></progress>
                <span>{what}</span>
                <button type="button" class="cancel" onclick={cancel.clone()}>{"Cancel"}</button>
            </div>
        }
    });
    let highlight = st.highlight.map(|i| i as u32);
    let loaded = st.loaded.as_ref().map(|l| {
        let s = &l.opened.stats;
        let skipped: u64 = s.skipped.values().sum();
        let summary = format!(
            "{} · {} · {} CPU{} · {} · {} events{}{}",
            l.name,
            l.opened.format,
            l.opened.cpus,
            if l.opened.cpus == 1 { "" } else { "s" },
            format::duration((s.duration_s * 1e9).round() as u64),
            format::count(s.events),
            if skipped > 0 { format!(" · {} other events skipped", format::count(skipped)) } else { String::new() },
            if s.bad_lines > 0 { format!(" · {} unreadable line{} ignored", format::count(s.bad_lines), if s.bad_lines == 1 { "" } else { "s" }) } else { String::new() },
        );
        let skipped_list: Vec<String> = s.skipped.iter().map(|(k, v)| format!("{k} ×{v}")).collect();
        let busy = replay_busy(&st);
        html! {
            <>
            <p class="trace-summary" data-testid="trace-summary">{summary}</p>
            if !s.notices.is_empty() || !skipped_list.is_empty() {
                <details class="trace-notices">
                    <summary>{"What was skipped"}</summary>
                    if !skipped_list.is_empty() { <p>{format!("Events not used (counted): {}", skipped_list.join(", "))}</p> }
                    <ul>{ for s.notices.iter().map(|n| html! { <li>{n.clone()}</li> }) }</ul>
                </details>
            }
            <p class="note trace-link">
                {"The link cannot carry this file: to share the trace, send the file itself. "}
                {"The link carries the config a replay uses: "}
                <button type="button" onclick={copy_link.clone()}>{"Copy config link"}</button>
                { match *copied { Some(true) => " Copied.", Some(false) => " Copy the address bar: the clipboard was refused.", None => "" } }
            </p>
            if let Some(cut) = l.opened.cut {
                <p class="note trace-cut">{format!(
                    "The timeline shows the first {} of {}: at most {} spans and marks reach the page. The tables cover the whole file.",
                    format::duration(cut), format::duration((s.duration_s * 1e9).round() as u64), format::count(job::TRACE_ITEMS as u64)
                )}</p>
            }
            if let Some(rv) = &st.replay {
                // One legend, under the pair: the first timeline's would stand between them.
                <div class="trace-pair">
                    <h3 class="series a">{"Recorded"}</h3>
                    <Timeline trace={l.trace.clone()} label="recorded" highlight={highlight} link={(*link).clone()} />
                    <h3 class="series b">{format!("Simulated: {}", rv.label)}</h3>
                    <Timeline trace={rv.trace.clone()} label="simulated" highlight={highlight} link={(*link).clone()} />
                </div>
                if one_idle(&l.trace) {
                    <p class="note trace-idle">{"The recording has no cpu_idle events, so idle is one colour in both timelines; \
                        the simulation's C-states are not told apart here."}</p>
                }
                if let Some(cut) = rv.result.cut {
                    <p class="note trace-cut">{format!("The simulated timeline shows its first {}; the tables cover the whole replay.", format::duration(cut))}</p>
                }
            } else {
                <Timeline trace={l.trace.clone()} label="recorded" highlight={highlight} />
            }
            <h3>{"Tasks"}</h3>
            <p class="note">{"Click a header to sort, a row to highlight the task on the timeline."}</p>
            <TaskTable tasks={l.tasks.clone()} sort={st.sort} on_sort={sort.clone()} highlight={st.highlight} on_pick={pick.clone()} />
            <div class="trace-replay">
                <button type="button" class="replay" onclick={replay.clone()} disabled={busy}
                    title="Run the trace's program (its bursts, sleeps and who woke whom) under the page's current knobs">
                    {"Replay under current config"}</button>
                <span class="note">{config_label(&ctx.config)}</span>
                <p class="note trace-machine" data-testid="replay-machine">{machine_note(&ctx.config, l.opened.cpus)}</p>
                if let Some(arm) = nearest_arm(&ctx.config) {
                    <button type="button" class="replay-arm" onclick={replay_on.reform(move |_| arm.name)} disabled={busy}
                        title="Set the page's cpu to this profile and replay">{format!("Replay on {}", arm.title)}</button>
                }
            </div>
            if let Some(e) = &st.replay_error { <p class="err" role="alert">{e.clone()}</p> }
            if let Some(rv) = &st.replay {
                <section class="trace-diffview" aria-label="Recorded vs simulated">
                    <h3>{"Recorded vs simulated"}</h3>
                    <p class="note">{format!(
                        "Replayed on {} CPUs under {} ({} events). The error is Σ|simulated − recorded| / Σ recorded over the tasks \
                         (for latency, the percentile over every wakeup); with the trace's own machine and kernel it is the model's error. Recorded {}, simulated {}.",
                        rv.result.config.cores, rv.label, format::count(rv.result.events),
                        format::duration((rv.diff.recorded_duration_s * 1e9).round() as u64),
                        format::duration((rv.diff.simulated_duration_s * 1e9).round() as u64),
                    )}</p>
                    <DiffSummary diff={rv.diff.clone()} sort={st.diff_sort} on_sort={diff_sort.clone()} highlight={st.highlight} on_pick={pick.clone()} />
                    <DiffTable diff={rv.diff.clone()} sort={st.diff_sort} on_sort={diff_sort.clone()} highlight={st.highlight} on_pick={pick.clone()} />
                </section>
            }
            </>
        }
    });
    html! {
        <section class="panel traces" aria-label="Recorded trace" ref={section}>
            <h2>{"Recorded trace"}</h2>
            { for reading }
            if let Some(e) = &st.error { <p class="err trace-error-msg" role="alert">{e.clone()}</p> }
            if let Some(l) = loaded { {l} } else if st.reading.is_none() {
                <p class="note">{"Open a recording with Import trace… at the top (beside Import rt-app…) or drop the file on the page: \
                    record with `trace-cmd record -e sched -e power:cpu_idle` then `trace-cmd report > trace.txt`, or `perf sched record` then `perf script`."}</p>
            }
        </section>
    }
}

/// Whether a recording draws its idle as one state (no `cpu_idle` events; the replay then
/// does too, `job::one_idle_state`).
fn one_idle(t: &Trace) -> bool {
    t.idle_states.len() == 1 && t.idle_states[0] == "idle"
}

/// Which machine a replay runs on and why: a recording's text names its CPU count, not its
/// machine, so the replay takes the page's profile with the recording's CPUs.
pub fn machine_note(c: &crate::engine::config::Config, cpus: u32) -> String {
    format!(
        "The replay runs on the page's machine profile, {} (cpu={}), with the recording's {cpus} CPU{}: \
         the file names no machine. Choose the nearest one under Machine (cpu) for the model's error on its own hardware.",
        c.profile().title,
        c.cpu,
        if cpus == 1 { "" } else { "s" }
    )
}

/// The Arm profile to offer when the page's is not one (a Juno or a phone recording is Arm,
/// and x86 costs and C-states would be a wrong machine): the profile whose idle is `WFI`.
pub fn nearest_arm(c: &crate::engine::config::Config) -> Option<&'static crate::engine::profile::Profile> {
    use crate::engine::profile::{IdleEntry, PROFILES};
    let arm = |p: &crate::engine::profile::Profile| p.cstates.iter().any(|s| s.entry == IdleEntry::Wfi);
    (!arm(c.profile())).then(|| PROFILES.iter().find(|p| arm(p))).flatten()
}

fn replay_busy(st: &TraceState) -> bool {
    st.reading.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::worker::execute::execute;
    use crate::ui::worker::protocol::Request;
    use crate::ui::worker::protocol::Response;

    const TEXT: &str = "\
a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120
b-2 [000] 1.000500: sched_wakeup: comm=a pid=1 prio=120 target_cpu=001
";

    fn opened() -> Result<Opened, String> {
        match execute(&Request::TraceOpen { id: 1, key: "k".into(), text: TEXT.into() }) {
            Response::TraceOpened { result, .. } => result,
            r => panic!("{r:?}"),
        }
    }

    #[test]
    fn a_failed_import_keeps_the_trace_shown_and_says_so() {
        let s = TraceState::default()
            .apply(TAction::Start { id: 1, name: "a.txt".into(), total: 10, replay: false })
            .apply(TAction::Progress { id: 1, bytes: 5, total: 10 });
        assert_eq!(s.reading.as_ref().map(|r| r.bytes), Some(5));
        let s = s.apply(TAction::Opened { id: 1, key: "k".into(), result: opened() });
        assert!(s.loaded.is_some() && s.reading.is_none());
        let s = s
            .apply(TAction::Start { id: 2, name: "bad.txt".into(), total: 3, replay: false })
            .apply(TAction::Opened { id: 2, key: "b".into(), result: Err("line 4: expected X".into()) });
        assert_eq!(s.loaded.as_ref().map(|l| l.name.as_str()), Some("a.txt"));
        let e = s.error.clone().unwrap();
        assert!(e.contains("line 4: expected X") && e.contains("unchanged"), "{e}");
        // A stale answer (cancelled job) is dropped.
        let s = s.apply(TAction::Opened { id: 9, key: "z".into(), result: opened() });
        assert_eq!(s.loaded.as_ref().map(|l| l.key.as_str()), Some("k"));
        let s = s.apply(TAction::Sort(Col::Runtime));
        assert_eq!(s.sort, (Col::Runtime, false));
        let s = s.apply(TAction::Sort(Col::Task)).apply(TAction::Pick(1));
        assert_eq!((s.sort, s.highlight), ((Col::Task, false), Some(1)));
        assert_eq!(s.apply(TAction::Pick(1)).highlight, None);
    }

    #[test]
    fn a_replay_says_which_machine_it_runs_on_and_offers_the_arm_profile() {
        let c = crate::engine::config::Config::default();
        let n = machine_note(&c, 6);
        assert!(n.contains("Skylake-SP") && n.contains("6 CPUs") && n.contains("names no machine"), "{n}");
        let arm = nearest_arm(&c).expect("an Arm profile to offer on skylake-sp");
        assert_eq!(arm.name, "rpi5");
        let mut on_arm = c.clone();
        on_arm.set("cpu", arm.name).unwrap();
        assert!(nearest_arm(&on_arm).is_none(), "nothing to offer when the page is on Arm already");
    }

    #[test]
    fn the_heading_names_the_kernel_and_machine() {
        let c = crate::engine::config::Config::default();
        let l = config_label(&c);
        assert!(l.contains("kernel=") && l.contains("hz=") && l.contains("governor="), "{l}");
    }
}

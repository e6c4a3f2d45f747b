//! What crosses between the page and the views module for the inspector (issue 26's code
//! splitting): `Seam`, what the panel shows for the selected span and nothing more (the
//! span's lines, its decision records from the page's trace or from the records fetched on
//! demand, the names of the tasks they mention, what ran instead of a woken task, and where
//! the search for records stands), built from the app's state (`Seam::of`) and sent as
//! `worker::wire` bytes. The trace itself never crosses. Pure (no web crate).

use std::rc::Rc;

use crate::engine::explain::{IdleRecord, MigrateRecord, PickRecord, WakeRecord};
use crate::engine::time::Ns;
use crate::engine::trace::Trace;
use crate::ui::app::state::State;
use crate::ui::inspect::find;
use crate::ui::worker::wire::{Reader, Wire};

/// The panel's inputs: None before a span is selected (the hint).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seam {
    pub sel: Option<Selected>,
}

/// The selected span as the panel shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selected {
    /// The span's lines (the hover tooltip's, `timeline::draw::describe`).
    pub details: Vec<String>,
    pub moved: Option<MigrateRecord>,
    pub wake: Option<WakeRecord>,
    pub pick: Option<PickRecord>,
    pub idle: Option<IdleRecord>,
    /// The names of the tasks the records mention (the trace's `tasks`).
    pub names: Vec<(u32, String)>,
    /// What the wakeup's target ran meanwhile (`find::ran_instead`).
    pub instead: Vec<(String, Ns)>,
    /// Whether a task (not only idle or overheads) is among `instead`.
    pub instead_task: bool,
    /// Where the trace's spans on the wakeup's target stop, when before its end.
    pub spans_stop: Option<Ns>,
    /// The page is asking for this span's records (`find::ask_range`).
    pub fetch: bool,
    /// The records fetched on demand answer for this span.
    pub answered: bool,
    /// The page's own records hold this span's decisions.
    pub page_found: bool,
    /// Why no decision shows, when none does (`none_text`).
    pub none_text: String,
}

impl Selected {
    /// A task's name, as the trace has it.
    pub fn name(&self, t: u32) -> String {
        self.names.iter().find(|(i, _)| *i == t).map_or_else(|| format!("task {t}"), |(_, n)| n.clone())
    }
}

/// Whether the shown run may fetch records for this trace: the current config's full run.
pub fn fetchable(s: &State, trace: &Rc<Trace>) -> bool {
    s.result.as_ref().is_some_and(|r| r.gen == s.gen && !r.preview && Rc::ptr_eq(&r.trace, trace))
}

/// Where the trace's spans on a wakeup's target stop, when that is before the wakeup's end
/// (a bounded trace): "what ran instead" is then partial.
fn spans_stop(trace: &Trace, r: &WakeRecord) -> Option<Ns> {
    let at = r.ran_at?;
    let last = trace.spans.iter().filter(|s| s.core == r.target).map(|s| s.end).max().unwrap_or(0);
    (last < at).then_some(last)
}

/// Why a span has no decision: past the page's budget of records (`protocol::PAGE_DECISIONS`),
/// or a span no decision leads to.
fn none_text(trace: &Trace, span: &crate::engine::trace::Span) -> String {
    let d = &trace.decisions;
    let last = d
        .wakeups
        .iter()
        .map(|r| r.time)
        .chain(d.picks.iter().map(|r| r.time))
        .chain(d.idles.iter().map(|r| r.time))
        .max();
    match last {
        Some(t) if d.len() >= crate::ui::worker::protocol::PAGE_DECISIONS - 10 && span.start > t => format!(
            "No decision recorded here: the page keeps the first {} decisions, up to {}. \
             Zoom into that stretch, or run `schedscope run --explain {}` with this config for this instant.",
            crate::ui::common::format::count(d.len() as u64),
            crate::ui::common::format::duration(t),
            crate::engine::time::human_duration(span.start),
        ),
        _ => "No decision recorded for this span (outside the recorded window, or a span no decision leads to).".into(),
    }
}

impl Seam {
    /// The panel's inputs for span `span` of `trace` (the state, when there is one, holds
    /// the records fetched on demand and says whether this run may ask for more).
    pub fn of(s: Option<&State>, trace: &Rc<Trace>, span: Option<usize>) -> Seam {
        let Some(sp) = span.and_then(|i| trace.spans.get(i)) else { return Seam::default() };
        let may_fetch = s.is_some_and(|s| fetchable(s, trace));
        // Records fetched on demand for this run, if they answer for the span.
        let od = s.filter(|_| may_fetch).and_then(|s| {
            let digest = &s.result.as_ref()?.metrics.digest;
            s.inspect.on_demand.clone().filter(|o| o.gen == s.gen && &o.digest == digest)
        });
        let mut found = find::decisions_for(trace, sp);
        let page_found = !found.is_empty();
        let answered = od.as_ref().is_some_and(|o| o.answers(sp.start));
        let fetch = !page_found && !answered && may_fetch;
        if !page_found && answered {
            if let Some(o) = &od {
                found = o.find(sp);
            }
        }
        let mut ids: Vec<u32> = Vec::new();
        if let Some(m) = found.moved {
            ids.push(m.task);
        }
        if let Some(w) = found.wake {
            ids.push(w.task);
            ids.extend(w.preempt.as_ref().map(|p| p.curr));
        }
        if let Some(p) = found.pick {
            ids.push(p.chosen);
            ids.extend(p.queue.iter().map(|e| e.task));
        }
        ids.sort_unstable();
        ids.dedup();
        let names = ids.into_iter().filter_map(|t| Some((t, trace.tasks.get(t as usize)?.name.clone()))).collect();
        let instead = found.wake.map(|w| find::ran_instead(trace, w)).unwrap_or_default();
        let instead_task = instead.iter().any(|(n, _)| trace.tasks.iter().any(|t| &t.name == n));
        let none = found.is_empty() && !fetch;
        Seam {
            sel: Some(Selected {
                details: crate::ui::timeline::draw::describe(trace, span.unwrap_or(0)),
                moved: found.moved.cloned(),
                wake: found.wake.cloned(),
                pick: found.pick.cloned(),
                idle: found.idle.cloned(),
                names,
                instead,
                instead_task,
                spans_stop: found.wake.and_then(|w| spans_stop(trace, w)),
                fetch,
                answered,
                page_found,
                none_text: if none && !answered { none_text(trace, sp) } else { String::new() },
            }),
        }
    }
}

impl Wire for Selected {
    fn put(&self, w: &mut Vec<u8>) {
        let Selected {
            details,
            moved,
            wake,
            pick,
            idle,
            names,
            instead,
            instead_task,
            spans_stop,
            fetch,
            answered,
            page_found,
            none_text,
        } = self;
        details.put(w);
        moved.put(w);
        wake.put(w);
        pick.put(w);
        idle.put(w);
        names.put(w);
        instead.put(w);
        instead_task.put(w);
        spans_stop.put(w);
        fetch.put(w);
        answered.put(w);
        page_found.put(w);
        none_text.put(w);
    }
    fn get(r: &mut Reader) -> Self {
        Selected {
            details: Wire::get(r),
            moved: Wire::get(r),
            wake: Wire::get(r),
            pick: Wire::get(r),
            idle: Wire::get(r),
            names: Wire::get(r),
            instead: Wire::get(r),
            instead_task: Wire::get(r),
            spans_stop: Wire::get(r),
            fetch: Wire::get(r),
            answered: Wire::get(r),
            page_found: Wire::get(r),
            none_text: Wire::get(r),
        }
    }
}

impl Wire for Seam {
    fn put(&self, w: &mut Vec<u8>) {
        self.sel.put(w)
    }
    fn get(r: &mut Reader) -> Self {
        Seam { sel: Wire::get(r) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::{SpanKind, TraceOptions};
    use crate::ui::worker::wire::{decode, encode};

    fn traced() -> Rc<Trace> {
        let mut c = (crate::engine::presets::preset("messaging-run-to-parity").unwrap().config)();
        c.set("duration", "10ms").unwrap();
        Rc::new(crate::engine::run(&c, Some(TraceOptions::default())).unwrap().trace)
    }

    /// Every kind of record the panel shows crosses whole, with the names it mentions.
    #[test]
    fn a_selection_with_each_kind_of_record_crosses_whole() {
        let t = traced();
        let runs = || t.spans.iter().enumerate().filter(|(_, s)| matches!(s.kind, SpanKind::Run { .. }));
        let wake = runs().find(|(_, s)| find::decisions_for(&t, s).wake.is_some()).unwrap().0;
        let moved = runs().find(|(_, s)| find::decisions_for(&t, s).moved.is_some()).unwrap().0;
        let idle = t.spans.iter().position(|s| find::decisions_for(&t, s).idle.is_some()).unwrap();
        let pick = runs().find(|(_, s)| find::decisions_for(&t, s).pick.is_some()).unwrap().0;
        for i in [wake, moved, idle, pick] {
            let seam = Seam::of(None, &t, Some(i));
            let sel = seam.sel.as_ref().unwrap();
            assert!(sel.page_found && !sel.fetch && sel.none_text.is_empty(), "{sel:?}");
            assert_eq!(decode::<Seam>(&encode(&seam)).unwrap(), seam);
        }
        let w = Seam::of(None, &t, Some(wake)).sel.unwrap();
        let task = w.wake.as_ref().unwrap().task;
        assert_eq!(w.name(task), t.tasks[task as usize].name);
        assert!(!w.details.is_empty());
        assert_eq!(decode::<Seam>(&encode(&Seam::default())).unwrap(), Seam::default());
    }

    /// The seam carries the selection, not the trace: a few KB against the trace's wire size.
    #[test]
    fn the_seam_is_the_selection_not_the_trace() {
        let t = traced();
        let i = t.spans.iter().position(|s| find::decisions_for(&t, s).wake.is_some()).unwrap();
        let seam = encode(&Seam::of(None, &t, Some(i)));
        let trace = encode(t.as_ref());
        assert!(seam.len() * 20 < trace.len(), "seam {} B, trace {} B", seam.len(), trace.len());
    }

    /// A span without records and no state to fetch with says why, rather than "Finding…".
    #[test]
    fn a_span_without_records_says_why() {
        let t = traced();
        let Some(i) = t.spans.iter().position(|s| find::decisions_for(&t, s).is_empty()) else { return };
        let sel = Seam::of(None, &t, Some(i)).sel.unwrap();
        assert!(!sel.fetch && !sel.page_found && sel.none_text.starts_with("No decision"), "{sel:?}");
    }
}

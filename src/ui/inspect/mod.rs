//! The decision inspector: a panel outside the canvas showing a selected span's details and the engine's decision behind it.
//!
//! The timeline selects a span by click, tap or keyboard (`timeline.rs`); this panel shows
//! what the hover tooltip shows (so phones get it too) and the matching records of
//! `engine::explain` (`find::decisions_for`): a wakeup's candidates, signal and latency as
//! a stacked bar of its parts; a pick's runqueue with lag and deadlines and the rule; an idle
//! entry's governor numbers, tick decision and verdict; for a run on a CPU its task was moved
//! to since it last ran, why it moved (`MigrateRecord`: the placement or balance path, the
//! domain, the figures compared, `task_hot`). Every number has its unit and the kernel
//! function it mirrors.
//!
//! A span the page holds no records for (past the first `protocol::PAGE_DECISIONS`, or in a
//! window recorded later) gets them on demand: the panel says "Finding the decisions…" and
//! asks the page (`InspectAction::NeedDecisions`) to simulate the same run again recording a small
//! window around it (`find::ask_range`); the answer (`InspectState::on_demand`, taken only when its
//! digest is the shown run's) then fills the panel. Only the current config's full run asks:
//! a pinned A's or a preview's timeline shows where the records stop.
//!
//! Code splitting (issue 26): `Inspector` is the page's mount. It builds the panel's inputs
//! (`seam::Seam`: the selected span's lines and records, not the trace) and asks for the
//! records on demand; in the browser it hands the seam as wire bytes to the views module
//! (`common::lazy`, asked for once the first figure is in), which draws `view::InspectView`
//! into a `<div>` this component's yew leaves empty (`lazy`), and the panel's close button
//! comes back as `on_close`. Meanwhile a selection says "Loading…", and if the module fails,
//! why (the timeline, its selection and the config untouched; the next selection retries:
//! `use_views` asks again once the handle is back to `Idle`).
//! Natively (yew's server renderer, the SSR tests) the panel is drawn in place.

pub mod find;
pub mod governors;
#[cfg(target_arch = "wasm32")]
pub mod lazy;
pub mod seam;
pub mod state;
pub mod view;

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::trace::Trace;
use crate::ui::inspect::seam::Seam;

pub use view::TOP_ROWS;

#[derive(Properties, PartialEq)]
pub struct InspectProps {
    pub trace: Rc<Trace>,
    /// Index into `trace.spans`.
    pub span: Option<usize>,
    pub on_close: Callback<()>,
}

/// The panel's inputs, and asks for the span's records when the page holds none.
#[hook]
fn use_seam(p: &InspectProps) -> Seam {
    let ctx = use_context::<crate::ui::StateCtx>();
    let seam = Seam::of(ctx.as_deref(), &p.trace, p.span);
    let fetch = seam.sel.as_ref().is_some_and(|s| s.fetch);
    let span_at = p.span.and_then(|i| p.trace.spans.get(i)).copied();
    let (trace, key) = (p.trace.clone(), (p.span, Rc::as_ptr(&p.trace) as usize, fetch));
    use_effect_with(key, move |_| {
        if let (true, Some(ctx), Some(sp)) = (fetch, ctx, span_at) {
            let (from, to, at) = find::ask_range(&trace, &sp);
            ctx.dispatch(crate::ui::app::state::Action::Inspect(state::InspectAction::NeedDecisions { from, to, at }));
        }
    });
    seam
}

/// Natively: the panel in place.
#[cfg(not(target_arch = "wasm32"))]
#[function_component(Inspector)]
pub fn inspector(p: &InspectProps) -> Html {
    let seam = use_seam(p);
    html! { <view::InspectView {seam} on_close={p.on_close.clone()} /> }
}

#[cfg(target_arch = "wasm32")]
pub use web::Inspector;

#[cfg(target_arch = "wasm32")]
mod web {
    use super::*;
    use wasm_bindgen::prelude::*;

    use crate::ui::common::lazy::LazyMount;

    /// In the browser: the module's mount (`lazy::LazyMount`).
    #[function_component(Inspector)]
    pub fn inspector(p: &InspectProps) -> Html {
        let ctx = use_context::<crate::ui::StateCtx>();
        // The first figure first: the module is asked for once the full run's figures are
        // in (a preview's are not the first figure), or when a span is selected.
        let shown = |s: &crate::ui::StateCtx| s.result.as_ref().is_some_and(|r| !r.preview) || s.run_error.is_some();
        let wanted = p.span.is_some() || ctx.as_ref().is_none_or(shown);
        let bytes = Rc::new(crate::ui::worker::wire::encode(&use_seam(p)));
        // The module's close button.
        let args: Rc<Vec<JsValue>> = {
            let on_close = p.on_close.clone();
            use_memo(on_close, |on_close| {
                let on_close = on_close.clone();
                vec![Closure::<dyn Fn()>::new(move || on_close.emit(())).into_js_value()]
            })
        };
        // After a failure, the next selection tries again. A loading line only for a
        // selection: before one, the hint is all the panel would say (and an embed hides
        // it), so no line under every timeline while the module loads.
        html! {
            <LazyMount api="schedscopeInspector" {wanted} {bytes} {args} class="inspect-mount"
                retry={p.span.map_or(0, |s| s as u64 + 1)}
                loading={p.span.is_some().then(|| ("Loading the inspector…".into(), "note inspect-loading".into()))}
                show_failure=true what="The inspector"
                then="The timeline and your config are as they were; select a span again to try again." />
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::explain::{Part, WakeRecord};
    use crate::engine::time::Ns;
    use crate::engine::trace::{SpanKind, TraceOptions};

    async fn render(trace: Rc<Trace>, span: usize) -> String {
        let props = InspectProps { trace, span: Some(span), on_close: Callback::noop() };
        tokio::task::LocalSet::new()
            .run_until(yew::LocalServerRenderer::<Inspector>::with_props(props).hydratable(false).render())
            .await
    }

    fn traced(preset: &str, set: &[(&str, &str)]) -> Rc<Trace> {
        let mut c = (crate::engine::presets::preset(preset).unwrap().config)();
        for (k, v) in set {
            c.set(k, v).unwrap();
        }
        Rc::new(crate::engine::run(&c, Some(TraceOptions::default())).unwrap().trace)
    }

    /// Issue 29: a click opened a 160-row EEVDF pick table. The top rows show, the chosen
    /// task first, and one button shows the rest.
    #[tokio::test]
    async fn a_long_pick_table_shows_its_top_rows_and_the_chosen_task_first() {
        let t = traced("intro", &[("kernel", "6.6"), ("workload", "hackbench"), ("groups", "1"), ("duration", "20ms")]);
        let (i, pick) = t
            .spans
            .iter()
            .enumerate()
            .find_map(|(i, s)| find::decisions_for(&t, s).pick.filter(|p| p.queue.len() > TOP_ROWS + 2).map(|p| (i, p)))
            .expect("a pick among more than 10 queued tasks");
        let html = render(t.clone(), i).await;
        let rq = &html[html.find("class=\"inspect-rq\"").unwrap()..];
        let rq = &rq[..rq.find("</table>").unwrap()];
        assert_eq!(rq.matches("<tr data-task=").count(), TOP_ROWS, "{rq}");
        assert!(
            rq.contains(&format!("<tr data-task=\"{}\" class=\"chosen\"", pick.chosen)) || rq.contains("◀ chosen"),
            "{rq}"
        );
        assert!(
            rq.find("◀ chosen").unwrap() < rq.find("</tr><tr").map_or(usize::MAX, |k| k + 200),
            "the chosen row first"
        );
        assert!(html.contains(&format!("Show all {} rows", pick.queue.len())), "one click shows the rest");
    }

    /// Issue 29: long tables collapse to their top rows. A wakeup on a 40-CPU machine listed
    /// every candidate CPU (about 40 rows); the chosen CPU comes first and one button shows
    /// the rest.
    #[tokio::test]
    async fn a_long_candidates_table_shows_its_top_rows_and_the_chosen_cpu_first() {
        let t = traced("messaging-run-to-parity", &[("duration", "5ms")]);
        let (i, w) = t
            .spans
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, SpanKind::Run { .. }))
            .find_map(|(i, s)| {
                find::decisions_for(&t, s).wake.filter(|w| w.candidates.len() > TOP_ROWS + 2).map(|w| (i, w))
            })
            .expect("a wakeup that looked at more than 10 CPUs");
        let html = render(t.clone(), i).await;
        let at = html.find("class=\"inspect-cands\"").unwrap();
        let table = &html[at..at + html[at..].find("</table>").unwrap()];
        assert_eq!(table.matches("<tr data-cpu=").count(), TOP_ROWS, "{table}");
        let first = &table[table.find("<tbody>").unwrap()..];
        assert!(first.starts_with(&format!("<tbody><tr data-cpu=\"{}\" class=\"chosen\"", w.target)), "{first}");
        assert!(html.contains(&format!("Show all {} rows", w.candidates.len())), "one click shows the rest");
    }

    /// Issue 29: the breakdown ended in "other: the core's other work". It names what ran.
    #[tokio::test]
    async fn a_wakeup_names_what_ran_instead() {
        let t = traced("messaging-run-to-parity", &[("duration", "30ms")]);
        let other = |w: &WakeRecord| w.parts.iter().find(|p| p.0 == Part::Other).map_or(0, |p| p.1);
        let covered =
            |w: &WakeRecord| t.spans.iter().any(|s| s.core == w.target && s.end >= w.ran_at.unwrap_or(Ns::MAX));
        let (i, w) = t
            .spans
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                find::decisions_for(&t, s).wake.filter(|_| matches!(s.kind, SpanKind::Run { .. })).map(|w| (i, w))
            })
            .filter(|(_, w)| covered(w))
            .max_by_key(|(_, w)| other(w))
            .unwrap();
        assert!(other(w) > 0);
        let html = render(t.clone(), i).await;
        let (name, _) = find::ran_instead(&t, w).into_iter().next().unwrap();
        assert!(html.contains(&format!("ran instead {name}")), "the other row names {name}");
        assert!(html.contains(&format!("data-instead=\"{name}\"")), "and the table lists it");
    }

    /// Issue 31: a run on the CPU a task was moved to says why it moved: the path, the
    /// domain and what task_hot found for a balancer pull; the placement for a wakeup.
    #[tokio::test]
    async fn a_run_after_a_migration_says_why_the_task_moved() {
        use crate::engine::explain::MoveCause;
        let t = traced("messaging-run-to-parity", &[("duration", "10ms")]);
        let moved = |pull: bool| {
            t.spans.iter().enumerate().filter(|(_, s)| matches!(s.kind, SpanKind::Run { .. })).find_map(|(i, s)| {
                find::decisions_for(&t, s).moved.filter(|m| m.cause.balancer() == pull).map(|m| (i, m))
            })
        };
        let (i, m) = moved(true).expect("a run after a balancer pull");
        assert!(matches!(m.cause, MoveCause::NewIdle | MoveCause::NohzIdle | MoveCause::Periodic));
        let html = render(t.clone(), i).await;
        assert!(html.contains(&format!("data-cause=\"{}\"", m.cause.name())), "{html}");
        assert!(html.contains(&format!("at the {} domain", m.domain)), "{html}");
        assert!(html.contains("task_hot"), "{html}");
        let (i, m) = moved(false).expect("a run after a wakeup that moved its task");
        let html = render(t.clone(), i).await;
        assert!(html.contains(&format!("CPU {} \u{2192} CPU {}", m.from, m.to)), "{html}");
        assert!(html.contains(&m.cause.text().replace('>', "&gt;")), "{html}");
    }
}

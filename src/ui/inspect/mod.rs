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

pub mod find;
pub mod governors;
pub mod state;

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::explain::{MigrateRecord, Part, PickRecord, WakeRecord};
use crate::engine::time::Ns;
use crate::engine::trace::Trace;

#[derive(Properties, PartialEq)]
pub struct InspectProps {
    pub trace: Rc<Trace>,
    /// Index into `trace.spans`.
    pub span: Option<usize>,
    pub on_close: Callback<()>,
}

fn us(ns: Ns) -> String {
    if ns == Ns::MAX {
        return "none".into();
    }
    format!("{:.3} µs", ns as f64 / 1e3)
}

/// A colour per latency part (the bar and its key).
fn part_colour(p: Part) -> &'static str {
    const C: [&str; 12] = [
        "#e6550d", "#fd8d3c", "#6baed6", "#9e9ac8", "#fdae6b", "#74c476", "#bdbdbd", "#969696", "#d9d9d9", "#3182bd",
        "#31a354", "#636363",
    ];
    C[p as usize]
}

fn task_name(trace: &Trace, t: u32) -> String {
    trace.tasks.get(t as usize).map_or_else(|| format!("task {t}"), |k| k.name.clone())
}

/// Rows a long table shows before "Show all N" (a 160-task pick table filled the page).
pub const TOP_ROWS: usize = 8;

/// A table of `rows` under `head` showing the first `TOP_ROWS`, and a button for the rest.
#[function_component(LongTable)]
fn long_table(p: &LongTableProps) -> Html {
    let open = use_state(|| false);
    let hidden = p.rows.len().saturating_sub(TOP_ROWS);
    let shown = if *open { p.rows.len() } else { p.rows.len() - hidden };
    let onclick = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    html! {
        <>
            <table class={p.class}>
                if let Some(c) = &p.caption { <caption>{c.clone()}</caption> }
                <thead>{p.head.clone()}</thead>
                <tbody>{ for p.rows[..shown].iter().cloned() }</tbody>
            </table>
            if hidden > 0 {
                <button type="button" class="more-rows" aria-expanded={open.to_string()} {onclick}>
                    { if *open { "Show the top rows only".to_string() } else { format!("Show all {} rows ({hidden} more)", p.rows.len()) } }
                </button>
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct LongTableProps {
    class: &'static str,
    #[prop_or_default]
    caption: Option<String>,
    head: Html,
    rows: Vec<Html>,
}

/// `rows` with those `chosen` says first, each group in its own order.
fn chosen_first<T>(rows: &[T], chosen: impl Fn(&T) -> bool) -> Vec<&T> {
    let mut v: Vec<&T> = rows.iter().collect();
    crate::engine::order::sort_by_key(&mut v, |r| !chosen(r));
    v
}

/// Where the trace's spans on a wakeup's target stop, when that is before the wakeup's end
/// (a bounded trace): "what ran instead" is then partial.
fn spans_stop(trace: &Trace, r: &WakeRecord) -> Option<Ns> {
    let at = r.ran_at?;
    let last = trace.spans.iter().filter(|s| s.core == r.target).map(|s| s.end).max().unwrap_or(0);
    (last < at).then_some(last)
}

fn wake_html(trace: &Trace, r: &WakeRecord) -> Html {
    let total = r.latency().unwrap_or(0).max(1);
    let instead = find::ran_instead(trace, r);
    let instead_short = instead.iter().take(3).map(|(n, d)| format!("{n} {}", us(*d))).collect::<Vec<_>>().join(", ");
    html! {
        <section class="inspect-wake" data-kind="wakeup" data-latency-ns={r.latency().unwrap_or(0).to_string()}>
            <h4>{format!("Wakeup of {} at {} (try_to_wake_up)", task_name(trace, r.task), us(r.time))}</h4>
            <p>{format!("wake_affine: {}", r.affine)}</p>
            // The chosen CPU first: the top rows a collapsed table shows hold the answer (a
            // wakeup on a 40-CPU machine lists about 40 candidates).
            <LongTable class="inspect-cands"
                caption={"CPUs select_task_rq looked at".to_string()}
                head={html! { <tr><th>{"CPU"}</th><th>{"as"}</th><th>{"idle_cpu()"}</th><th>{"nr_running"}</th></tr> }}
                rows={chosen_first(&r.candidates, |c| c.cpu == r.target).into_iter().map(|c| html! {
                    <tr class={if c.cpu == r.target { "chosen" } else { "" }} data-cpu={c.cpu.to_string()}>
                        <td>{c.cpu}</td><td>{c.role.clone()}</td><td>{c.idle.to_string()}</td><td>{c.nr_running}</td>
                    </tr>
                }).collect::<Vec<Html>>()} />
            <p>{format!("Chosen: {}", r.reason)}</p>
            if let Some(d) = r.delivery { <p>{format!("Signal: {}", d.text())}</p> }
            if let Some(p) = &r.preempt {
                <p>{format!("check_preempt_wakeup vs {}: {} ({}; vruntime lead {} ns)",
                    task_name(trace, p.curr), if p.preempt { "preempt" } else { "no preemption" }, p.rule, p.vruntime_lead_ns)}</p>
            }
            <p>{format!("ttwu on the waker, before the latency starts: {}", us(r.ttwu_waker_ns))}</p>
            if let Some(l) = r.latency() {
                <p><strong>{format!("Wakeup latency {} (metrics' wakeup_latency_us sample)", us(l))}</strong></p>
                <div class="inspect-bar" role="img" aria-label="Wakeup latency parts"
                    style="display:flex;height:1.4em;width:100%;border:1px solid #999;margin:0.3em 0">
                    { for r.parts.iter().map(|(p, ns)| html! {
                        <div data-part={p.name()} data-ns={ns.to_string()} title={format!("{}: {}", p.name(), us(*ns))}
                            style={format!("width:{}%;background:{}", *ns as f64 * 100.0 / total as f64, part_colour(*p))}></div>
                    }) }
                </div>
                <table class="inspect-parts">
                    <tr><th>{"part"}</th><th>{"time"}</th><th>{"mirrors"}</th></tr>
                    { for r.parts.iter().map(|(p, ns)| html! {
                        <tr data-part={p.name()}>
                            <td><span style={format!("display:inline-block;width:0.8em;height:0.8em;margin-right:0.3em;background:{}", part_colour(*p))}></span>{p.name()}</td>
                            <td class="ns" data-ns={ns.to_string()}>{us(*ns)}</td>
                            // "Other" is the time no closed span explained: name what held the CPU.
                            <td>{ if matches!(p, Part::Other | Part::RunqueueWait) && !instead_short.is_empty() {
                                format!("{}: ran instead {instead_short}", p.kernel_fn())
                            } else { p.kernel_fn().to_string() } }</td>
                        </tr>
                    }) }
                </table>
                if let Some(stop) = spans_stop(trace, r) {
                    <p class="inspect-note">{format!("The timeline's spans on CPU {} stop at {}: what ran after that is not recorded on the page.", r.target, us(stop))}</p>
                }
                // Only when another task held the CPU: idle and overheads are the parts above.
                if instead.iter().any(|(n, _)| trace.tasks.iter().any(|t| &t.name == n)) {
                    <LongTable class="inspect-instead"
                        caption={format!("What CPU {} ran meanwhile (the timeline's spans, {} to {})", r.target, us(r.time), us(r.ran_at.unwrap_or(r.time)))}
                        head={html! { <tr><th>{"task or work"}</th><th>{"time"}</th></tr> }}
                        rows={instead.iter().map(|(n, d)| html! {
                            <tr data-instead={n.clone()}><td>{n.clone()}</td><td class="ns" data-ns={d.to_string()}>{us(*d)}</td></tr>
                        }).collect::<Vec<Html>>()} />
                }
            } else {
                <p>{"The task had not run by the end of the trace."}</p>
            }
        </section>
    }
}

/// Why the task came to this CPU: the path as the kernel names it and the figures it compared.
fn move_html(trace: &Trace, r: &MigrateRecord) -> Html {
    html! {
        <section class="inspect-move" data-kind="migration" data-cause={r.cause.name()} data-domain={r.domain.clone()}>
            <h4>{format!("{} moved CPU {} \u{2192} CPU {} at {} ({})", task_name(trace, r.task), r.from, r.to, us(r.time), r.cause.name())}</h4>
            <p>{ if r.domain.is_empty() { r.cause.text().to_string() } else { format!("{}, at the {} domain", r.cause.text(), r.domain) } }</p>
            if !r.figures.is_empty() {
                <table class="inspect-move-t">
                    { for r.figures.iter().map(|(k, v)| html! { <tr><td>{k.clone()}</td><td>{*v}</td></tr> }) }
                </table>
            }
            if !r.hot.is_empty() { <p>{r.hot.clone()}</p> }
        </section>
    }
}

fn pick_html(trace: &Trace, r: &PickRecord) -> Html {
    let v = r.avg_vruntime as i128;
    let eevdf = r.class == "eevdf";
    // The chosen task first, then the queue in the record's (the rule's) order: the top rows
    // a collapsed table shows hold the answer.
    let queue = chosen_first(&r.queue, |e| e.task == r.chosen);
    html! {
        <section class="inspect-pick" data-kind="pick" data-chosen={r.chosen.to_string()}
            data-rule-pick={r.rule_pick.map(|p| p.to_string()).unwrap_or_default()}>
            <h4>{format!("Pick on CPU {} at {} ({}, pick_next_task): {}", r.core, us(r.time), r.class, task_name(trace, r.chosen))}</h4>
            <p>{format!("Rule: {}", r.rule)}</p>
            if eevdf { <p>{format!("V (avg_vruntime) = {} ns; values below are relative to V, in ns of virtual time", r.avg_vruntime)}</p> }
            <LongTable class="inspect-rq"
                head={html! { <tr>
                    <th>{"task"}</th><th>{"weight"}</th><th>{"vruntime − V"}</th>
                    if eevdf { <th>{"lag (V − v)"}</th><th>{"eligible"}</th><th>{"deadline − V"}</th><th>{"slice"}</th> }
                    if r.class == "sd" { <th>{"deadline"}</th><th>{"quantum left"}</th> }
                </tr> }}
                rows={queue.iter().map(|e| html! {
                    <tr class={if e.task == r.chosen { "chosen" } else { "" }} data-task={e.task.to_string()}>
                        <td>{task_name(trace, e.task)}{if e.task == r.chosen { " ◀ chosen" } else { "" }}</td>
                        <td>{e.weight}</td>
                        <td>{(e.vruntime as i128 - v).to_string()}</td>
                        if eevdf {
                            <td class="lag">{e.lag}</td><td>{e.eligible.to_string()}</td>
                            <td class="deadline">{(e.deadline as i128 - v).to_string()}</td><td>{us(e.slice)}</td>
                        }
                        if r.class == "sd" { <td>{e.deadline}</td><td>{us(e.slice)}</td> }
                    </tr>
                }).collect::<Vec<Html>>()} />
            if r.more() > 0 {
                <p class="inspect-more">{format!("... {} more queued (the record keeps the first {} in the rule's order)", r.more(), crate::engine::explain::PICK_EXCERPT)}</p>
            }
        </section>
    }
}

fn idle_html(r: &crate::engine::explain::IdleRecord) -> Html {
    html! {
        <section class="inspect-idle" data-kind="idle">
            <h4>{format!("Idle entry on CPU {} at {} (cpuidle_select, {}): {}", r.core, us(r.time), r.gov.governor, r.chosen_name)}</h4>
            <table class="inspect-idle-t">
                <tr><td>{"sleep length told to the governor"}</td><td>{us(r.next_timer)}</td><td>{"tick_nohz_get_sleep_length"}</td></tr>
                <tr><td>{"time to the next tick"}</td><td>{us(r.delta_tick)}</td><td>{"delta_tick"}</td></tr>
                <tr><td>{"avg_idle"}</td><td>{us(r.avg_idle)}</td><td>{"rq->avg_idle"}</td></tr>
                { for r.gov.rows.iter().map(|(k, v, u, f)| html! { <tr><td>{k.clone()}</td><td>{format!("{v} {u}")}</td><td>{f.clone()}</td></tr> }) }
                <tr><td>{"tick"}</td><td colspan="2">{r.tick_reason.clone()}</td></tr>
                if let (Some(m), Some(b), Some(v)) = (r.measured, r.best_name.clone(), r.verdict) {
                    <tr><td>{"idled (measured, exit included)"}</td><td>{us(m)}</td><td>{"cpuidle last_residency_ns"}</td></tr>
                    <tr><td>{"best state in hindsight"}</td><td>{b}</td><td>{format!("verdict: {v:?}")}</td></tr>
                }
            </table>
        </section>
    }
}

/// Why a span has no decision: past the page's budget of records (`protocol::PAGE_DECISIONS`),
/// or a span no decision leads to.
fn none_text(trace: &crate::engine::trace::Trace, span: &crate::engine::trace::Span) -> String {
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

/// Whether the shown run may fetch records for this trace: the current config's full run.
fn fetchable(s: &crate::ui::app::state::State, trace: &Rc<Trace>) -> bool {
    s.result.as_ref().is_some_and(|r| r.gen == s.gen && !r.preview && Rc::ptr_eq(&r.trace, trace))
}

#[function_component(Inspector)]
pub fn inspector(p: &InspectProps) -> Html {
    let ctx = use_context::<crate::ui::StateCtx>();
    let span_at = p.span.and_then(|i| p.trace.spans.get(i)).copied();
    // Records fetched on demand for this run, if they answer for the span.
    let od = ctx.as_ref().filter(|s| fetchable(s, &p.trace)).and_then(|s| {
        let digest = &s.result.as_ref()?.metrics.digest;
        s.inspect.on_demand.clone().filter(|o| o.gen == s.gen && &o.digest == digest)
    });
    let page_found = span_at.as_ref().is_some_and(|sp| !find::decisions_for(&p.trace, sp).is_empty());
    let answered = span_at.as_ref().is_some_and(|sp| od.as_ref().is_some_and(|o| o.answers(sp.start)));
    let fetch = !page_found && !answered && ctx.as_ref().is_some_and(|s| fetchable(s, &p.trace));
    {
        let (ctx, trace) = (ctx.clone(), p.trace.clone());
        let key = (p.span, Rc::as_ptr(&p.trace) as usize, fetch);
        use_effect_with(key, move |_| {
            if let (true, Some(ctx), Some(sp)) = (fetch, ctx, span_at) {
                let (from, to, at) = find::ask_range(&trace, &sp);
                ctx.dispatch(crate::ui::app::state::Action::Inspect(state::InspectAction::NeedDecisions {
                    from,
                    to,
                    at,
                }));
            }
        });
    }
    let Some(span) = p.span.and_then(|i| p.trace.spans.get(i)) else {
        return html! {
            <section class="inspector" aria-live="polite">
                <p class="inspect-hint">{"Click or tap a span on the timeline (or focus it and press Enter, [ and ]) to see why."}</p>
            </section>
        };
    };
    let mut found = find::decisions_for(&p.trace, span);
    if found.is_empty() && answered {
        if let Some(o) = &od {
            found = o.find(span);
        }
    }
    let close = p.on_close.reform(|_: MouseEvent| ());
    let none = found.is_empty() && !fetch;
    html! {
        <section class="inspector" aria-live="polite" aria-label="Inspector" style="border:1px solid #aaa;padding:0.4em 0.6em;margin:0.4em 0;overflow-x:auto">
            <button type="button" onclick={close} aria-label="Close the inspector" style="float:right">{"×"}</button>
            <h3 style="margin:0.2em 0">{"Inspector"}</h3>
            <ul class="inspect-details">
                { for crate::ui::timeline::draw::describe(&p.trace, p.span.unwrap_or(0)).into_iter().map(|l| html! { <li>{l}</li> }) }
            </ul>
            if let Some(m) = found.moved { {move_html(&p.trace, m)} }
            if let Some(w) = found.wake { {wake_html(&p.trace, w)} }
            if let Some(k) = found.pick { {pick_html(&p.trace, k)} }
            if let Some(i) = found.idle { {idle_html(i)} }
            if fetch {
                <p class="inspect-finding" role="status">{"Finding the decisions\u{2026} (simulating the run again, recording a small window around this instant)"}</p>
            }
            if none && answered {
                <p class="inspect-none">{"No decision leads to this span (the run was simulated again around it to look)."}</p>
            } else if none { <p class="inspect-none">{none_text(&p.trace, span)}</p> }
            if answered && !page_found && !found.is_empty() {
                <p class="inspect-note" style="font-size:0.85em">{"Decisions found on demand: the run simulated again, recording a small window around this instant (same digest)."}</p>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

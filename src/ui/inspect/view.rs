//! The inspector's panel, drawn from its seam (`seam::Seam`: the selected span's lines and
//! records, never the trace). In the browser it lives in the views module (`lazy`), natively
//! the mount draws it in place (`Inspector`). Every number has its unit and the kernel
//! function it mirrors.

use yew::prelude::*;

use crate::engine::explain::{MigrateRecord, Part, PickRecord, WakeRecord};
use crate::engine::time::Ns;
use crate::ui::inspect::seam::{Seam, Selected};

#[derive(Properties, PartialEq)]
pub struct InspectViewProps {
    pub seam: Seam,
    pub on_close: Callback<()>,
}

fn us(ns: Ns) -> String {
    if ns == Ns::MAX {
        return "none".into();
    }
    format!("{} µs", crate::engine::decimal::fixed(ns as f64 / 1e3, 3))
}

/// A colour per latency part (the bar and its key).
fn part_colour(p: Part) -> &'static str {
    const C: [&str; 12] = [
        "#e6550d", "#fd8d3c", "#6baed6", "#9e9ac8", "#fdae6b", "#74c476", "#bdbdbd", "#969696", "#d9d9d9", "#3182bd",
        "#31a354", "#636363",
    ];
    C[p as usize]
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

fn wake_html(sel: &Selected, r: &WakeRecord) -> Html {
    let total = r.latency().unwrap_or(0).max(1);
    let instead = &sel.instead;
    let instead_short = instead.iter().take(3).map(|(n, d)| format!("{n} {}", us(*d))).collect::<Vec<_>>().join(", ");
    html! {
        <section class="inspect-wake" data-kind="wakeup" data-latency-ns={r.latency().unwrap_or(0).to_string()}>
            <h4>{format!("Wakeup of {} at {} (try_to_wake_up)", sel.name(r.task), us(r.time))}</h4>
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
                    sel.name(p.curr), if p.preempt { "preempt" } else { "no preemption" }, p.rule, p.vruntime_lead_ns)}</p>
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
                if let Some(stop) = sel.spans_stop {
                    <p class="inspect-note">{format!("The timeline's spans on CPU {} stop at {}: what ran after that is not recorded on the page.", r.target, us(stop))}</p>
                }
                // Only when another task held the CPU: idle and overheads are the parts above.
                if sel.instead_task {
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
fn move_html(sel: &Selected, r: &MigrateRecord) -> Html {
    html! {
        <section class="inspect-move" data-kind="migration" data-cause={r.cause.name()} data-domain={r.domain.clone()}>
            <h4>{format!("{} moved CPU {} \u{2192} CPU {} at {} ({})", sel.name(r.task), r.from, r.to, us(r.time), r.cause.name())}</h4>
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

fn pick_html(sel: &Selected, r: &PickRecord) -> Html {
    let v = r.avg_vruntime as i128;
    let eevdf = r.class == "eevdf";
    // The chosen task first, then the queue in the record's (the rule's) order: the top rows
    // a collapsed table shows hold the answer.
    let queue = chosen_first(&r.queue, |e| e.task == r.chosen);
    html! {
        <section class="inspect-pick" data-kind="pick" data-chosen={r.chosen.to_string()}
            data-rule-pick={r.rule_pick.map(|p| p.to_string()).unwrap_or_default()}>
            <h4>{format!("Pick on CPU {} at {} ({}, pick_next_task): {}", r.core, us(r.time), r.class, sel.name(r.chosen))}</h4>
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
                        <td>{sel.name(e.task)}{if e.task == r.chosen { " ◀ chosen" } else { "" }}</td>
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

#[function_component(InspectView)]
pub fn inspect_view(p: &InspectViewProps) -> Html {
    let Some(sel) = &p.seam.sel else {
        return html! {
            <section class="inspector" aria-live="polite">
                <p class="inspect-hint">{"Click or tap a span on the timeline (or focus it and press Enter, [ and ]) to see why."}</p>
            </section>
        };
    };
    let close = p.on_close.reform(|_: MouseEvent| ());
    let found = sel.moved.is_some() || sel.wake.is_some() || sel.pick.is_some() || sel.idle.is_some();
    let none = !found && !sel.fetch;
    html! {
        <section class="inspector" aria-live="polite" aria-label="Inspector" style="border:1px solid #aaa;padding:0.4em 0.6em;margin:0.4em 0;overflow-x:auto">
            <button type="button" onclick={close} aria-label="Close the inspector" style="float:right">{"×"}</button>
            <h3 style="margin:0.2em 0">{"Inspector"}</h3>
            <ul class="inspect-details">
                { for sel.details.iter().map(|l| html! { <li>{l.clone()}</li> }) }
            </ul>
            if let Some(m) = &sel.moved { {move_html(sel, m)} }
            if let Some(w) = &sel.wake { {wake_html(sel, w)} }
            if let Some(k) = &sel.pick { {pick_html(sel, k)} }
            if let Some(i) = &sel.idle { {idle_html(i)} }
            if sel.fetch {
                <p class="inspect-finding" role="status">{"Finding the decisions\u{2026} (simulating the run again, recording a small window around this instant)"}</p>
            }
            if none && sel.answered {
                <p class="inspect-none">{"No decision leads to this span (the run was simulated again around it to look)."}</p>
            } else if none { <p class="inspect-none">{sel.none_text.clone()}</p> }
            if sel.answered && !sel.page_found && found {
                <p class="inspect-note" style="font-size:0.85em">{"Decisions found on demand: the run simulated again, recording a small window around this instant (same digest)."}</p>
            }
        </section>
    }
}

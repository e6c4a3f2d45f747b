//! The controls panel: a preset picker and one control per `KEYS` entry, grouped by each
//! key's `group`, the workload's and the scheduler's (kernel) groups first. A key that does
//! not apply to the config (`Config::applies`) is not listed until "Show the N knobs that do
//! not apply" is pressed; then it shows disabled, with the reason. Every control has `name` equal to its config key: for a numeric key with a
//! slider that is the `<input type=range>` (arrow keys, Home/End, PageUp/PageDown step it to
//! the next distinct value), and the exact-value text box beside it is `<key>-text`.
//!
//! Text is validated on a probe config with the same CPU (`Config::set`); a bad value shows its message
//! inline and never reaches the reducer.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::engine::config::{key_doc, CStates, Config, KeyKind, KEYS};
use crate::engine::kernel::{FeatureDef, Kernel};
use crate::engine::presets::{preset, PRESETS};
use crate::engine::profile::PROFILES;

use crate::ui::app::state::{disabled_note, Action, State};
use crate::ui::common::format::key_value;
use crate::ui::common::scale::{mapping, SLIDER_STEPS};
use crate::ui::ConfigView;

/// The groups a reader looks for first: what runs, then which kernel runs it.
const FIRST_GROUPS: [&str; 2] = ["Workload", "Scheduler"];

/// Group names as the panel lists them: `FIRST_GROUPS`, then the others in KEYS order.
pub fn groups() -> Vec<&'static str> {
    let mut out: Vec<&'static str> =
        FIRST_GROUPS.iter().copied().filter(|g| KEYS.iter().any(|k| k.group == *g)).collect();
    for k in KEYS {
        if !out.contains(&k.group) {
            out.push(k.group);
        }
    }
    out
}

fn input_value(e: &Event) -> String {
    e.target_dyn_into::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default()
}

/// The value of the `<select>` an event came from (empty off one).
pub fn select_value(e: &Event) -> String {
    e.target_dyn_into::<HtmlSelectElement>().map(|i| i.value()).unwrap_or_default()
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    /// Start with the drawer closed (phones).
    #[prop_or_default]
    pub collapsed: bool,
    /// The config and its preset: equal while they are, so a run's answer does not re-render
    /// the panel (`ConfigView`; it reads no context).
    pub config: ConfigView,
}

/// The whole panel: preset picker, its description, then the groups.
#[function_component(Controls)]
pub fn controls(props: &ControlsProps) -> Html {
    let ctx = &props.config;
    let onpreset = {
        let d = ctx.dispatcher();
        Callback::from(move |e: Event| d.dispatch(Action::LoadPreset(select_value(&e))))
    };
    let about = preset_about(ctx.preset(), ctx.config());
    let modified = preset(ctx.preset()).is_some_and(|p| (p.config)() != *ctx.config());
    // Keys that do not apply stay out of the list (and out of the tab order) until asked for.
    let show_all = use_state(|| false);
    let unused = KEYS.iter().filter(|k| ctx.config().applies(k.key) == Ok(false)).count();
    let listed = |k: &&crate::engine::config::KeyDoc| *show_all || ctx.config().applies(k.key) != Ok(false);
    let toggle = {
        let show_all = show_all.clone();
        Callback::from(move |_: MouseEvent| show_all.set(!*show_all))
    };
    html! {
        <details class="drawer" open={!props.collapsed}>
            <summary>{"Controls"}</summary>
            <div class="ctl preset">
                <label for="ctl-preset">{"Preset"}
                    if modified { <span class="val">{" (modified)"}</span> }
                </label>
                <select id="ctl-preset" name="preset" onchange={onpreset}>
                    { for PRESETS.iter().map(|p| html! {
                        <option value={p.name} selected={p.name == ctx.preset()}>{p.title}</option>
                    }) }
                </select>
                <p class="help">{about}</p>
                <p class="machine" data-testid="machine-line">{machine_line(ctx.config())}</p>
                <p class="machine topo" data-testid="machine-topology">{topology_line(ctx.config())}</p>
            </div>
            { for groups().into_iter().filter(|g| KEYS.iter().filter(listed).any(|k| k.group == *g)).map(|g| html! {
                <details class="group" open=true key={g}>
                    <summary>{g}</summary>
                    { for KEYS.iter().filter(listed).filter(|k| k.group == g).map(|k| html! {
                        <KeyControl key={k.key} name={k.key} current={ctx.config().get(k.key).unwrap_or_default()}
                            note={disabled_note(ctx.config(), k.key)} cpu={ctx.config().cpu.clone()}
                            kernel={ctx.config().kernel}
                            dispatch={ctx.dispatcher()} />
                    }) }
                </details>
            }) }
            if unused > 0 {
                <button type="button" class="show-unused" aria-pressed={show_all.to_string()} onclick={toggle}
                    title="Knobs of other workloads, schedulers or modes: listed disabled, each with why">
                    { if *show_all { format!("Hide the {unused} knobs that do not apply") }
                      else { format!("Show the {unused} knobs that do not apply") } }
                </button>
            }
        </details>
    }
}

/// The preset's description while the config runs the preset's workload; after the
/// workload changed it describes another experiment, so it gives way to a line that says so.
pub fn preset_about(name: &str, c: &Config) -> String {
    match preset(name) {
        Some(p) if (p.config)().workload == c.workload => p.about.to_string(),
        Some(p) => format!(
            "Started from \"{}\"; the workload is now {}, so the preset's description no longer applies.",
            p.title,
            c.get("workload").unwrap_or_default()
        ),
        None => String::new(),
    }
}

/// The machine and the kernel a config runs, in one line ("Core 2 Quad Q6600 ..., 4 CPUs; kernel 2.6.23, first CFS (Oct 2007)").
pub fn machine_line(c: &Config) -> String {
    format!("{}, {} CPUs; kernel {}", c.profile().title, c.cores, c.kernel.title())
}

/// The machine's topology and which of its CPUs the config simulates, in one line ("2 sockets
/// x 20 cores x 2 threads = 80 CPUs, 1 LLC per socket; simulating CPUs 0-7 of 80: 8 cores x 1
/// thread, 1 LLC, 1 socket"), from the engine's `Topology` (`ui::common::topology`).
pub fn topology_line(c: &Config) -> String {
    let t = c.profile().topo;
    format!("{}; simulating {}", t.describe(), crate::ui::common::topology::simulated(&t, c.cores))
}

/// What one key's control shows. It takes these as props rather than reading the state's
/// context, so a run's answer (or another key's change) does not re-render every control.
#[derive(Properties, PartialEq)]
pub struct KeyControlProps {
    pub name: &'static str,
    /// The key's value as text (`Config::get`).
    pub current: String,
    /// Why the key does not apply to this config (the control is disabled then).
    pub note: Option<String>,
    /// The config's CPU: a value is validated against it (C-state names).
    pub cpu: String,
    /// The config's kernel era: `features` are validated against its list.
    pub kernel: Kernel,
    pub dispatch: UseReducerDispatcher<State>,
}

/// One key's control: label with the value in units, the input(s), help, messages.
#[function_component(KeyControl)]
pub fn key_control(props: &KeyControlProps) -> Html {
    let Some(doc) = key_doc(props.name) else { return html! {} };
    let current = props.current.clone();
    let note = props.note.clone();
    let disabled = note.is_some();
    let id = format!("ctl-{}", doc.key);
    let help_id = format!("{id}-help");
    let err_id = format!("{id}-err");

    // Draft text and its error, reset whenever the config's value changes underneath.
    let draft = use_state(|| current.clone());
    let error = use_state(|| None::<String>);
    {
        let (draft, error) = (draft.clone(), error.clone());
        use_effect_with(current.clone(), move |v| {
            draft.set(v.clone());
            error.set(None);
        });
    }
    let validate = {
        // `Config::set` checks a value against its range and, for C-state names, the CPU.
        let mut config = Config { cpu: props.cpu.clone(), ..Config::default() };
        config.set_kernel(props.kernel);
        move |v: &str| {
            let mut probe = config.clone();
            probe.set(doc.key, v).err().map(|e| e.message)
        }
    };
    let commit = {
        let (ctx, draft, error, validate) = (props.dispatch.clone(), draft.clone(), error.clone(), validate.clone());
        Callback::from(move |v: String| {
            draft.set(v.clone());
            match validate(&v) {
                Some(msg) => error.set(Some(msg)),
                None => {
                    error.set(None);
                    ctx.dispatch(Action::Set { key: doc.key, value: v });
                }
            }
        })
    };
    // The exact-value text box. With a slider it is the secondary input (`<key>-text`);
    // without one it is the control itself (`name=<key>`).
    let text_input = |with_slider: bool| {
        let (draft_shown, error_shown) = (draft.clone(), error.clone());
        let (draft, error, validate) = (draft.clone(), error.clone(), validate.clone());
        // Typing validates as you go; the change (Enter or leaving the field) commits.
        let oninput = Callback::from(move |e: InputEvent| {
            let v = e.target_dyn_into::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            error.set(validate(&v));
            draft.set(v);
        });
        let commit = commit.clone();
        let onchange = Callback::from(move |e: Event| commit.emit(input_value(&e)));
        let (draft, error) = (draft_shown, error_shown);
        let described = if error.is_some() { format!("{help_id} {err_id}") } else { help_id.clone() };
        let (tid, tname, aria) = if with_slider {
            (format!("{id}-text"), format!("{}-text", doc.key), Some(format!("{} exact value", doc.key)))
        } else {
            (id.clone(), doc.key.to_string(), None)
        };
        html! {
            <input type="text" id={tid} name={tname} value={(*draft).clone()} {oninput} {onchange}
                disabled={disabled} spellcheck="false" autocomplete="off" aria-label={aria}
                aria-invalid={error.is_some().to_string()} aria-describedby={described} />
        }
    };

    let body = match doc.kind {
        KeyKind::Int { .. } | KeyKind::Duration { .. } => {
            let slider = mapping(doc).map(|m| {
                let value: u64 = match doc.kind {
                    KeyKind::Duration { .. } => crate::engine::time::parse_duration(&current).unwrap_or(m.min),
                    _ => current.parse().unwrap_or(m.min),
                };
                let pos = m.to_pos(value);
                let is_dur = matches!(doc.kind, KeyKind::Duration { .. });
                let text = move |v: u64| if is_dur { crate::engine::time::format_duration(v) } else { v.to_string() };
                let oninput = {
                    let commit = commit.clone();
                    Callback::from(move |e: InputEvent| {
                        let p: u32 =
                            e.target_dyn_into::<HtmlInputElement>().and_then(|i| i.value().parse().ok()).unwrap_or(0);
                        commit.emit(text(m.from_pos(p)));
                    })
                };
                // Keys step to the next distinct value (a raw position can round to the same
                // value on a log scale, and the thumb would snap back).
                let onkeydown = {
                    let commit = commit.clone();
                    Callback::from(move |e: KeyboardEvent| {
                        let big = (SLIDER_STEPS / 20) as i64;
                        let next = match e.key().as_str() {
                            "ArrowRight" | "ArrowUp" => m.step(value, 1),
                            "ArrowLeft" | "ArrowDown" => m.step(value, -1),
                            "PageUp" => m.step(value, big),
                            "PageDown" => m.step(value, -big),
                            "Home" => m.min,
                            "End" => m.max,
                            _ => return,
                        };
                        e.prevent_default();
                        if next != value {
                            commit.emit(text(next));
                        }
                    })
                };
                html! {
                    <input type="range" id={id.clone()} name={doc.key} min="0" max={SLIDER_STEPS.to_string()}
                        step="1" value={pos.to_string()} {oninput} {onkeydown} disabled={disabled}
                        aria-describedby={help_id.clone()}
                        aria-valuetext={format!("{}{}", key_value(doc, &current), if m.log { " (log scale)" } else { "" })} />
                }
            });
            let has_slider = slider.is_some();
            html! { <div class="row">{ for slider }{ text_input(has_slider) }</div> }
        }
        KeyKind::Bool => {
            let checked = current == "on";
            let commit = commit.clone();
            let onchange = Callback::from(move |e: Event| {
                let on = e.target_dyn_into::<HtmlInputElement>().map(|i| i.checked()).unwrap_or(false);
                commit.emit(if on { "on" } else { "off" }.to_string());
            });
            return html! {
                <div class={classes!("ctl", "bool", disabled.then_some("disabled"))} data-key={doc.key}>
                    <input type="checkbox" id={id.clone()} name={doc.key} {checked} {onchange} disabled={disabled}
                        aria-describedby={help_id.clone()} />
                    <label for={id}>{doc.key}
                        if let Some(n) = &note { <span class="note">{" "}{n}</span> }
                    </label>
                    <p class="help" id={help_id}>{doc.help}</p>
                </div>
            };
        }
        KeyKind::Choice(options) => {
            let commit = commit.clone();
            let onchange = Callback::from(move |e: Event| commit.emit(select_value(&e)));
            html! {
                <select id={id.clone()} name={doc.key} {onchange} disabled={disabled} aria-describedby={help_id.clone()}>
                    { for options.iter().map(|o| {
                        // An era reads as its release and class ("3.11, CFS (Sep 2013)").
                        let label = Kernel::parse(o).filter(|_| doc.key == "kernel").map_or_else(|| key_value(doc, o), |k| k.title().to_string());
                        html! { <option value={*o} selected={*o == current}>{label}</option> }
                    }) }
                </select>
            }
        }
        KeyKind::Text if doc.key == "cpu" => {
            let commit = commit.clone();
            let onchange = Callback::from(move |e: Event| commit.emit(select_value(&e)));
            html! { <>
                <select id={id.clone()} name="cpu" {onchange} disabled={disabled} aria-describedby={help_id.clone()}>
                    { for PROFILES.iter().map(|p| html! {
                        <option value={p.name} selected={p.name == current} title={p.topo.describe()}>{p.title}</option>
                    }) }
                </select>
                if let Some(p) = crate::engine::profile::profile(&current) {
                    <p class="help topo" data-testid="cpu-topology">{p.topo.describe()}</p>
                }
            </> }
        }
        KeyKind::Text if doc.key == "features" => html! {
            <>
                { feature_boxes(props.kernel, &current, &props.dispatch, text_input(false)) }
            </>
        },
        KeyKind::Text if doc.key == "cstates" => html! {
            <>
                { cstate_boxes(&props.cpu, &current, &props.dispatch) }
                { text_input(false) }
            </>
        },
        KeyKind::Text => text_input(false),
    };
    let shown =
        if matches!(doc.kind, KeyKind::Text) && doc.key != "cpu" { String::new() } else { key_value(doc, &current) };
    html! {
        <div class={classes!("ctl", disabled.then_some("disabled"))} data-key={doc.key}>
            <label for={id}>
                <span class="key">{doc.key}</span>
                if !shown.is_empty() { <span class="val">{shown}</span> }
                if let Some(n) = &note { <span class="note">{n}</span> }
            </label>
            { body }
            <p class="help" id={help_id}>{doc.help}</p>
            if let Some(msg) = &*error { <p class="err" id={err_id} role="alert">{msg}</p> }
        </div>
    }
}

/// The text a C-state selection writes: `all`, `off`, or the checked names.
pub fn cstates_text(states: &[&str], checked: &[bool]) -> String {
    if checked.iter().all(|c| *c) {
        "all".into()
    } else if checked.iter().all(|c| !*c) {
        "off".into()
    } else {
        states.iter().zip(checked).filter(|(_, c)| **c).map(|(s, _)| *s).collect::<Vec<_>>().join(",")
    }
}

/// The `features` text of a set of checkboxes: the names whose box differs from the era's
/// default, `NO_` for those turned off (what `Config::set("features", ..)` reads back).
pub fn features_text(defs: &[FeatureDef], checked: &[bool]) -> String {
    defs.iter()
        .zip(checked)
        .filter(|(d, c)| d.default != **c)
        .map(|(d, c)| if *c { d.name.to_string() } else { format!("NO_{}", d.name) })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The config a key's control stands for, as far as its props tell (the CPU, the era, the
/// key's value): what the checkbox lists read, without the state's context.
fn probe(cpu: &str, kernel: Kernel, key: &str, current: &str) -> Config {
    let mut c = Config { cpu: cpu.to_string(), ..Config::default() };
    c.set_kernel(kernel);
    let _ = c.set(key, current);
    c
}

/// One checkbox per `sched_features` entry of the config's era, checked when it is on.
/// A part of the key's control, not a component: it reads only the control's props (the era,
/// the key's value), and the control re-renders only when they change. `rest` is the raw
/// `features` text input, shown under the boxes with its caption (it sat unlabelled under the
/// folded list, an empty box under "0 changed").
fn feature_boxes(kernel: Kernel, current: &str, dispatch: &UseReducerDispatcher<State>, rest: Html) -> Html {
    let defs = kernel.features();
    let features = probe("", kernel, "features", current).features;
    let checked: Vec<bool> = defs.iter().map(|d| d.is_on(&features)).collect();
    let changed = defs.iter().zip(&checked).filter(|(d, c)| d.default != **c).count();
    // Folded while every feature is at the era's default: 22 checkboxes were 22 tab stops.
    html! {
        <details class="features-box" open={changed > 0}>
        <summary>{format!("sched_features of {}: {} listed, {changed} changed", kernel.name(), defs.len())}</summary>
        <fieldset class="features">
            <legend>{format!("sched_features of {}", kernel.name())}</legend>
            { for defs.iter().enumerate().map(|(i, d)| {
                let is_on = checked[i];
                let (ctx, checked) = (dispatch.clone(), checked.clone());
                let onchange = Callback::from(move |e: Event| {
                    let on = e.target_dyn_into::<HtmlInputElement>().map(|i| i.checked()).unwrap_or(false);
                    let mut c = checked.clone();
                    c[i] = on;
                    ctx.dispatch(Action::Set { key: "features", value: features_text(defs, &c) });
                });
                let id = format!("ctl-feature-{}", d.name);
                let title = match d.feat {
                    Some(_) => format!("{} (default {})", d.name, if d.default { "on" } else { "off" }),
                    None => format!("{}: listed by this release, not modelled by the engine", d.name),
                };
                html! {
                    <span class={classes!("cbox", d.feat.is_none().then_some("unmodelled"))}>
                        <input type="checkbox" id={id.clone()} name={format!("feature-{}", d.name)}
                            checked={is_on} {onchange} />
                        <label for={id} {title}>{d.name}</label>
                    </span>
                }
            }) }
        </fieldset>
        <p class="features-text">{"The changes as text (what the link keeps; NO_ turns one off):"}</p>
        { rest }
        </details>
    }
}

/// One checkbox per C-state of the chosen CPU (all checked = `all`, none = `off`: poll); a
/// part of the key's control, as `feature_boxes`.
fn cstate_boxes(cpu: &str, current: &str, dispatch: &UseReducerDispatcher<State>) -> Html {
    let config = probe(cpu, Config::default().kernel, "cstates", current);
    let profile = config.profile();
    let names: Vec<&'static str> = profile.cstates.iter().map(|s| s.name).collect();
    let checked: Vec<bool> = names
        .iter()
        .map(|n| match &config.cstates {
            CStates::All => true,
            CStates::Off => false,
            CStates::Only(list) => list.iter().any(|l| l == n),
        })
        .collect();
    html! {
        <fieldset class="cstates">
            <legend>{format!("C-states of {}", profile.name)}</legend>
            { for profile.cstates.iter().enumerate().map(|(i, s)| {
                let is_on = checked[i];
                let (ctx, names, checked) = (dispatch.clone(), names.clone(), checked.clone());
                let onchange = Callback::from(move |e: Event| {
                    let on = e.target_dyn_into::<HtmlInputElement>().map(|i| i.checked()).unwrap_or(false);
                    let mut c = checked.clone();
                    c[i] = on;
                    ctx.dispatch(Action::Set { key: "cstates", value: cstates_text(&names, &c) });
                });
                let id = format!("ctl-cstate-{}", s.name);
                html! {
                    <span class="cbox">
                        <input type="checkbox" id={id.clone()} name={format!("cstate-{}", s.name)}
                            checked={is_on} {onchange} />
                        <label for={id} title={format!("exit latency {}, target residency {}",
                            crate::ui::common::format::duration(s.exit_latency), crate::ui::common::format::duration(s.target_residency))}>
                            {s.name}
                        </label>
                    </span>
                }
            }) }
            <span class="hint">{"none checked = off (poll)"}</span>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workload_and_the_kernel_come_first_then_keys_order() {
        assert_eq!(groups(), vec!["Workload", "Scheduler", "Machine", "Idle", "nohz", "Run"]);
    }

    #[test]
    fn the_machine_line_names_the_kernel() {
        let c = (preset("nohz-pipe").unwrap().config)();
        assert_eq!(
            machine_line(&c),
            "2 x Xeon X5675 (Westmere-EP 2011, 12 cores, 24 threads), 12 CPUs; kernel 3.11, CFS (Sep 2013)"
        );
    }

    /// The raw `features` input lives inside the folded list, under a caption: it sat
    /// unlabelled under "sched_features of 6.6: 25 listed, 0 changed" (issue 29).
    #[cfg(feature = "ssr")]
    #[tokio::test]
    async fn the_features_text_input_is_inside_the_folded_list_with_a_caption() {
        let html = crate::ui::ssr_tests::render(crate::ui::ssr_tests::from_link("v=1")).await;
        let open = html.find("class=\"features-box\"").expect("the features list");
        let close = open + html[open..].find("</details>").expect("its end");
        let input = html.find("name=\"features\"").expect("the features input");
        assert!(open < input && input < close, "the input is inside the details");
        let caption = html[open..close].find("The changes as text").expect("a caption");
        assert!(open + caption < input, "the caption comes before the input");
    }

    #[test]
    fn feature_boxes_write_only_what_differs_from_the_era() {
        let defs = Kernel::V66.features();
        let mut c: Vec<bool> = defs.iter().map(|d| d.default).collect();
        assert_eq!(features_text(defs, &c), "", "all at their defaults");
        let rtp = defs.iter().position(|d| d.name == "RUN_TO_PARITY").unwrap();
        let hr = defs.iter().position(|d| d.name == "HRTICK").unwrap();
        c[rtp] = false;
        c[hr] = true;
        assert_eq!(features_text(defs, &c), "NO_RUN_TO_PARITY HRTICK");
        let mut cfg = Config::default();
        cfg.set("kernel", "6.6").unwrap();
        cfg.set("features", &features_text(defs, &c)).unwrap();
        assert_eq!(cfg.get("features").unwrap(), "NO_RUN_TO_PARITY HRTICK", "the text round-trips");
    }

    #[test]
    fn cstate_boxes_write_all_off_or_a_list() {
        let s = ["C1", "C1E", "C6"];
        assert_eq!(cstates_text(&s, &[true, true, true]), "all");
        assert_eq!(cstates_text(&s, &[false, false, false]), "off");
        assert_eq!(cstates_text(&s, &[true, false, true]), "C1,C6");
    }
}

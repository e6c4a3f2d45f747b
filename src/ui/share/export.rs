//! The Export… menu: the run's trace and figures written by the worker, the timeline as a
//! PNG, and the plots as SVG or PNG files (made by the views module, `plots.rs`), each
//! downloaded through the browser.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::address::window;
use super::files::{config_text, export_request, file_stem, sweep_csv_request};
use crate::ui::app::state::RunView;
use crate::ui::timeline::render_png_data_url;
use crate::ui::worker::protocol::{Export, Request};
use crate::ui::StateCtx;

/// Starts a download of `href` (an object or data URL) as `name` through a temporary link.
pub(super) fn click_download(href: &str, name: &str) -> Result<(), String> {
    let document = window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("cannot create a link: {e:?}"))?
        .dyn_into()
        .map_err(|_| "cannot create a link".to_string())?;
    a.set_href(href);
    a.set_download(name);
    let _ = a.set_attribute("hidden", "");
    let body = document.body().ok_or("no page body")?;
    body.append_child(&a).map_err(|e| format!("{e:?}"))?;
    a.click();
    a.remove();
    Ok(())
}

/// Downloads `text` as a file named `name` of type `mime` (Blob + object URL, revoked
/// once the download has started).
pub fn download_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag)
        .map_err(|e| format!("cannot make the file: {e:?}"))?;
    download_blob(&blob, name)
}

/// Downloads `blob` as `name` (object URL, revoked once the download has started).
pub(super) fn download_blob(blob: &web_sys::Blob, name: &str) -> Result<(), String> {
    let url = web_sys::Url::create_object_url_with_blob(blob).map_err(|e| format!("cannot make the file: {e:?}"))?;
    let res = click_download(&url, name);
    gloo::timers::callback::Timeout::new(2_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    res
}

/// Downloads the plot under `selector` as an SVG file or a PNG image. The file is made by the
/// views module (`plots.rs`: the plot read from the page's DOM, its styles, the PNG's canvas),
/// loaded here if need be; any failure, the module's too, reaches `fail`.
fn export_plot(selector: &'static str, name: String, png: bool, fail: Callback<String>) -> Result<(), String> {
    let on_fail = {
        let fail = fail.clone();
        // Called at most once; left behind when the file is made (a few bytes per export).
        Closure::once_into_js(move |e: String| fail.emit(e))
    };
    let args = js_sys::Array::of4(&selector.into(), &name.into(), &png.into(), &on_fail);
    crate::ui::common::lazy::call("schedscopePlotFiles", args, fail);
    Ok(())
}

/// The stretch a cut trace recorded, `(from, to, in words)`; None for a whole run.
fn png_stretch(trace: &crate::engine::trace::Trace) -> Option<(u64, u64, String)> {
    use crate::ui::common::format::duration;
    use crate::ui::timeline::window;
    if !window::is_partial(trace) {
        return None;
    }
    let (from, to) = window::recorded(trace);
    let what = if from == 0 {
        format!("the first {} of the {} run (the part the page recorded)", duration(to), duration(trace.end))
    } else {
        format!(
            "{} to {} of the {} run (the part the page recorded)",
            duration(from),
            duration(to),
            duration(trace.end)
        )
    };
    Some((from, to, what))
}

/// A labelled run, its config text and (once the worker wrote it) its metrics CSV.
type Column = (&'static str, String, String);

/// Has the worker write each run's metrics CSV in turn, then calls `done` with them all
/// in order; a failure goes to `fail` instead.
fn metrics_files(
    mut runs: Vec<(&'static str, String, Rc<RunView>)>,
    mut done_cols: Vec<Column>,
    done: impl FnOnce(Vec<Column>) + 'static,
    fail: Callback<Option<String>>,
) {
    if runs.is_empty() {
        return done(done_cols);
    }
    let (label, config, run) = runs.remove(0);
    crate::ui::worker::export::run(export_request(&run, Export::MetricsCsv), move |r| match r {
        Ok(text) => {
            done_cols.push((label, config, text));
            metrics_files(runs, done_cols, done, fail)
        }
        Err(e) => fail.emit(Some(format!("Cannot export Metrics CSV: {e}"))),
    });
}

#[derive(Properties, PartialEq)]
pub struct ExportMenuProps {
    /// What went wrong with an export (None once a file is on its way), for the share bar to show.
    pub on_message: Callback<Option<String>>,
}

/// The Export… menu: each button writes one file (`data-export` names it).
#[function_component(ExportMenu)]
pub fn export_menu(props: &ExportMenuProps) -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let message = props.on_message.clone();
    let report = {
        let message = message.clone();
        move |r: Result<(), String>, what: &str| match r {
            Ok(()) => message.emit(None),
            Err(e) => message.emit(Some(format!("Cannot export {what}: {e}"))),
        }
    };
    let result = ctx.result.clone();
    let stem = file_stem(&ctx);
    let menu_ref = use_node_ref();
    let export = |label: &'static str, title: AttrValue, f: Rc<dyn Fn() -> Result<(), String>>| {
        let (report, menu_ref) = (report.clone(), menu_ref.clone());
        let onclick = Callback::from(move |_| {
            report(f(), label);
            // Close the menu once a file is on its way.
            if let Some(menu) = menu_ref.cast::<web_sys::Element>() {
                let _ = menu.remove_attribute("open");
            }
        });
        html! { <button type="button" {title} {onclick} data-export={label}>{label}</button> }
    };
    // The files a worker writes (`worker::export`: the page holds no exporter). They download
    // when it answers; a later failure is shown as the PNGs' are.
    type Job = Rc<dyn Fn() -> Result<(Request, String, &'static str), String>>;
    let in_worker = |label: &'static str, job: Job| -> Rc<dyn Fn() -> Result<(), String>> {
        let message = message.clone();
        Rc::new(move || {
            let (req, name, mime) = job()?;
            let message = message.clone();
            crate::ui::worker::export::run(req, move |r| {
                if let Err(e) = r.and_then(|text| download_text(&name, mime, &text)) {
                    message.emit(Some(format!("Cannot export {label}: {e}")));
                }
            });
            Ok(())
        })
    };
    let run_file = |format: Export, suffix: &'static str, mime: &'static str| -> Job {
        let (r, stem) = (result.clone(), stem.clone());
        Rc::new(move || {
            let r = r.as_ref().ok_or("no run has finished yet")?;
            Ok((export_request(r, format), format!("{stem}{suffix}"), mime))
        })
    };
    // The trace-cmd text is in the config's era's form (`R+` and the numeric states of that
    // release), as `run --trace-text` writes it, not 6.12's whatever the kernel.
    let perfetto_json = in_worker("Perfetto JSON", run_file(Export::Perfetto, ".perfetto.json", "application/json"));
    let trace_text = in_worker("trace-cmd text", run_file(Export::TraceText, ".trace.txt", "text/plain"));
    // The metrics CSV: B's (the run shown) with its config and the share link, and A's
    // column beside it when A is pinned and has figures. The worker writes each run's rows
    // (A's first), the page joins them (`share::csv::metrics_table`).
    let metrics_csv: Rc<dyn Fn() -> Result<(), String>> = {
        let (r, stem, message) = (result.clone(), stem.clone(), message.clone());
        let a = ctx.pin.as_ref().and_then(|p| p.result.clone());
        let (preset, query) = (ctx.preset.clone(), ctx.query());
        Rc::new(move || {
            let b = r.clone().ok_or("no run has finished yet")?;
            let label = if a.is_some() { "B" } else { "value" };
            let mut runs = vec![(label, config_text(&preset, &b.config), b)];
            if let Some(a) = &a {
                runs.insert(0, ("A", config_text(&preset, &a.config), a.clone()));
            }
            let link = crate::ui::common::browser::link_of(&query);
            let (name, fail, message) = (format!("{stem}-metrics.csv"), message.clone(), message.clone());
            metrics_files(
                runs,
                Vec::new(),
                move |cols| {
                    let cols: Vec<(&str, &str, &str)> =
                        cols.iter().map(|(l, c, t)| (*l, c.as_str(), t.as_str())).collect();
                    let text = crate::share::csv::metrics_table(&cols, &link);
                    if let Err(e) = download_text(&name, "text/csv", &text) {
                        message.emit(Some(format!("Cannot export Metrics CSV: {e}")));
                    }
                },
                fail,
            );
            Ok(())
        })
    };
    let sweep_csv = in_worker("Sweep CSV", {
        let (sw, stem) = (ctx.sweep.current.clone(), stem.clone());
        Rc::new(move || {
            let sw = sw.as_ref().ok_or("there is no sweep")?;
            Ok((sweep_csv_request(sw), format!("{stem}-sweep-{}.csv", sw.key), "text/csv"))
        })
    });
    let timeline_png: Rc<dyn Fn() -> Result<(), String>> = {
        let (r, stem) = (result.clone(), stem.clone());
        Rc::new(move || {
            let r: &Rc<RunView> = r.as_ref().ok_or("no run has finished yet")?;
            // A cut trace is drawn as far as it was recorded, and its caption says which stretch.
            let (window, label) = match png_stretch(&r.trace) {
                Some((from, to, what)) => (Some((from, to)), format!("{stem}: {what}")),
                None => (None, stem.clone()),
            };
            let url = render_png_data_url(&r.trace, window, 1600, 2.0, &label)?;
            click_download(&url, &format!("{stem}-timeline.png"))
        })
    };
    // The plots' files finish after the click (the views module makes them): a later
    // failure is shown the same way.
    let plot =
        |selector: &'static str, file: &'static str, label: &'static str| -> Rc<dyn Fn() -> Result<(), String>> {
            let (stem, message) = (stem.clone(), message.clone());
            let fail = Callback::from(move |e: String| message.emit(Some(format!("Cannot export {label}: {e}"))));
            Rc::new(move || export_plot(selector, format!("{stem}-{file}"), file.ends_with(".png"), fail.clone()))
        };
    let sweep_svg = plot("figure.plot.sweep svg", "sweep.svg", "Sweep SVG");
    let dist_svg = plot("figure.plot.dist svg", "distribution.svg", "Distribution SVG");
    let sweep_png = plot("figure.plot.sweep svg", "sweep.png", "Sweep PNG");
    let dist_png = plot("figure.plot.dist svg", "distribution.png", "Distribution PNG");
    let png_title: AttrValue = match result.as_ref().and_then(|r| png_stretch(&r.trace)) {
        Some((.., what)) => format!("The timeline as a PNG image: {what}").into(),
        None => "The whole timeline as a PNG image".into(),
    };
    html! {
        <details class="exports" ref={menu_ref.clone()}>
            <summary class="button" title="Download the trace, the figures or a plot">{"Export…"}</summary>
            <div class="menu" role="group" aria-label="Export">
                { export("Perfetto JSON", "The trace in Chrome/Perfetto JSON (ui.perfetto.dev)".into(), perfetto_json) }
                { export("trace-cmd text", "The trace as `trace-cmd report` text (schedscope trace stats/diff read it back)".into(), trace_text) }
                { export("Metrics CSV", "The metrics as CSV, with the config and the link (A and B side by side when A is pinned)".into(), metrics_csv) }
                { export("Sweep CSV", "Every metric at each sweep point, as CSV".into(), sweep_csv) }
                { export("Timeline PNG", png_title.clone(), timeline_png) }
                { export("Sweep PNG", "The sweep plot as a PNG image".into(), sweep_png) }
                { export("Sweep SVG", "The sweep plot as an SVG file".into(), sweep_svg) }
                { export("Distribution PNG", "The distribution plot as a PNG image".into(), dist_png) }
                { export("Distribution SVG", "The distribution plot as an SVG file".into(), dist_svg) }
            </div>
        </details>
    }
}

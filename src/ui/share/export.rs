//! The Export… menu: the run's trace and figures written by the worker, the timeline as a
//! PNG, and the plots as SVG or PNG files, each downloaded through the browser.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::address::window;
use super::files::{
    caption_height, config_text, export_request, file_stem, svg_file, sweep_csv_request, SvgCaption, SvgColours,
};
use crate::ui::app::state::RunView;
use crate::ui::common::palette::{SERIES_A, SERIES_B};
use crate::ui::timeline::render_png_data_url;
use crate::ui::worker::protocol::{Export, Request};
use crate::ui::StateCtx;

/// Starts a download of `href` (an object or data URL) as `name` through a temporary link.
fn click_download(href: &str, name: &str) -> Result<(), String> {
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

/// The computed colours and font the plot styles use, for a standalone SVG.
fn page_colours(el: &web_sys::Element) -> SvgColours {
    let mut c = SvgColours::default();
    if let Some(style) = window().and_then(|w| w.get_computed_style(el).ok().flatten()) {
        let get = |v: &str, allowed: &str, slot: &mut String| {
            let value = style.get_property_value(v).unwrap_or_default();
            let value = value.trim();
            // Only plain colour or font-name tokens go into the file.
            if !value.is_empty() && value.chars().all(|ch| ch.is_ascii_alphanumeric() || allowed.contains(ch)) {
                *slot = value.to_string();
            }
        };
        get("--panel", "#(),. %", &mut c.bg);
        get("--fg", "#(),. %", &mut c.fg);
        get("--muted", "#(),. %", &mut c.muted);
        get("--line", "#(),. %", &mut c.line);
        get("--focus", "#(),. %", &mut c.focus);
        get("font-family", ", -_\"'", &mut c.font);
    }
    c
}

/// The caption of the figure around a plot's `<svg>`: its title line, or its A/B legend.
fn plot_caption(svg: &web_sys::Element) -> SvgCaption {
    let mut cap = SvgCaption::default();
    let figcaption = svg.closest("figure").ok().flatten().and_then(|f| f.query_selector("figcaption").ok().flatten());
    let Some(fc) = figcaption else { return cap };
    if fc.class_name().split_whitespace().any(|c| c == "legend") {
        for (sel, colour) in [(".key.a", SERIES_A), (".key.b", SERIES_B)] {
            if let Some(label) = fc.query_selector(sel).ok().flatten().and_then(|k| k.text_content()) {
                cap.keys.push((label.trim().to_string(), colour.to_string()));
            }
        }
    } else if let Some(title) = fc.first_element_child().and_then(|t| t.text_content()) {
        cap.text = title.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    cap
}

/// The plot under `selector` as a standalone SVG file, with the file's CSS size.
fn plot_file(selector: &str) -> Result<(String, u32, u32), String> {
    let document = window().and_then(|w| w.document()).ok_or("no document")?;
    let svg = document.query_selector(selector).ok().flatten().ok_or("that plot has nothing drawn yet")?;
    let rect = svg.get_bounding_client_rect();
    let (w, h) = (rect.width().round().max(1.0) as u32, rect.height().round().max(1.0) as u32);
    // XML, not HTML, serialization: a file is parsed as XML (no `&nbsp;`, every tag closed).
    let markup = web_sys::XmlSerializer::new()
        .and_then(|x| x.serialize_to_string(&svg))
        .map_err(|e| format!("cannot serialize the plot: {e:?}"))?;
    let caption = plot_caption(&svg);
    let file = svg_file(&markup, &page_colours(&svg), w, h, &caption)?;
    Ok((file, w, h + caption_height(&caption)))
}

/// Downloads the plot under `selector` as a standalone SVG file.
fn export_svg(selector: &str, name: &str) -> Result<(), String> {
    let (file, _, _) = plot_file(selector)?;
    download_text(name, "image/svg+xml", &file)
}

/// Downloads `blob` as `name` (object URL, revoked once the download has started).
fn download_blob(blob: &web_sys::Blob, name: &str) -> Result<(), String> {
    let url = web_sys::Url::create_object_url_with_blob(blob).map_err(|e| format!("cannot make the file: {e:?}"))?;
    let res = click_download(&url, name);
    gloo::timers::callback::Timeout::new(2_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    res
}

/// Downloads the plot under `selector` as a PNG at the screen's pixel density (at least 2x):
/// its standalone SVG file is decoded as an image, drawn on an offscreen canvas and encoded.
/// The decoding and encoding answer later: a failure then reaches `fail`.
fn export_png(selector: &str, name: String, fail: Callback<String>) -> Result<(), String> {
    let (file, w, h) = plot_file(selector)?;
    let scale = window().map_or(2.0, |w| w.device_pixel_ratio()).clamp(2.0, 4.0);
    let (cw, ch) = ((w as f64 * scale).round() as u32, (h as f64 * scale).round() as u32);
    let parts = js_sys::Array::of1(&JsValue::from_str(&file));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type("image/svg+xml;charset=utf-8");
    let svg_blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag)
        .map_err(|e| format!("cannot make the image: {e:?}"))?;
    let src =
        web_sys::Url::create_object_url_with_blob(&svg_blob).map_err(|e| format!("cannot make the image: {e:?}"))?;
    let img = web_sys::HtmlImageElement::new().map_err(|e| format!("cannot make an image: {e:?}"))?;
    // One of the two handlers runs; the other stays behind (a few bytes per export).
    let onerror = {
        let (src, fail) = (src.clone(), fail.clone());
        Closure::once_into_js(move || {
            let _ = web_sys::Url::revoke_object_url(&src);
            fail.emit("the browser could not draw the plot as an image".into());
        })
    };
    let onload = {
        let (img, src) = (img.clone(), src.clone());
        Closure::once_into_js(move || {
            let _ = web_sys::Url::revoke_object_url(&src);
            if let Err(e) = encode_png(&img, cw, ch, name, fail.clone()) {
                fail.emit(e);
            }
        })
    };
    img.set_onerror(Some(onerror.unchecked_ref()));
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&src);
    Ok(())
}

/// Draws the decoded plot `img` on a `cw` x `ch` canvas and downloads it as a PNG named `name`.
fn encode_png(
    img: &web_sys::HtmlImageElement,
    cw: u32,
    ch: u32,
    name: String,
    fail: Callback<String>,
) -> Result<(), String> {
    let document = window().and_then(|w| w.document()).ok_or("no document")?;
    let canvas: web_sys::HtmlCanvasElement =
        document.create_element("canvas").ok().and_then(|c| c.dyn_into().ok()).ok_or("cannot make a canvas")?;
    canvas.set_width(cw);
    canvas.set_height(ch);
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the browser gave no 2D canvas")?;
    ctx.draw_image_with_html_image_element_and_dw_and_dh(img, 0.0, 0.0, cw as f64, ch as f64)
        .map_err(|e| format!("cannot draw the plot: {e:?}"))?;
    let keep = canvas.clone();
    let done = Closure::once_into_js(move |blob: JsValue| {
        drop(keep); // the canvas lives until its PNG is out
        match blob.dyn_into::<web_sys::Blob>() {
            Ok(blob) => {
                if let Err(e) = download_blob(&blob, &name) {
                    fail.emit(e);
                }
            }
            Err(_) => fail.emit("the browser could not encode the PNG".into()),
        }
    });
    canvas.to_blob(done.unchecked_ref()).map_err(|e| format!("cannot encode the PNG: {e:?}"))
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
    let sweep_svg: Rc<dyn Fn() -> Result<(), String>> = {
        let stem = stem.clone();
        Rc::new(move || export_svg("figure.plot.sweep svg", &format!("{stem}-sweep.svg")))
    };
    let dist_svg: Rc<dyn Fn() -> Result<(), String>> = {
        let stem = stem.clone();
        Rc::new(move || export_svg("figure.plot.dist svg", &format!("{stem}-distribution.svg")))
    };
    // The PNGs finish after the click: a later failure is shown the same way.
    let png = |selector: &'static str, plot: &'static str, label: &'static str| -> Rc<dyn Fn() -> Result<(), String>> {
        let (stem, message) = (stem.clone(), message.clone());
        let fail = Callback::from(move |e: String| message.emit(Some(format!("Cannot export {label}: {e}"))));
        Rc::new(move || export_png(selector, format!("{stem}-{plot}.png"), fail.clone()))
    };
    let sweep_png = png("figure.plot.sweep svg", "sweep", "Sweep PNG");
    let dist_png = png("figure.plot.dist svg", "distribution", "Distribution PNG");
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

//! Share, embed, export and import in the browser: the share bar (copy link, embed dialog,
//! exports, rt-app import), the embedded page (`?embed=1`), and the browser calls behind
//! them (address bar sync, downloads, clipboard, file reading, drag and drop).
//!
//! The URL format itself lives in `share::url`; the pure pieces here (iframe snippet,
//! file names, sweep CSV, standalone SVG) are tested natively. Nothing from the URL or a
//! file is ever written as markup: only parsed values reach the page, through yew.
//!
//! Over 800 lines (about 970, 120 of them tests): the URL sync, the Export… menu with its
//! SVG/PNG files and the embed dialog share the page-address and file-name helpers; not split
//! yet (issue 28: history into `app/`, the exports into their own file).

use crate::ui::common::browser::{copy_text, link_of, page_address};
use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::engine::presets::preset;
use crate::share::url::View;

use crate::ui::app::state::{Action, RunView, State};
use crate::ui::common::palette::{SERIES_A, SERIES_B};
use crate::ui::explore::plots::SweepPlot;
use crate::ui::explore::views::{CompareTable, MetricsPanel};
use crate::ui::sweep::model::Sweep;
use crate::ui::timeline::{render_png_data_url, Timeline};
use crate::ui::worker::protocol::{Export, Request, RunResult};
use crate::ui::StateCtx;

/// Quiet time after the last change before the address bar is rewritten.
pub const URL_DEBOUNCE_MS: u32 = 300;
/// Views an embed shows when the link names none.
pub const DEFAULT_EMBED_VIEWS: [View; 2] = [View::Timeline, View::Metrics];
/// Default iframe size in the embed dialog (CSS pixels).
pub const DEFAULT_EMBED_SIZE: (u32, u32) = (960, 540);
/// Largest file the importer reads (matches `share::rtapp::MAX_FILE_BYTES`).
const MAX_IMPORT_BYTES: f64 = crate::share::rtapp::MAX_FILE_BYTES as f64;

// ---------------------------------------------------------------------------------------
// Pure parts.

/// Escapes text for a double-quoted HTML attribute.
pub fn attr_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The query of an embed of `state` showing `views` (in `View::ALL` order, deduplicated;
/// none means the embed's default).
pub fn embed_query(state: &State, views: &[View]) -> String {
    let mut u = state.url_state();
    u.embed = true;
    u.views = View::EMBEDDABLE.into_iter().filter(|v| views.contains(v)).collect();
    if u.views == DEFAULT_EMBED_VIEWS {
        u.views.clear();
    }
    crate::share::url::to_query(&u)
}

/// The iframe snippet for `page` (the app's address without a query) and an embed query.
pub fn embed_snippet(page: &str, query: &str, width: u32, height: u32) -> String {
    format!(
        "<iframe src=\"{}\" width=\"{width}\" height=\"{height}\" loading=\"lazy\" title=\"schedscope\" \
         style=\"border:1px solid #ccc;border-radius:6px\"></iframe>",
        attr_escape(&format!("{page}?{query}"))
    )
}

/// A file name stem naming the config: `schedscope-rr-kbuild`, `schedscope-custom`.
pub fn file_stem(state: &State) -> String {
    let name = preset(&state.preset).map(|p| p.name).unwrap_or("custom");
    let clean: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    format!("schedscope-{clean}")
}

/// The worker job writing the sweep as CSV: `param,value,<every metric>` (see
/// `share::csv::sweep_csv`), one row per planned point in order; a point not run yet, or
/// failed, has empty metric cells.
pub fn sweep_csv_request(sw: &Sweep) -> Request {
    let rows = sw.values.iter().cloned().zip(sw.points.iter().map(|p| p.as_deref().cloned())).collect();
    Request::SweepCsv { id: 0, key: sw.key.to_string(), rows }
}

/// The worker job writing the run the page shows as `format`.
pub fn export_request(r: &RunView, format: Export) -> Request {
    let run = RunResult { metrics: r.metrics.clone(), trace: (*r.trace).clone() };
    Request::Export { id: 0, format, config: r.config.clone(), run }
}

/// Colours (and the font) the plot stylesheet gives through CSS, resolved for a file.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgColours {
    pub bg: String,
    pub fg: String,
    pub muted: String,
    pub line: String,
    pub focus: String,
    /// The CSS font-family the plot's text inherits.
    pub font: String,
}

impl Default for SvgColours {
    fn default() -> Self {
        SvgColours {
            bg: "#ffffff".into(),
            fg: "#17202a".into(),
            muted: "#56616d".into(),
            line: "#d5dbe1".into(),
            focus: "#d55e00".into(),
            font: "system-ui,sans-serif".into(),
        }
    }
}

/// What a plot's `<figcaption>` says, which a file needs (it is outside the `<svg>`): a title
/// line and colour keys `(label, colour)` for a compare legend.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SvgCaption {
    pub text: String,
    pub keys: Vec<(String, String)>,
}

/// Height (CSS px) of the caption band a file adds above the plot (0 without a caption).
pub fn caption_height(caption: &SvgCaption) -> u32 {
    if caption.text.trim().is_empty() && caption.keys.is_empty() {
        0
    } else {
        24
    }
}

/// Makes a standalone SVG file from a plot's serialized `<svg>` element: adds the SVG
/// namespace, a size, a background, the page's plot styles (which a file does not inherit)
/// and, when there is one, the caption as a band above the plot (the file is then
/// `height + caption_height` tall). Markup that is not an `<svg>` element comes back as an error.
pub fn svg_file(markup: &str, c: &SvgColours, width: u32, height: u32, caption: &SvgCaption) -> Result<String, String> {
    let markup = markup.trim();
    if !markup.starts_with("<svg") || !markup.ends_with("</svg>") {
        return Err("the plot is not an SVG element".into());
    }
    let open_end = markup.find('>').ok_or("the plot's SVG has no opening tag")?;
    let (open, rest) = markup.split_at(open_end);
    let band = caption_height(caption);
    // The plot nests in the file's own <svg> (and takes its namespace): the file's background
    // then covers all of it, also where a rounded size leaves a sliver beside the plot's viewBox.
    let mut attrs = String::new();
    if band > 0 {
        attrs.push_str(&format!(" y=\"{band}\""));
    }
    if !open.contains(" width=") {
        attrs.push_str(&format!(" width=\"{width}\" height=\"{height}\""));
    }
    let style = format!(
        "<style>text{{fill:{m};font:11px {font}}}text.label{{fill:{f};font-size:12px}}\
         text.caption{{fill:{f};font-size:13px}}\
         .axis line,.axis-line{{stroke:{m};stroke-width:1}}line.grid{{stroke:{l};stroke-dasharray:2 3}}\
         path.curve{{fill:none;stroke-width:2}}line.marker{{stroke:{o};stroke-width:2;stroke-dasharray:4 3}}\
         circle.pending{{fill:{l}}}</style><rect width=\"100%\" height=\"100%\" fill=\"{b}\"/>",
        m = attr_escape(&c.muted),
        f = attr_escape(&c.fg),
        l = attr_escape(&c.line),
        o = attr_escape(&c.focus),
        b = attr_escape(&c.bg),
        font = attr_escape(&c.font),
    );
    // `rest` starts with the opening tag's `>`.
    let plot = format!("{open}{attrs}>{}", &rest[1..]);
    // The caption band (if any), then the plot below it. Keys follow the text; their
    // places are estimated (a file cannot measure text), generously so labels never overlap.
    let mut head = String::new();
    let mut x = 8.0;
    if !caption.text.trim().is_empty() {
        head.push_str(&format!(
            "<text class=\"caption\" x=\"{x}\" y=\"16\">{}</text>",
            attr_escape(caption.text.trim())
        ));
        x += 7.5 * caption.text.trim().chars().count() as f64 + 16.0;
    }
    for (label, colour) in &caption.keys {
        head.push_str(&format!(
            "<rect x=\"{x}\" y=\"6\" width=\"11\" height=\"11\" fill=\"{}\"/><text class=\"caption\" x=\"{}\" y=\"16\">{}</text>",
            attr_escape(colour),
            x + 15.0,
            attr_escape(label)
        ));
        x += 15.0 + 7.5 * label.chars().count() as f64 + 16.0;
    }
    let total = height + band;
    Ok(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" \
         height=\"{total}\" viewBox=\"0 0 {width} {total}\">{style}{head}{plot}</svg>\n"
    ))
}

// ---------------------------------------------------------------------------------------
// Browser calls. Each one fails softly: a message, never a panic.

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The state a page load starts from: the link's, or the first preset without a query.
pub fn initial_state() -> State {
    let search = window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    if search.trim_start_matches('?').is_empty() {
        return State::default();
    }
    let (u, notices) = crate::share::url::parse(&search);
    State::from_url(&u, &notices)
}

/// Rewrites the address bar to `?query` without a history entry (unless it already is).
pub fn replace_query(query: &str) {
    set_query(query, false)
}

/// Adds a history entry for `?query` (a new preset, page, pin or tour step), so Back returns
/// to the entry before it. Nothing happens when the address already is `?query`.
pub fn push_query(query: &str) {
    set_query(query, true)
}

/// The address bar to `?query`, as a new history entry (`push`) or in place.
fn set_query(query: &str, push: bool) {
    let Some(w) = window() else { return };
    let l = w.location();
    if l.search().unwrap_or_default().trim_start_matches('?') == query {
        return;
    }
    let target = format!("{}?{query}", l.pathname().unwrap_or_else(|_| "/".into()));
    if let Ok(h) = w.history() {
        let done = if push {
            h.push_state_with_url(&JsValue::NULL, "", Some(&target))
        } else {
            h.replace_state_with_url(&JsValue::NULL, "", Some(&target))
        };
        if let Err(e) = done {
            let what = if push { "add a history entry" } else { "update the address bar" };
            web_sys::console::warn_1(&format!("schedscope: cannot {what}: {e:?}").into());
        }
    }
}

/// The address bar's query without its `?`.
pub fn current_query() -> String {
    window().and_then(|w| w.location().search().ok()).unwrap_or_default().trim_start_matches('?').to_string()
}

/// Back and Forward: on `popstate`, the page goes to the state its new address describes.
#[hook]
pub fn use_popstate(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let listener = window().map(|w| {
            gloo::events::EventListener::new(&w, "popstate", move |_| {
                let (u, _) = crate::share::url::parse(&current_query());
                dispatch.emit(Action::Navigate(Box::new(u)));
            })
        });
        move || drop(listener)
    });
}

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

/// Reads an rt-app file and dispatches its import. The reader lives in `holder` until it
/// answers (dropping it would cancel the read).
pub fn read_import(
    file: web_sys::File,
    dispatch: Callback<Action>,
    holder: Rc<RefCell<Option<gloo::file::callbacks::FileReader>>>,
) {
    let name = file.name();
    if file.size() > MAX_IMPORT_BYTES {
        dispatch.emit(Action::Notice(format!(
            "Cannot import {name}: it is {:.0} kB; rt-app files larger than {:.0} kB are not read. Nothing was changed.",
            file.size() / 1000.0,
            MAX_IMPORT_BYTES / 1000.0
        )));
        return;
    }
    let blob = gloo::file::File::from(file);
    let reader = gloo::file::callbacks::read_as_text(&blob, move |res| match res {
        Ok(text) => dispatch.emit(Action::Import { name, text }),
        Err(e) => dispatch.emit(Action::Notice(format!("Cannot read {name}: {e}. Nothing was changed."))),
    });
    *holder.borrow_mut() = Some(reader);
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

// ---------------------------------------------------------------------------------------
// Components.

/// Copy link, embed dialog, exports and import, above the results.
#[function_component(ShareBar)]
pub fn share_bar() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    // The link shown after "Copy link" and whether the clipboard took it.
    let copied = use_state(|| None::<(String, bool)>);
    let embed_open = use_state(|| false);
    let message = use_state(|| None::<String>);
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let link_ref = use_node_ref();

    // When the clipboard refused, select the link so Ctrl+C copies it.
    {
        let link_ref = link_ref.clone();
        use_effect_with((*copied).clone(), move |c| {
            if let Some((_, false)) = c {
                if let Some(input) = link_ref.cast::<web_sys::HtmlInputElement>() {
                    let _ = input.focus();
                    input.select();
                }
            }
        });
    }

    let on_copy = {
        let (ctx, copied) = (ctx.clone(), copied.clone());
        Callback::from(move |_| {
            let link = link_of(&ctx.query());
            let (copied, shown) = (copied.clone(), link.clone());
            copy_text(&link, Callback::from(move |ok| copied.set(Some((shown.clone(), ok)))));
        })
    };
    let report = {
        let message = message.clone();
        move |r: Result<(), String>, what: &str| match r {
            Ok(()) => message.set(None),
            Err(e) => message.set(Some(format!("Cannot export {what}: {e}"))),
        }
    };
    let result = ctx.result.clone();
    let stem = file_stem(&ctx);
    let menu_ref = use_node_ref();
    let export = |label: &'static str, title: &'static str, f: Rc<dyn Fn() -> Result<(), String>>| {
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
                    message.set(Some(format!("Cannot export {label}: {e}")));
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
    let metrics_csv = in_worker("Metrics CSV", run_file(Export::MetricsCsv, "-metrics.csv", "text/csv"));
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
            let url = render_png_data_url(&r.trace, None, 1600, 2.0, &stem)?;
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
        let fail = Callback::from(move |e: String| message.set(Some(format!("Cannot export {label}: {e}"))));
        Rc::new(move || export_png(selector, format!("{stem}-{plot}.png"), fail.clone()))
    };
    let sweep_png = png("figure.plot.sweep svg", "sweep", "Sweep PNG");
    let dist_png = png("figure.plot.dist svg", "distribution", "Distribution PNG");

    let on_file = {
        let (dispatch, reader) = (ctx.dispatcher(), reader.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                let d = dispatch.clone();
                read_import(file, Callback::from(move |a| d.dispatch(a)), reader.clone());
            }
            input.set_value(""); // the same file can be picked again after an edit
        })
    };
    let toggle_embed = {
        let embed_open = embed_open.clone();
        Callback::from(move |_| embed_open.set(!*embed_open))
    };

    html! {
        <div class="sharebar" role="group" aria-label="Share, export and import"
            style="display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.5rem 0">
            <button type="button" name="copy-link" onclick={on_copy}
                title="Copy a link that restores this exact config">{"Copy link"}</button>
            <button type="button" name="embed" aria-expanded={embed_open.to_string()} onclick={toggle_embed}
                title="An iframe snippet for slides and docs">{"Embed…"}</button>
            <details class="exports" ref={menu_ref.clone()}>
                <summary class="button" title="Download the trace, the figures or a plot">{"Export…"}</summary>
                <div class="menu" role="group" aria-label="Export">
                    { export("Perfetto JSON", "The trace in Chrome/Perfetto JSON (ui.perfetto.dev)", perfetto_json) }
                    { export("trace-cmd text", "The trace as `trace-cmd report` text (schedscope trace stats/diff read it back)", trace_text) }
                    { export("Metrics CSV", "This run's metrics as CSV", metrics_csv) }
                    { export("Sweep CSV", "Every metric at each sweep point, as CSV", sweep_csv) }
                    { export("Timeline PNG", "The whole timeline as a PNG image", timeline_png) }
                    { export("Sweep PNG", "The sweep plot as a PNG image", sweep_png) }
                    { export("Sweep SVG", "The sweep plot as an SVG file", sweep_svg) }
                    { export("Distribution PNG", "The distribution plot as a PNG image", dist_png) }
                    { export("Distribution SVG", "The distribution plot as an SVG file", dist_svg) }
                </div>
            </details>
            <label class="import button" title="Import an rt-app JSON workload or a guided tour (or drop the file on the page)">
                {"Import rt-app…"}
                <input type="file" name="rtapp-import" accept=".json,application/json" onchange={on_file}
                    style="position:absolute;width:1px;height:1px;opacity:0;overflow:hidden" />
            </label>
            if let Some((link, ok)) = &*copied {
                <span class="copied" role="status" style="display:flex;gap:.4rem;align-items:center;flex:1 1 20rem">
                    <input ref={link_ref} type="text" readonly=true name="share-link" value={link.clone()}
                        aria-label="Link to this config" style="flex:1;min-width:8rem" />
                    { if *ok { "Link copied." } else { "Press Ctrl+C (⌘C) to copy the selected link." } }
                </span>
            }
            if let Some(m) = &*message { <span class="err" role="alert">{m.clone()}</span> }
            if *embed_open { <EmbedDialog on_close={Callback::from(move |_| embed_open.set(false))} /> }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct EmbedDialogProps {
    pub on_close: Callback<()>,
}

/// The "Embed" dialog: view checkboxes, a size, and the iframe snippet to copy.
#[function_component(EmbedDialog)]
pub fn embed_dialog(props: &EmbedDialogProps) -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let views = use_state(|| if ctx.views.is_empty() { DEFAULT_EMBED_VIEWS.to_vec() } else { ctx.views.clone() });
    let size = use_state(|| DEFAULT_EMBED_SIZE);
    let copied = use_state(|| None::<bool>);
    let snippet = embed_snippet(&page_address(), &embed_query(&ctx, &views), size.0, size.1);

    let checkbox = |v: View| {
        let checked = views.contains(&v);
        let (views, copied) = (views.clone(), copied.clone());
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_dyn_into::<web_sys::HtmlInputElement>().is_some_and(|i| i.checked());
            let mut list: Vec<View> = views.iter().copied().filter(|x| *x != v).collect();
            if on {
                list.push(v);
            }
            views.set(list);
            copied.set(None);
        });
        let id = format!("embed-view-{}", v.name());
        html! {
            <label for={id.clone()} style="margin-right:.6rem">
                <input type="checkbox" id={id} name="embed-view" value={v.name()} {checked} {onchange} />
                {" "}{v.name()}
            </label>
        }
    };
    let dim = |label: &'static str, get: fn((u32, u32)) -> u32, put: fn((u32, u32), u32) -> (u32, u32)| {
        let size2 = size.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_dyn_into::<web_sys::HtmlInputElement>().and_then(|i| i.value().parse::<u32>().ok());
            if let Some(v) = v {
                size2.set(put(*size2, v.clamp(200, 4000)));
            }
        });
        html! {
            <label style="margin-right:.6rem">{label}{" "}
                <input type="number" name={format!("embed-{}", label.to_ascii_lowercase())} min="200" max="4000" step="10"
                    value={get(*size).to_string()} {onchange} style="width:6rem" />
            </label>
        }
    };
    let on_copy = {
        let (copied, snippet) = (copied.clone(), snippet.clone());
        Callback::from(move |_| {
            let copied = copied.clone();
            copy_text(&snippet, Callback::from(move |ok| copied.set(Some(ok))));
        })
    };
    let close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <section class="embed-dialog panel" role="dialog" aria-label="Embed this view"
            style="flex:1 1 100%;display:flex;flex-direction:column;gap:.5rem">
            <h2 style="margin:0;font-size:1rem">{"Embed in slides or docs"}</h2>
            <div role="group" aria-label="Views shown">{ for View::EMBEDDABLE.into_iter().map(checkbox) }</div>
            <div>{ dim("Width", |s| s.0, |s, v| (v, s.1)) }{ dim("Height", |s| s.1, |s, v| (s.0, v)) }</div>
            <textarea name="embed-snippet" readonly=true rows="3" aria-label="iframe snippet" value={snippet}
                style="width:100%;box-sizing:border-box;font-family:monospace;font-size:.8rem" />
            <div style="display:flex;gap:.5rem;align-items:center">
                <button type="button" name="copy-snippet" onclick={on_copy}>{"Copy snippet"}</button>
                <button type="button" onclick={close}>{"Close"}</button>
                { match *copied {
                    Some(true) => html! { <span role="status">{"Snippet copied."}</span> },
                    Some(false) => html! { <span role="status">{"Select the snippet and copy it (Ctrl+C)."}</span> },
                    None => html! {},
                } }
            </div>
        </section>
    }
}

/// The embedded page: only the link's views, a one-line header, and a link to the full app.
#[function_component(EmbedPage)]
pub fn embed_page() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let s: &State = &ctx;
    // A tour step's embed shows only its question and its figure (the card) over the timeline.
    let views = if s.tour.open.is_some() {
        vec![View::Timeline]
    } else if s.views.is_empty() {
        DEFAULT_EMBED_VIEWS.to_vec()
    } else {
        s.views.clone()
    };
    let title = preset(&s.preset).map(|p| p.title).unwrap_or("custom config");
    let b = s.result.clone();
    let a = s.pin.as_ref().and_then(|p| p.result.clone());
    let running = s.running();
    let status = match (&s.run_error, running || s.comparing()) {
        (Some(e), _) => {
            html! { <span class="status error" role="alert">{format!("Cannot run this config: {e}")}</span> }
        }
        (None, true) => html! { <span class="status running" role="status">{"Simulating…"}</span> },
        (None, false) => html! {},
    };
    let view = |v: View| -> Html {
        match v {
            View::Timeline => html! {
                <section class="panel" aria-label="Timeline" data-view="timeline" style="min-width:0">
                    if let Some(r) = &b {
                        <Timeline trace={r.trace.clone()} label={if a.is_some() { "B" } else { "current" }}
                            preview={r.preview} partial={r.figures_partial()} />
                    } else {
                        <p class="note">{"Waiting for the first run…"}</p>
                    }
                </section>
            },
            View::Plot => html! {
                <section class="panel" aria-label="Sweep" data-view="plot" style="min-width:0">
                    if let Some(sw) = &s.sweep.current {
                        <SweepPlot sweep={sw.clone()} metric={AttrValue::from(s.sweep_metric())}
                            a_value={crate::ui::sweep::pinned_level(s, &s.sweep_metric())} />
                    }
                </section>
            },
            View::Metrics => html! {
                <div data-view="metrics" style="min-width:0"><MetricsPanel result={b.clone()} {running} /></div>
            },
            View::Compare => html! {
                <section class="panel" aria-label="Compare A and B" data-view="compare" style="min-width:0">
                    if s.pin.is_some() {
                        <CompareTable a={a.clone()} b={b.clone()} a_error={s.pin.as_ref().and_then(|p| p.error.clone())}
                            b_waiting={s.pending_b.is_some()}
                        b_stale={s.result.as_ref().is_some_and(|r| r.gen != s.gen)} b_config={s.config.clone()} />
                    } else {
                        <p class="note">{"This link compares nothing (add compare=1 and b. keys)."}</p>
                    }
                </section>
            },
            // `State::from_url` keeps the Experiments page out of an embed's views.
            View::Seeds => html! {},
        }
    };
    html! {
        <div class="embed" style="box-sizing:border-box;width:100vw;height:100vh;overflow:auto;padding:.4rem .5rem;display:flex;flex-direction:column;gap:.4rem">
            <header style="display:flex;gap:.6rem;align-items:baseline;font-size:.85rem;flex-wrap:wrap">
                <strong>{"schedscope"}</strong>
                <span>{title}</span>
                { status }
                <a class="open-full" href={format!("?{}", s.full_app_query())} target="_blank" rel="noopener noreferrer"
                    style="margin-left:auto">{"open in schedscope ↗"}</a>
            </header>
            <Notices />
            <crate::ui::tour::view::TourCard />
            { for views.into_iter().map(view) }
        </div>
    }
}

/// Notices (`role="status"`), each dismissible, with its list of details.
#[function_component(Notices)]
pub fn notices() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    if ctx.notices.is_empty() {
        return html! {};
    }
    html! {
        <ul class="notices" role="status">
            { for ctx.notices.iter().map(|n| {
                let (ctx, id) = (ctx.clone(), n.id);
                let onclick = Callback::from(move |_| ctx.dispatch(Action::Dismiss(id)));
                html! {
                    <li key={n.id} style="flex-wrap:wrap">
                        <span style="flex:1 1 0">{n.text.clone()}</span>
                        <button type="button" class="dismiss" aria-label="Dismiss" {onclick}>{"×"}</button>
                        if !n.details.is_empty() {
                            <ul class="details" style="flex:1 1 100%;margin:.2rem 0 0 1.2rem;padding:0">
                                { for n.details.iter().map(|d| html! {
                                    <li style="display:list-item;list-style:disc;background:none;border:0;padding:0">{d.clone()}</li>
                                }) }
                            </ul>
                        }
                    </li>
                }
            }) }
        </ul>
    }
}

/// Installs drag-and-drop import on the window while mounted (not in embeds).
#[hook]
pub fn use_drop_import(enabled: bool, dispatch: Callback<Action>) {
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    use_effect_with(enabled, move |enabled| {
        let mut listeners = Vec::new();
        if let (true, Some(w)) = (*enabled, window()) {
            let opts = gloo::events::EventListenerOptions::enable_prevent_default();
            listeners.push(gloo::events::EventListener::new_with_options(&w, "dragover", opts, |e| {
                e.prevent_default();
            }));
            listeners.push(gloo::events::EventListener::new_with_options(&w, "drop", opts, move |e| {
                e.prevent_default();
                let file = e
                    .dyn_ref::<web_sys::DragEvent>()
                    .and_then(|d| d.data_transfer())
                    .and_then(|t| t.files())
                    .and_then(|f| f.get(0));
                // A recorded trace goes to the trace panel (`ui::traces`), the rest is rt-app or a tour.
                #[cfg(target_arch = "wasm32")]
                let file = file.filter(|f| !crate::ui::traces::claim_drop(f));
                if let Some(file) = file {
                    read_import(file, dispatch.clone(), reader.clone());
                }
            }));
        }
        move || drop(listeners)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::url;

    #[test]
    fn the_snippet_is_an_escaped_lazy_iframe_of_an_embed_link() {
        let (u, n) = url::parse("?v=1&preset=rr-kbuild&rr_interval=5ms");
        assert!(n.is_empty(), "{n:?}");
        let s = State::from_url(&u, &n);
        let q = embed_query(&s, &[View::Plot, View::Timeline]);
        assert_eq!(q, "v=1&preset=rr-kbuild&rr_interval=5ms&embed=1&view=timeline,plot");
        let snip = embed_snippet("https://x.org/app/", &q, 800, 450);
        assert!(snip.starts_with("<iframe src=\"https://x.org/app/?v=1&amp;preset=rr-kbuild&amp;rr_interval=5ms&amp;embed=1&amp;view=timeline,plot\""), "{snip}");
        for part in ["width=\"800\"", "height=\"450\"", "loading=\"lazy\"", "title=\"schedscope\"", "</iframe>"] {
            assert!(snip.contains(part), "{part} missing in {snip}");
        }
        // The default views are not spelled out, and the embed link parses back.
        let q = embed_query(&s, &[View::Metrics, View::Timeline]);
        assert!(!q.contains("view="), "{q}");
        let (back, n) = url::parse(&q);
        assert!(n.is_empty() && back.embed && back.config.rr_interval == 5_000_000);
    }

    #[test]
    fn attribute_escaping_closes_no_attribute() {
        assert_eq!(attr_escape("a\"><script>&"), "a&quot;&gt;&lt;script&gt;&amp;");
        let snip = embed_snippet("https://x/\"onload=\"alert(1)", "v=1", 10, 10);
        assert_eq!(snip.matches('"').count(), 2 * 6, "only the quotes of the snippet's six attributes: {snip}");
    }

    #[test]
    fn file_names_follow_the_preset() {
        let s = State::default();
        assert_eq!(file_stem(&s), format!("schedscope-{}", crate::engine::presets::PRESETS[0].name));
        let s = State::with_config(Default::default(), "no such");
        assert_eq!(file_stem(&s), "schedscope-custom");
    }

    #[test]
    fn sweep_csv_has_every_metric_per_point_and_empty_cells_for_missing_ones() {
        let mut sw = (*State::default().sweep.current.unwrap()).clone();
        let m = |throughput: f64, context_switches: u64, p99: f64| crate::engine::Metrics {
            throughput,
            throughput_unit: "ops/s".into(),
            context_switches,
            wakeup_latency_us: crate::engine::metrics::Percentiles { p50: 1.0, p99, max: 9.0, count: 3 },
            ..Default::default()
        };
        sw.points[0] = Some(Rc::new(m(12.5, 40, 7.25)));
        sw.points[2] = Some(Rc::new(m(3.0, 41, 8.0)));
        let text = match crate::ui::worker::execute::execute(&sweep_csv_request(&sw)) {
            crate::ui::worker::protocol::Response::Exported { result: Ok(text), .. } => text,
            other => panic!("{other:?}"),
        };
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len(), sw.values.len() + 1, "a header and one row per planned point");
        assert!(rows.iter().all(|r| r.len() == rows[0].len()), "rectangular: {text}");
        let col = |name: &str| rows[0].iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
        assert_eq!(rows[0][..2], ["param", "value"]);
        assert_eq!(rows[1][..2], [sw.key, sw.values[0].as_str()], "the swept key and its value first");
        assert_eq!(rows[3][1], sw.values[2]);
        assert_eq!((rows[1][col("throughput")], rows[3][col("throughput")]), ("12.5", "3"));
        assert_eq!((rows[1][col("context_switches")], rows[3][col("context_switches")]), ("40", "41"));
        assert_eq!(rows[1][col("wakeup_latency_p99")], "7.25");
        assert_eq!(rows[1][col("throughput_unit")], "ops/s");
        assert!(rows[2][2..].iter().all(|c| c.is_empty()), "a point not run yet has empty cells: {:?}", rows[2]);
    }

    #[test]
    fn svg_files_get_a_namespace_a_size_and_styles() {
        let c = SvgColours::default();
        let f = svg_file(
            "<svg viewBox=\"0 0 10 10\" role=\"img\"><path class=\"curve\" d=\"M0,0L1,1\"></path></svg>",
            &c,
            400,
            300,
            &SvgCaption::default(),
        )
        .unwrap();
        assert!(f.starts_with("<?xml"));
        let outer =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"300\" viewBox=\"0 0 400 300\"><style>";
        assert!(f.contains(outer), "{f}");
        assert!(f.contains("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/><svg viewBox=\"0 0 10 10\" role=\"img\" width=\"400\" height=\"300\">"), "the background covers the file, the plot nests in it at its size: {f}");
        assert!(f.contains("path.curve{fill:none") && f.contains(&c.muted));
        assert!(f.trim_end().ends_with("</path></svg></svg>"));
        assert!(svg_file("<div></div>", &c, 1, 1, &SvgCaption::default()).is_err());
    }

    #[test]
    fn a_caption_becomes_a_band_above_the_plot_with_its_keys() {
        let c = SvgColours { fg: "#e6ebf0".into(), font: "system-ui, \"Segoe UI\"".into(), ..SvgColours::default() };
        let cap = SvgCaption {
            text: "Result across <x> & y".into(),
            keys: vec![("A (pinned)".into(), "#E69F00".into()), ("B (current)".into(), "#0072B2".into())],
        };
        assert_eq!(caption_height(&SvgCaption::default()), 0);
        let band = caption_height(&cap);
        assert!(band >= 16, "room for a 13px line: {band}");
        let f = svg_file("<svg viewBox=\"0 0 560 250\"><circle r=\"3\"></circle></svg>", &c, 560, 250, &cap).unwrap();
        let outer = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"{h}\" viewBox=\"0 0 560 {h}\">",
            h = 250 + band
        );
        assert!(f.contains(&outer), "the file is the plot plus the band: {f}");
        assert!(f.contains(&format!("<svg viewBox=\"0 0 560 250\" y=\"{band}\" width=\"560\" height=\"250\">")), "{f}");
        assert!(f.contains(">Result across &lt;x&gt; &amp; y</text>"), "escaped caption: {f}");
        assert!(
            f.contains("fill=\"#E69F00\"") && f.contains(">A (pinned)</text>") && f.contains(">B (current)</text>")
        );
        assert!(f.contains("text.caption{fill:#e6ebf0"), "the caption takes the page's text colour: {f}");
        assert!(f.contains("font:11px system-ui, &quot;Segoe UI&quot;"), "the page's font: {f}");
        assert_eq!(f.matches("<svg").count(), 2);
        assert!(f.trim_end().ends_with("</circle></svg></svg>"));
        // Keys are placed left to right without overlapping.
        let xs: Vec<f64> = f
            .match_indices("<rect x=\"")
            .map(|(i, m)| f[i + m.len()..].split('"').next().unwrap().parse().unwrap())
            .collect();
        assert!(xs.len() == 2 && xs[1] > xs[0] + 15.0 + 7.0 * "A (pinned)".len() as f64, "{xs:?}");
    }
}

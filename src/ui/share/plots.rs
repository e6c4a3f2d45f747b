//! The plots' files in the views module (issue 26's code splitting; src/bin/views.rs): registers
//! `window.schedscopePlotFiles.show(selector, name, png, onFail)`, which reads the plot under
//! `selector` from the page's DOM (the same document), writes it as a standalone SVG file
//! (`files::svg_file`, with the page's computed colours and the figure's caption) and
//! downloads it, or as a PNG at the screen's pixel density drawn from that SVG. A failure,
//! now or when the image answers, calls `onFail(why)`. The page's side is `export.rs`'s
//! `export_plot` (the Export… menu).

use crate::engine::decimal::Within as _;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::address::window;
use super::export::{download_blob, download_text};
use super::files::{caption_height, svg_file, SvgCaption, SvgColours};
use crate::ui::common::lazy::register;
use crate::ui::common::palette::{SERIES_A, SERIES_B};

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

/// Downloads the plot under `selector` as a PNG at the screen's pixel density (at least 2x):
/// its standalone SVG file is decoded as an image, drawn on an offscreen canvas and encoded.
/// The decoding and encoding answer later: a failure then reaches `fail`.
fn export_png(selector: &str, name: String, fail: Callback<String>) -> Result<(), String> {
    let (file, w, h) = plot_file(selector)?;
    let scale = window().map_or(2.0, |w| w.device_pixel_ratio()).within(2.0, 4.0);
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

/// Registers `show` on `window` (called once, by the module's `main`).
pub fn start() {
    let show = Closure::<dyn Fn(String, String, bool, js_sys::Function)>::new(
        |selector: String, name: String, png: bool, on_fail: js_sys::Function| {
            let fail = Callback::from(move |e: String| {
                let _ = on_fail.call1(&JsValue::NULL, &e.into());
            });
            let r = if png { export_png(&selector, name, fail.clone()) } else { export_svg(&selector, &name) };
            if let Err(e) = r {
                fail.emit(e);
            }
        },
    );
    register("schedscopePlotFiles", show.as_ref());
    // Lives as long as the page.
    show.forget();
}

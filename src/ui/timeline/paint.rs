//! Painting a `draw::Scene` on a 2D canvas (the span image through a scratch canvas, then
//! fills, strokes and texts), and the PNG export of a trace or a canvas.

use super::*;

/// A small canvas the span image goes through (`putImageData` cannot scale).
pub(super) struct Scratch {
    pub(super) canvas: HtmlCanvasElement,
    pub(super) ctx: CanvasRenderingContext2d,
}

impl Scratch {
    pub(super) fn new() -> Option<Scratch> {
        let canvas: HtmlCanvasElement =
            web_sys::window()?.document()?.create_element("canvas").ok()?.dyn_into().ok()?;
        let ctx = canvas.get_context("2d").ok().flatten()?.dyn_into().ok()?;
        Some(Scratch { canvas, ctx })
    }
}

/// Draws the span bands: the RGBA rows go onto the scratch canvas with one `putImageData`,
/// then each row is stretched over its band with `drawImage` (smoothing off, so columns
/// stay sharp). `ImageData` and `putImageData` are reached through `Reflect` because the
/// crate's web-sys feature list has no `ImageData`.
pub(super) fn paint_spans(
    ctx: &CanvasRenderingContext2d,
    img: &draw::SpanImage,
    scratch: &Scratch,
) -> Result<(), JsValue> {
    if img.width == 0 || img.rows.is_empty() {
        return Ok(());
    }
    let (w, h) = (img.width as u32, img.rows.len() as u32);
    if scratch.canvas.width() != w || scratch.canvas.height() != h {
        scratch.canvas.set_width(w);
        scratch.canvas.set_height(h);
    }
    let data = js_sys::Uint8ClampedArray::from(&img.rgba[..]);
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"ImageData".into())?.dyn_into()?;
    let image = js_sys::Reflect::construct(&ctor, &js_sys::Array::of3(&data, &w.into(), &h.into()))?;
    let put: js_sys::Function = js_sys::Reflect::get(&scratch.ctx, &"putImageData".into())?.dyn_into()?;
    put.call3(&scratch.ctx, &image, &0.into(), &0.into())?;
    ctx.set_image_smoothing_enabled(false);
    for (row, (y, bh)) in img.rows.iter().enumerate() {
        ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
            &scratch.canvas,
            0.0,
            row as f64,
            img.width as f64,
            1.0,
            img.x,
            *y,
            img.width as f64,
            *bh,
        )?;
    }
    Ok(())
}

/// Replays a scene on a 2D context: one `fillStyle` per colour batch, the span image at its
/// place among the fills, then strokes and texts.
pub(super) fn paint(ctx: &CanvasRenderingContext2d, scene: &Scene, scratch: Option<&Scratch>) {
    for (i, f) in scene.fills.iter().enumerate() {
        if i == scene.image_at {
            paint_image(ctx, scene, scratch);
        }
        ctx.set_fill_style_str(f.colour);
        if !f.rects.is_empty() {
            ctx.begin_path();
            for r in &f.rects {
                ctx.rect(r[0], r[1], r[2], r[3]);
            }
            ctx.fill();
        }
        if !f.tris.is_empty() {
            ctx.begin_path();
            for t in &f.tris {
                ctx.move_to(t[0], t[1]);
                ctx.line_to(t[2], t[3]);
                ctx.line_to(t[4], t[5]);
                ctx.close_path();
            }
            ctx.fill();
        }
    }
    if scene.image_at >= scene.fills.len() {
        paint_image(ctx, scene, scratch);
    }
    let dash = js_sys::Array::of2(&JsValue::from(4.0), &JsValue::from(3.0));
    let solid = js_sys::Array::new();
    for s in &scene.strokes {
        ctx.set_stroke_style_str(s.colour);
        ctx.set_line_width(s.width);
        let _ = ctx.set_line_dash(if s.dashed { &dash } else { &solid });
        ctx.begin_path();
        for g in &s.segs {
            ctx.move_to(g[0], g[1]);
            ctx.line_to(g[2], g[3]);
        }
        ctx.stroke();
    }
    let _ = ctx.set_line_dash(&solid);
    ctx.set_text_baseline("middle");
    let mut font = String::new();
    for t in &scene.texts {
        let f = format!(
            "{}px {}",
            crate::engine::decimal::shortest(t.px.round()),
            if t.mono { "ui-monospace, Menlo, Consolas, monospace" } else { "system-ui, sans-serif" }
        );
        if f != font {
            ctx.set_font(&f);
            font = f;
        }
        ctx.set_fill_style_str(t.colour);
        ctx.set_text_align(match t.align {
            Align::Left => "left",
            Align::Center => "center",
            Align::Right => "right",
        });
        let _ = ctx.fill_text(&t.text, t.x, t.y);
    }
}

pub(super) fn paint_image(ctx: &CanvasRenderingContext2d, scene: &Scene, scratch: Option<&Scratch>) {
    if let (Some(img), Some(scratch)) = (&scene.spans, scratch) {
        if let Err(e) = paint_spans(ctx, img, scratch) {
            web_sys::console::warn_1(&format!("timeline: cannot draw the spans: {e:?}").into());
        }
    }
}

/// The canvas's current pixels as a `data:image/png;base64,...` URL.
pub fn canvas_png_data_url(canvas: &HtmlCanvasElement) -> Result<String, String> {
    canvas.to_data_url_with_type("image/png").map_err(|e| format!("the browser refused to export the canvas: {e:?}"))
}

/// Draws `trace` off-screen and returns it as a PNG data URL: the whole trace, or
/// `window` (start, end in ns, clamped to the trace), `css_width` CSS pixels wide (height
/// follows from the number of cores) at `scale` device pixels per CSS pixel (2 for slides).
/// Errors (no document, no 2D context) come back as a message.
pub fn render_png_data_url(
    trace: &Trace,
    window: Option<(Ns, Ns)>,
    css_width: u32,
    scale: f64,
    label: &str,
) -> Result<String, String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document to draw in")?;
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(|e| format!("cannot create a canvas: {e:?}"))?
        .dyn_into()
        .map_err(|_| "cannot create a canvas".to_string())?;
    let index = TraceIndex::new(trace);
    // In the colours on screen, like the plots' PNG exports.
    let layout = Layout::new(css_width as f64, index.lanes, scale).themed(prefers_dark());
    let (legend_h, _) = draw::png_legend(trace, &index, &layout, layout.height, label);
    canvas.set_width(layout.width as u32);
    canvas.set_height((layout.height + legend_h) as u32);
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the browser gave no 2D canvas context")?;
    let view = match window {
        Some((a, b)) => View { t0: a as f64, t1: b as f64 }.clamp(index.end),
        None => View::fit(index.end),
    };
    let scene = draw::build_scene(trace, &index, &view, &layout);
    paint(&ctx, &scene, Scratch::new().as_ref());
    // The legend and the caption go in a band below the axis and lanes (`png_legend`).
    let (_, legend) = draw::png_legend(trace, &index, &layout, layout.height, label);
    paint(&ctx, &legend, None);
    canvas_png_data_url(&canvas)
}

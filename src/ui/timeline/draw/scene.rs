//! The scene: a display list in device pixels (fills batched by colour, strokes, texts and the
//! span image) that the component replays (`build_scene`), and the exported PNG's legend.

use crate::engine::decimal::Within as _;

use super::*;

// ---------------------------------------------------------------- scene

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub x: f64,
    /// Vertical middle of the text.
    pub y: f64,
    pub text: String,
    pub colour: &'static str,
    /// Font size in device pixels.
    pub px: f64,
    pub align: Align,
    pub mono: bool,
}

/// Rects `[x, y, w, h]` and triangles `[x0, y0, x1, y1, x2, y2]` filled with one colour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fill {
    pub colour: &'static str,
    pub rects: Vec<[f64; 4]>,
    pub tris: Vec<[f64; 6]>,
}

/// Line segments `[x0, y0, x1, y1]` stroked with one colour and width.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stroke {
    pub colour: &'static str,
    pub width: f64,
    pub dashed: bool,
    pub segs: Vec<[f64; 4]>,
}

/// The span bands as pixels: row `k` of `rgba` (`width` pixels, RGBA, transparent where no
/// span) is drawn at `x` stretched over `rows[k]` = (top, height). Drawing the LOD as one
/// image instead of one `fillRect` per merged run keeps a frame to a few canvas calls: in
/// headless Chromium 43,000 `fillRect`s took 60-120 ms per frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpanImage {
    pub x: f64,
    pub width: usize,
    pub rows: Vec<(f64, f64)>,
    pub rgba: Vec<u8>,
    /// Merged runs painted (the LOD's rect count).
    pub runs: usize,
}

impl SpanImage {
    /// Appends a row drawn over `(top, height)`: each `(column, rgb)` paints `w` pixels
    /// from that column (later pairs win), the rest stays transparent.
    pub fn push_row(&mut self, at: (f64, f64), px: impl Iterator<Item = (u32, [u8; 3])>, w: usize) {
        let start = self.rgba.len();
        self.rgba.resize(start + self.width * 4, 0);
        let line = &mut self.rgba[start..];
        for (c, [r, g, b]) in px {
            self.runs += 1;
            for col in c as usize..(c as usize + w).min(self.width) {
                line[col * 4..col * 4 + 4].copy_from_slice(&[r, g, b, 255]);
            }
        }
        self.rows.push(at);
    }
}

/// `#RRGGBB` to bytes (anything else is black).
pub fn hex_rgb(hex: &str) -> [u8; 3] {
    let h = hex.trim_start_matches('#');
    let byte = |i: usize| h.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()).unwrap_or(0);
    [byte(0), byte(2), byte(4)]
}

/// A display list in device pixels: fills (the span image drawn before fill `image_at`),
/// then strokes, then texts, each in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub fills: Vec<Fill>,
    pub spans: Option<SpanImage>,
    pub image_at: usize,
    pub strokes: Vec<Stroke>,
    pub texts: Vec<Text>,
    /// Spans overlapping the view.
    pub visible_spans: usize,
    /// First fill batch of the current layer.
    layer: usize,
}

impl Scene {
    /// The batch for `colour` in the current layer (batches of earlier layers are not
    /// reused, so what a later layer draws stays on top).
    pub fn fill(&mut self, colour: &'static str) -> &mut Fill {
        let i = match self.fills[self.layer..].iter().position(|f| f.colour == colour) {
            Some(i) => self.layer + i,
            None => {
                self.fills.push(Fill { colour, ..Fill::default() });
                self.fills.len() - 1
            }
        };
        &mut self.fills[i]
    }

    pub fn stroke(&mut self, colour: &'static str, width: f64, dashed: bool) -> &mut Stroke {
        let i = match self.strokes.iter().position(|s| s.colour == colour && s.width == width && s.dashed == dashed) {
            Some(i) => i,
            None => {
                self.strokes.push(Stroke { colour, width, dashed, segs: Vec::new() });
                self.strokes.len() - 1
            }
        };
        &mut self.strokes[i]
    }

    /// Starts a layer: fills from now on are drawn after every earlier fill.
    pub fn layer(&mut self) {
        self.layer = self.fills.len();
    }

    /// Rects drawn, counting each merged span run as one (for the level-of-detail bound).
    pub fn rect_count(&self) -> usize {
        self.fills.iter().map(|f| f.rects.len()).sum::<usize>() + self.spans.as_ref().map_or(0, |i| i.runs)
    }

    fn text(&mut self, x: f64, y: f64, text: String, px: f64, align: Align, colour: &'static str) {
        self.texts.push(Text { x, y, text, colour, px, align, mono: false });
    }
}

/// The legend and caption band of an exported PNG, drawn below the timeline (from y = `top`):
/// tasks, idle states, overheads and marks as swatches with their names, flowing into rows,
/// then `label` (the caption: which run) on a line of its own, so no text lands on an axis
/// label. Returns the band's height (device pixels) and its scene.
pub fn png_legend(trace: &Trace, index: &TraceIndex, layout: &Layout, top: f64, label: &str) -> (f64, Scene) {
    let mut sc = Scene::default();
    let s = layout.px();
    let ch = layout.chrome;
    let (px, row_h, sw, pad) = (11.0 * s, 18.0 * s, 10.0 * s, 8.0 * s);
    // Estimated text width: the canvas's system font averages about 0.58 em a character.
    let text_w = |t: &str| t.chars().count() as f64 * px * 0.58;
    let mut items: Vec<(Option<&'static str>, String)> = Vec::new();
    items.push((None, "Tasks:".into()));
    for (slot, name) in &index.colours.legend {
        items.push((Some(TASK_COLOURS[*slot as usize % TASK_COLOURS.len()]), name.clone()));
    }
    let idle_count = trace.idle_states.len();
    if idle_count > 0 {
        items.push((None, "Idle:".into()));
        for (i, name) in trace.idle_states.iter().enumerate() {
            items.push((Some(ch.idle[idle_shade(i as u8, idle_count) as usize]), name.clone()));
        }
    }
    items.push((None, "Overheads:".into()));
    for k in Overhead::ALL {
        items.push((Some(OVERHEAD_COLOURS[overhead_index(k)]), overhead_label(k).into()));
    }
    items.push((None, "Marks:".into()));
    let marks = [ch.tick_mark, HRTICK_MARK, ch.wakeup_arrow, IPI_ARROW, ch.migrate_arrow];
    for (c, name) in marks.iter().zip(MARK_LABELS) {
        items.push((Some(c), name.to_string()));
    }
    let (x0, x1) = (pad, layout.width - pad);
    let (mut x, mut y) = (x0, top + pad + row_h / 2.0);
    let mut placed = Vec::new();
    for (colour, name) in items {
        let w = text_w(&name) + colour.map_or(0.0, |_| sw + 4.0 * s) + 12.0 * s;
        if x + w > x1 && x > x0 {
            x = x0;
            y += row_h;
        }
        placed.push((x, y, colour, name));
        x += w;
    }
    if !label.is_empty() {
        y += row_h;
    }
    let height = (y + row_h / 2.0 + pad - top).ceil();
    sc.fill(ch.background).rects.push([0.0, top, layout.width, height]);
    for (x, y, colour, name) in placed {
        let tx = match colour {
            Some(c) => {
                sc.fill(c).rects.push([x, y - sw / 2.0, sw, sw]);
                x + sw + 4.0 * s
            }
            None => x,
        };
        sc.text(tx, y, name, px, Align::Left, ch.text);
    }
    if !label.is_empty() {
        sc.text(x1, y, label.to_string(), px, Align::Right, ch.text);
    }
    (height, sc)
}

/// Builds everything but the hover overlay for `view` on `layout`.
pub fn build_scene(trace: &Trace, index: &TraceIndex, view: &View, layout: &Layout) -> Scene {
    let mut sc = Scene::default();
    let cols = layout.plot_w();
    let (w, h, gx, s) = (layout.width, layout.height, layout.gutter, layout.px());
    let ch = layout.chrome;
    sc.fill(ch.background).rects.push([0.0, 0.0, w, h]);
    sc.fill(ch.gutter).rects.push([0.0, 0.0, gx, h]);
    for lane in 0..index.lanes {
        let (y, bh) = layout.band(lane, Band::Overhead);
        sc.fill(ch.overhead_band).rects.push([gx, y, w - gx, bh]);
    }
    // Axis and grid.
    let axis = axis_ticks(view.t0, view.t1);
    let lanes_bottom = layout.lane_y(index.lanes);
    let label_px = 11.0 * s;
    // Label every k-th tick so labels stay at least ~70 CSS px apart.
    let tick_px = axis.step as f64 / view.len() * cols as f64;
    let every = ((70.0 * s / tick_px.max(1.0)).ceil() as usize).max(1);
    // The base ("15.742 ms +") ends at the gutter's edge, or further right when it is wider
    // than the gutter; tick labels that would run into it are left out.
    let base = axis.base.as_ref().map(|(_, b)| {
        let text = format!("{b} +");
        let right = (gx - 4.0 * s).max(4.0 * s + axis_label_w(&text, label_px));
        (text, right)
    });
    let clear_of = base.as_ref().map_or(0.0, |(_, right)| right + 6.0 * s);
    for (k, (t, label)) in axis.ticks.iter().enumerate() {
        let x = layout.x_of(view, *t as f64).round() + 0.5;
        sc.fill(ch.grid).rects.push([x - 0.5, layout.axis_h - 5.0 * s, 1.0, lanes_bottom - layout.axis_h + 5.0 * s]);
        if k % every == 0 {
            // Keep the label inside the plot (estimated width: ~0.6 em per character).
            let half = axis_label_w(label, label_px) / 2.0;
            let lx = x.within(gx + half, (w - half).max(gx + half));
            if lx - half >= clear_of {
                sc.text(lx, layout.axis_h * 0.45, label.clone(), label_px, Align::Center, layout.chrome.text);
            }
        }
    }
    if let Some((text, right)) = base {
        sc.text(right, layout.axis_h * 0.45, text, label_px, Align::Right, layout.chrome.text);
    }
    sc.stroke(ch.tick_mark, 1.0, false).segs.push([gx, layout.axis_h - 0.5, w, layout.axis_h - 0.5]);
    // Spans, over the backgrounds and grid: one pixel row per band, stretched to its height.
    sc.layer();
    sc.image_at = sc.fills.len();
    let rgb: Vec<[u8; 3]> = colour_table(ch).iter().map(|h| hex_rgb(h)).collect();
    let mut img =
        SpanImage { x: gx, width: cols, rows: Vec::with_capacity(index.lanes * 2), rgba: Vec::new(), runs: 0 };
    img.rgba.resize(cols * index.lanes * 2 * 4, 0);
    for lane in 0..index.lanes {
        let lod = lod_lane(trace, index, lane, view, cols);
        sc.visible_spans += lod.visible;
        for (band, rects) in [(Band::Main, &lod.main), (Band::Overhead, &lod.overhead)] {
            let row = img.rows.len();
            img.rows.push(layout.band(lane, band));
            img.runs += rects.len();
            let line = &mut img.rgba[row * cols * 4..(row + 1) * cols * 4];
            for r in rects {
                let [red, green, blue] = rgb[r.colour as usize];
                for px in line[r.c0 as usize * 4..r.c1 as usize * 4].chunks_exact_mut(4) {
                    px.copy_from_slice(&[red, green, blue, 255]);
                }
            }
        }
        let name = index.lane_names.get(lane).cloned().unwrap_or_else(|| format!("CPU {lane}"));
        let (y, label) = (layout.lane_y(lane) + layout.lane_h * 0.45, name);
        sc.text(6.0 * s, y, label, 11.0 * s, Align::Left, layout.chrome.text);
    }
    // Tick marks and arrowheads on top of the spans.
    sc.layer();
    let mut arrows_left = MAX_ARROWS;
    let marks: Vec<LaneMarks> = (0..index.lanes)
        .map(|lane| {
            let m = lane_marks(trace, index, lane, view, cols, arrows_left);
            arrows_left -= m.arrows.len();
            m
        })
        .collect();
    // Past one arrow per ~8 CSS px, shafts would hide the spans: draw only the heads.
    let dense = marks.iter().any(|m| m.truncated)
        || marks.iter().map(|m| m.arrows.len()).sum::<usize>() as f64 > cols as f64 / (8.0 * s);
    // Marks are pixel rows of the span image too (thousands of tiny fills are slow to
    // draw): per lane an hrtick row, a tick row over it, and, when dense, an arrival row.
    let mark_w = (s.round() as usize).max(1);
    for (lane, marks) in marks.iter().enumerate() {
        let (y, bh) = layout.band(lane, Band::Main);
        let hr = hex_rgb(HRTICK_MARK);
        img.push_row((y, (bh * 0.38).round()), marks.hrticks.iter().map(|&c| (c, hr)), mark_w);
        let tk = hex_rgb(ch.tick_mark);
        img.push_row((y, (bh * 0.22).round()), marks.ticks.iter().map(|&c| (c, tk)), mark_w);
        if dense {
            // Arrivals only, coloured by kind (a wakeup wins a shared column).
            let mut sorted = marks.arrivals.clone();
            order::sort_by_key(&mut sorted, |a| std::cmp::Reverse(a.1 as u8));
            let colour = |k: ArrowKind| {
                hex_rgb(match k {
                    ArrowKind::Wakeup => ch.wakeup_arrow,
                    ArrowKind::Ipi => IPI_ARROW,
                    ArrowKind::Migrate => ch.migrate_arrow,
                })
            };
            let h = (3.0 * s).round();
            img.push_row((y + bh - h, h), sorted.into_iter().map(|(c, k)| (c, colour(k))), mark_w);
            continue;
        }
        for a in &marks.arrows {
            let x = gx + a.col as f64 + 0.5;
            let (colour, dashed) = match a.kind {
                ArrowKind::Wakeup => (ch.wakeup_arrow, false),
                ArrowKind::Ipi => (IPI_ARROW, true),
                ArrowKind::Migrate => (ch.migrate_arrow, true),
            };
            let (fy, fh) = layout.band(a.from as usize, Band::Main);
            let (ty, th) = layout.band(a.to as usize, Band::Main);
            let (y0, y1) = (fy + fh * 0.5, ty + th * 0.5);
            let head = 4.0 * s;
            if a.from == a.to {
                // Same-core wakeup: a small downward head at the lane top.
                sc.fill(colour).tris.push([x - head, ty, x + head, ty, x, ty + head * 1.5]);
                continue;
            }
            let dir = if y1 > y0 { 1.0 } else { -1.0 };
            sc.stroke(colour, s.max(1.0), dashed).segs.push([x, y0, x, y1 - dir * head]);
            sc.fill(colour).tris.push([
                x - head * 0.8,
                y1 - dir * head * 1.6,
                x + head * 0.8,
                y1 - dir * head * 1.6,
                x,
                y1,
            ]);
        }
    }
    // Topology groups (`TraceIndex::with_topology`): a rule above each group's first lane and
    // its label at the plot's right end on a gutter-coloured tag: two rects and one text a
    // group, computed once per trace. A label wider than a quarter of the plot (a phone) gives
    // way to its short form ("s0/LLC0/2nd"), so the tag leaves the lane its spans.
    if !index.groups.is_empty() {
        sc.layer();
        let (gpx, rule) = (9.0 * s, s.round().max(1.0));
        for (lane, full, short) in &index.groups {
            let wide = full.chars().count() as f64 * gpx * 0.55 + 6.0 * s > cols as f64 / 4.0;
            let label = if wide { short } else { full };
            let y = layout.lane_y(*lane);
            if *lane > 0 {
                sc.fill(ch.text).rects.push([0.0, y - (rule / 2.0).round(), w, rule]);
            }
            let (tw, th) = (label.chars().count() as f64 * gpx * 0.55 + 6.0 * s, (gpx + 3.0 * s).round());
            let x0 = (w - tw).max(gx);
            sc.fill(ch.gutter).rects.push([x0, y, w - x0, th]);
            sc.text(w - 3.0 * s, y + th / 2.0, label.clone(), gpx, Align::Right, ch.text);
        }
    }
    sc.spans = Some(img);
    sc
}

/// An axis label's estimated width in device pixels: ~0.6 em per character.
fn axis_label_w(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.6
}

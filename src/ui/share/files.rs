//! The export files' pure parts (tested natively): a file name stem, the worker jobs that
//! write the CSV and trace files, and a plot's standalone SVG file.

use crate::engine::config::Config;
use crate::engine::presets::preset;
use crate::ui::app::state::{RunView, State};
use crate::ui::sweep::model::Sweep;
use crate::ui::worker::protocol::{Export, Request, RunResult};

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

/// Longest file name stem (the config's differences are cut there).
const MAX_STEM: usize = 80;

/// A file name stem naming the config: the preset, then what differs from it (the workload
/// and kernel by their value, other keys as `key-value`), and with a pinned A that differs,
/// `-vs-` and what B changes: `schedscope-intro-hackbench-groups-208`,
/// `schedscope-intro-vs-hz-1000`, `schedscope-custom`. Cut at `MAX_STEM` characters.
pub fn file_stem(state: &State) -> String {
    let p = preset(&state.preset);
    let base = p.map(|p| (p.config)()).unwrap_or_default();
    let a = state.pin.as_ref().map_or(&state.config, |p| &p.config);
    let part = |(k, v): (&str, String)| if matches!(k, "workload" | "kernel") { v } else { format!("{k}-{v}") };
    let mut parts = vec!["schedscope".to_string(), p.map_or("custom", |p| p.name).to_string()];
    parts.extend(a.diff(&base).into_iter().map(part));
    // B: the current config, or a link's B still waiting for A's run.
    let b = state.pending_b.as_ref().unwrap_or(&state.config);
    if state.pin.is_some() && a != b {
        parts.push("vs".into());
        parts.extend(b.diff(a).into_iter().map(part));
    }
    let clean: String = parts
        .join("-")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' })
        .take(MAX_STEM)
        .collect();
    clean.trim_end_matches(['-', '.', '_']).to_string()
}

/// A config as the query of its own link, without the version: `preset=intro&hz=1000`.
pub fn config_text(preset_name: &str, config: &Config) -> String {
    let u = crate::share::url::UrlState {
        preset: preset(preset_name).map(|p| p.name.to_string()),
        config: config.clone(),
        ..Default::default()
    };
    let q = crate::share::url::to_query(&u);
    q.strip_prefix("v=1&").or_else(|| q.strip_prefix("v=1")).unwrap_or(&q).to_string()
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
    // The metrics CSV reads no trace: none is copied to the worker for it.
    let trace = if format == Export::MetricsCsv { Default::default() } else { (*r.trace).clone() };
    let run = RunResult { metrics: r.metrics.clone(), trace };
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

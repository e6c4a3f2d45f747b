//! Tests of the share bar's pure parts: embed snippets, file names, the export jobs and
//! standalone SVG files.

use std::rc::Rc;

use super::*;
use crate::share::url::{self, View};
use crate::ui::app::state::State;

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
fn file_names_follow_the_preset_and_what_differs_from_it() {
    let s = State::default();
    assert_eq!(file_stem(&s), format!("schedscope-{}", crate::engine::presets::PRESETS[0].name));
    let s = State::with_config(Default::default(), "no such");
    assert_eq!(file_stem(&s), "schedscope-custom");
    // Issue 29: every file was `schedscope-intro-*` whatever the config.
    let (u, n) = url::parse("v=1&preset=intro&workload=hackbench&groups=8&kernel=6.6");
    assert!(n.is_empty(), "{n:?}");
    let stem = file_stem(&State::from_url(&u, &n));
    assert!(stem.starts_with("schedscope-intro-") && stem.contains("hackbench") && stem.contains("6.6"), "{stem}");
    assert!(stem.contains("groups-8"), "{stem}");
    // A pinned A and a B that differs: both named.
    let (u, n) = url::parse("v=1&preset=intro&compare=1&b.hz=1000");
    let stem = file_stem(&State::from_url(&u, &n));
    assert!(stem.starts_with("schedscope-intro") && stem.ends_with("-vs-hz-1000"), "{stem}");
    assert!(stem.chars().all(|c| c.is_ascii_alphanumeric() || "-._".contains(c)), "{stem}");
    assert_eq!(config_text("intro", &u.compare.unwrap()), "preset=intro&hz=1000");
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
    assert!(f.contains("fill=\"#E69F00\"") && f.contains(">A (pinned)</text>") && f.contains(">B (current)</text>"));
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

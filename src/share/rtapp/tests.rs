//! Tests of the rt-app import: three realistic files, and broken ones that must point at the field.

use proptest::prelude::*;

use super::*;

fn change<'a>(r: &'a ImportResult, key: &str) -> Option<&'a str> {
    r.config_changes.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Asserts there is a notice for `path` mentioning `word`.
fn has_notice(r: &ImportResult, path: &str, word: &str) {
    assert!(
        r.notices.iter().any(|n| n.starts_with(&format!("{path}:")) && n.contains(word)),
        "no notice for {path} with '{word}' in {:#?}",
        r.notices
    );
}

fn error(text: &str) -> ImportError {
    match import(text) {
        Ok(r) => panic!("imported a broken file: {r:?}\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn periodic_timers_with_comments() {
    let r = import(include_str!("../../../tests/data/rtapp/periodic.json")).unwrap();
    assert_eq!(change(&r, "workload"), Some("rtapp"));
    assert_eq!(change(&r, "tasks"), Some("2x3ms/10ms,1x500us/2ms"));
    assert_eq!(change(&r, "duration"), Some("2s"));
    assert_eq!(r.notices, Vec::<String>::new(), "nothing approximated");
}

#[test]
fn phases_are_averaged_and_rt_settings_reported() {
    let r = import(include_str!("../../../tests/data/rtapp/video-phases.json")).unwrap();
    // audio: 300us run + 4700us sleep; decoder: (10 x 8ms + 30 x 4ms) / 40 = 5ms every 16.667ms.
    assert_eq!(change(&r, "tasks"), Some("3x300us/5ms,1x5ms/16667us"));
    assert_eq!(change(&r, "duration"), Some("5s"));
    has_notice(&r, "tasks.decoder.policy", "SCHED_FIFO");
    has_notice(&r, "tasks.decoder.priority", "ignored");
    has_notice(&r, "tasks.decoder.cpus", "ignored");
    has_notice(&r, "tasks.decoder", "2 phases are averaged");
    assert_eq!(r.notices.len(), 4, "{:#?}", r.notices);
}

#[test]
fn numbered_events_sum_and_sync_events_are_ignored() {
    let r = import(include_str!("../../../tests/data/rtapp/browser-locks.json")).unwrap();
    // compositor: timer period wins over run + sleep; render: 2+1+1 ms run, 5+7 ms sleep.
    assert_eq!(change(&r, "tasks"), Some("2x1500us/16ms,1x4ms/16ms"));
    assert_eq!(change(&r, "duration"), None, "duration -1 keeps the config's");
    has_notice(&r, "global.duration", "keeps");
    has_notice(&r, "tasks.render.lock", "ignored");
    has_notice(&r, "tasks.render.unlock", "ignored");
    has_notice(&r, "tasks.compositor.yield", "ignored");
    assert_eq!(r.notices.len(), 4, "{:#?}", r.notices);
}

#[test]
fn the_changes_apply_to_a_config() {
    for text in [
        include_str!("../../../tests/data/rtapp/periodic.json"),
        include_str!("../../../tests/data/rtapp/video-phases.json"),
        include_str!("../../../tests/data/rtapp/browser-locks.json"),
    ] {
        let r = import(text).unwrap();
        let mut c = Config::default();
        c.set("workload", "pipe").unwrap();
        for (k, v) in &r.config_changes {
            c.set(k, v).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(c.get("workload").as_deref(), Some("rtapp"));
    }
}

#[test]
fn bad_json_says_line_and_column() {
    let e = error("{\n  \"tasks\": {\n    \"t\": { \"run\": 10 ] }\n  }\n}");
    assert_eq!(e.path, "");
    assert!(e.message.contains("line 3, column"), "{e}");
    assert_eq!(e.message.matches("line").count(), 1, "position said once: {e}");
    let e = error("");
    assert!(e.message.contains("line 1"), "{e}");
    // A comment keeps positions: the error is still on line 4.
    let e = error("{ /* one\n two\n three */\n \"tasks\": nope }");
    assert!(e.message.contains("line 4"), "{e}");
}

#[test]
fn broken_files_point_at_the_field() {
    let cases: &[(&str, &str, &str)] = &[
        (r#"{"tasks": {"t": {"run": -5, "sleep": 10}}}"#, "tasks.t.run", "negative"),
        (r#"{"tasks": {"t": {"run": 10, "sleep": -1}}}"#, "tasks.t.sleep", "negative"),
        (r#"{"tasks": {"t": {"run": 10, "timer": {"ref": "x"}}}}"#, "tasks.t.timer.period", "missing"),
        (r#"{"tasks": {"t": {"run": 10, "timer": {"period": 0}}}}"#, "tasks.t.timer.period", "more than 0"),
        (r#"{"tasks": {"t": {"run": 10, "timer": 5}}}"#, "tasks.t.timer", "found a number"),
        (r#"{"tasks": {"t": {"run": "10", "sleep": 10}}}"#, "tasks.t.run", "found a string"),
        (r#"{"tasks": {"t": {"run": 10.5, "sleep": 10}}}"#, "tasks.t.run", "whole number"),
        (r#"{"tasks": {"t": {"instance": 1.5, "run": 10}}}"#, "tasks.t.instance", "whole number"),
        (r#"{"tasks": {"t": {"instance": -1, "run": 10}}}"#, "tasks.t.instance", "negative"),
        (r#"{"tasks": {"t": {"instance": 20000, "run": 10}}}"#, "tasks.t.instance", "16384"),
        (r#"{"tasks": {"a": {"instance": 16000, "run": 10}, "b": {"instance": 385, "run": 10}}}"#, "tasks.b", "16384"),
        (r#"{"tasks": {"t": {"run": 10, "sleep": 10, "policy": "SCHED_BATCHY"}}}"#, "tasks.t.policy", "unknown"),
        (r#"{"tasks": {"t": {"run": 10, "sleep": 10, "loop": "forever"}}}"#, "tasks.t.loop", "whole number"),
        (r#"{"tasks": {"t": {"phases": {"p1": {"run": -5}}}}}"#, "tasks.t.phases.p1.run", "negative"),
        (r#"{"tasks": {"t": {"phases": {}}}}"#, "tasks.t.phases", "no phases"),
        (r#"{"tasks": {"t": {"phases": {"p1": 3}}}}"#, "tasks.t.phases.p1", "expected an object"),
        (r#"{"tasks": {"t": {"run": 5}}}"#, "tasks.t", "shorter"),
        (r#"{"tasks": {"t": {"run": 99999999999999, "sleep": 1}}}"#, "tasks.t.run", "longer"),
        (r#"{"tasks": [1, 2]}"#, "tasks", "expected an object"),
        (r#"{"tasks": {}}"#, "tasks", "no tasks"),
        (r#"{"tasks": {"t": {"sleep": 10}}}"#, "tasks", "no thread ever runs"),
        (r#"{"global": {"duration": 2}}"#, "tasks", "missing"),
        (r#"{"global": {"duration": "2"}, "tasks": {"t": {"run": 10, "sleep": 10}}}"#, "global.duration", "seconds"),
        (r#"{"global": [], "tasks": {"t": {"run": 10, "sleep": 10}}}"#, "global", "expected an object"),
        ("[1, 2, 3]", "", "expected an object"),
    ];
    for (text, path, word) in cases {
        let e = error(text);
        assert_eq!(e.path, *path, "{text}: {e}");
        assert!(e.message.contains(word), "{text}: '{e}' lacks '{word}'");
    }
}

#[test]
fn size_is_capped() {
    let big = format!("{{\"tasks\": {{}}, \"pad\": \"{}\"}}", "x".repeat(MAX_FILE_BYTES));
    let e = error(&big);
    assert!(e.message.contains("limit"), "{e}");
}

#[test]
fn small_cases_map_as_documented() {
    // No timer: period is run + sleep; a long run under a timer is capped with a notice.
    let r = import(r#"{"tasks": {"t": {"run": 1000, "sleep": 3000}}}"#).unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x1ms/4ms"));
    let r = import(r#"{"tasks": {"t": {"run": 3000, "timer": {"ref": "u", "period": 2000}}}}"#).unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x2ms/2ms"));
    has_notice(&r, "tasks.t", "capped");
    // A busy loop (no sleep) is a task that always runs.
    let r = import(r#"{"tasks": {"hog": {"run": 1000}}}"#).unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x1ms/1ms"));
    // Instance 0 creates nothing; finite loops and long durations are reported.
    let r = import(
        r#"{"global": {"duration": 9999}, "tasks": {"a": {"instance": 0, "run": 10},
        "b": {"loop": 5, "run": 100, "sleep": 100}}}"#,
    )
    .unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x100us/200us"));
    assert_eq!(change(&r, "duration"), Some("600s"));
    has_notice(&r, "tasks.a", "instance 0");
    has_notice(&r, "tasks.b.loop", "repeats");
    has_notice(&r, "global.duration", "capped");
    // Comment markers inside strings are text.
    let r = import(r#"{"tasks": {"a//b /* c */": {"run": 10, "sleep": 90}}, "x": 1}"#).unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x10us/100us"));
    has_notice(&r, "x", "unknown");
}

#[test]
fn blanking_comments_keeps_positions() {
    let text = "a /* b\nc */ d // e\nf \"/*g*/\"";
    let out = blank_comments(text).unwrap();
    assert_eq!(out.chars().count(), text.chars().count());
    assert_eq!(out, "a     \n     d     \nf \"/*g*/\"");
}

proptest! {
    #[test]
    fn import_never_panics(s in any::<String>()) {
        let _ = import(&s);
    }

    #[test]
    fn import_never_panics_on_json_like_text(s in r#"[{}\[\]":,0-9a-z/* \n-]{0,200}"#) {
        let _ = import(&s);
        if let Ok(b) = blank_comments(&s) {
            prop_assert_eq!(b.chars().count(), s.chars().count());
        }
        if let Ok(d) = rtapp_dialect(&s) {
            prop_assert_eq!(d.matches('\n').count(), s.matches('\n').count());
        }
    }
}

/// Issue 30, defect 8: rt-app's own examples use its JSON dialect (json-c, not strict
/// JSON): `custom-slice.json` ends `global` with a comma, the two video files have a bare
/// `"suspend",` member. Files written here in that dialect (rt-app is GPL-2.0: its files
/// are not copied) import; an unterminated `/*` is refused with its line.
#[test]
fn rt_app_dialect_trailing_commas_bare_members_and_open_comments() {
    let r = import(
        "{\n \"tasks\": {\n  \"t\": { \"loop\": -1, \"run\": 1000, \"sleep\": 9000, },\n  \"v\": { \"suspend\",\n \
         \"run\": 500, \"timer\": { \"ref\": \"a\", \"period\": 5000 }, \"resume\" : \"v\" }\n },\n \"global\": \
         { \"duration\": 2, \"gnuplot\": true, },\n}\n",
    )
    .unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x1ms/10ms,1x500us/5ms"));
    assert_eq!(change(&r, "duration"), Some("2s"));
    has_notice(&r, "tasks.v.suspend", "ignored");
    // A comma inside a string is not a trailing comma; a bare key at the end of an object.
    let r = import("{\"tasks\":{\"a,}\":{\"run\":100,\"sleep\":900,\"suspend\"}}}").unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x100us/1ms"));
    let e = error("{\n\"tasks\": {}\n/* never closed\n}");
    assert_eq!(e.message, "line 3: a /* comment is never closed");
    // Lists too: `[1, 2,]`.
    assert!(import("{\"tasks\":{\"a\":{\"run\":100,\"sleep\":900,\"cpus\":[0,1,]}}}").is_ok());
}

/// Issue 30, defect 8: `"loop": -5` silently meant forever. rt-app ends a loop when its
/// counter (from 0) equals the count (`rt-app.c`), so any count below 1 in a phase and any
/// negative one for a thread loops forever, and a thread's 0 with phases never runs.
#[test]
fn loop_counts_below_one_follow_rt_app_and_are_noted() {
    let r = import("{\"tasks\":{\"a\":{\"loop\":-5,\"run\":100,\"sleep\":900}}}").unwrap();
    assert_eq!(change(&r, "tasks"), Some("1x100us/1ms"));
    has_notice(&r, "tasks.a.loop", "-5 loops forever");
    let r = import("{\"tasks\":{\"a\":{\"loop\":-1,\"run\":100,\"sleep\":900}}}").unwrap();
    assert!(r.notices.is_empty(), "{:?}", r.notices);
    let phases = "{\"tasks\":{\"a\":{\"phases\":{\"p1\":{\"loop\":0,\"run\":100,\"sleep\":900},\
                  \"p2\":{\"loop\":5,\"run\":5000,\"sleep\":5000}}}, \"b\":{\"loop\":0,\"phases\":{\"p\":{\"run\":1}}}}}";
    let r = import(phases).unwrap();
    // p1 repeats forever: p2 never runs; b never runs at all.
    assert_eq!(change(&r, "tasks"), Some("1x100us/1ms"));
    has_notice(&r, "tasks.a.phases.p1.loop", "forever, so it alone is simulated");
    has_notice(&r, "tasks.b.loop", "never runs");
}

/// Every file of rt-app's `doc/examples` (rt-app 55cb0c0; GPL-2.0, so not copied here),
/// with the dialect features and fields it uses and how this importer reads it. Checked
/// by hand with `schedscope run --import FILE` on each file (2026-12-02): the 22 outside
/// `merge/` import; the 6 in `merge/` are fragments that rt-app's `workgen` merges into one
/// file (no `tasks`, or threads with only resources), refused with the reason.
const EXAMPLES: &[(&str, &str, bool)] = &[
    ("browser-long.json", "trailing-comma phases lock suspend resume priority loop", true),
    ("browser-short.json", "trailing-comma phases lock suspend resume priority loop", true),
    ("cpufreq_governor_efficiency/calibration.json", "trailing-comma phases instance loop", true),
    ("cpufreq_governor_efficiency/dvfs.json", "trailing-comma phases timer instance cpus policy loop", true),
    ("custom-slice.json", "comments trailing-comma dl-runtime priority policy loop", true),
    ("merge/global.json", "global-only", false),
    ("merge/resources.json", "resources-only", false),
    ("merge/thread0.json", "resources lock", false),
    ("merge/thread1.json", "resources lock", false),
    ("merge/thread2.json", "resources lock", false),
    ("merge/thread3.json", "resources lock", false),
    ("mp3-long.json", "phases timer lock suspend resume cpus priority loop", true),
    ("mp3-short.json", "phases timer lock suspend resume cpus priority loop", true),
    ("spreading-tasks.json", "trailing-comma phases timer instance loop", true),
    ("template.json", "comments timer instance lock loop", true),
    ("tutorial/example1.json", "comments trailing-comma loop", true),
    ("tutorial/example10.json", "comments lock loop taskgroup", true),
    ("tutorial/example11.json", "comments phases lock loop taskgroup", true),
    ("tutorial/example2.json", "comments timer instance lock loop", true),
    ("tutorial/example3.json", "comments phases timer instance loop", true),
    ("tutorial/example4.json", "comments suspend resume loop", true),
    (
        "tutorial/example5.json",
        "comments trailing-comma phases timer instance lock suspend resume cpus priority loop",
        true,
    ),
    ("tutorial/example6.json", "comments instance lock loop mem iorun", true),
    ("tutorial/example7.json", "comments trailing-comma lock barrier loop", true),
    ("tutorial/example8.json", "comments phases lock cpus loop", true),
    ("tutorial/example9.json", "comments phases instance lock loop fork", true),
    ("video-long.json", "trailing-comma bare-member phases timer lock suspend resume priority loop", true),
    ("video-short.json", "trailing-comma bare-member phases timer lock suspend resume priority loop", true),
];

/// A snippet written here in rt-app's dialect per feature the examples use, and whether
/// it imports (with a notice naming the field when it is approximated).
fn feature_snippet(feature: &str) -> (String, bool) {
    let t = |body: &str| format!("{{ \"tasks\": {{ \"t\": {{ \"run\": 1000, \"sleep\": 9000, {body} }} }} }}");
    let s = match feature {
        "comments" => "/* a */ { // b\n \"tasks\": { \"t\": { \"run\": 1000, \"sleep\": 9000 } } }".to_string(),
        "trailing-comma" => "{ \"tasks\": { \"t\": { \"run\": 1000, \"sleep\": 9000, }, }, }".to_string(),
        "bare-member" => t("\"suspend\", \"loop\": -1"),
        "phases" => "{ \"tasks\": { \"t\": { \"phases\": { \"p1\": { \"loop\": 2, \"run\": 1000, \"sleep\": 1000 }, \
                     \"p2\": { \"run\": 500, \"sleep\": 500 } } } } }"
            .to_string(),
        "timer" => t("\"timer\": { \"ref\": \"tick\", \"period\": 16000 }"),
        "instance" => t("\"instance\": 4"),
        "lock" => t("\"lock\": \"m\", \"unlock\": \"m\""),
        "suspend" => t("\"suspend\": \"t\""),
        "resume" => t("\"resume\": \"t\""),
        "barrier" => t("\"barrier\": \"b\""),
        "mem" => t("\"mem\": 1000"),
        "iorun" => t("\"iorun\": 1000"),
        "fork" => t("\"fork\": \"u\""),
        "cpus" => t("\"cpus\": [0, 1,]"),
        "priority" => t("\"priority\": -19"),
        "policy" => t("\"policy\": \"SCHED_FIFO\""),
        "dl-runtime" => t("\"policy\": \"SCHED_OTHER\", \"dl-runtime\": 100000"),
        "taskgroup" => t("\"taskgroup\": \"/tg1\""),
        "loop" => t("\"loop\": -1"),
        "resources" => {
            "{ \"resources\": { \"m\": { \"type\": \"mutex\" } }, \"tasks\": { \"t\": { \"lock\": \"m\" } } }"
                .to_string()
        }
        "global-only" => "{ \"global\": { \"duration\": 2, \"calibration\": \"CPU0\", }, }".to_string(),
        "resources-only" => "{ \"resources\": { \"m\": { \"type\": \"mutex\" } } }".to_string(),
        other => panic!("no snippet for {other}"),
    };
    let ok = !matches!(feature, "resources" | "global-only" | "resources-only");
    (s, ok)
}

#[test]
fn every_rt_app_example_is_accounted_for() {
    assert_eq!(EXAMPLES.len(), 28);
    for (file, features, imports) in EXAMPLES {
        let mut all_ok = true;
        for f in features.split_whitespace() {
            let (snippet, ok) = feature_snippet(f);
            match import(&snippet) {
                Ok(_) => assert!(ok, "{file}: {f} imported, expected a refusal"),
                Err(e) => {
                    assert!(!ok, "{file}: {f} refused: {e}\n{snippet}");
                    assert!(!e.to_string().is_empty());
                }
            }
            all_ok &= ok;
        }
        assert_eq!(all_ok, *imports, "{file}");
    }
    // The fragments' refusals name what is missing.
    assert!(import(&feature_snippet("global-only").0).unwrap_err().to_string().contains("\"tasks\""));
    let e = import(&feature_snippet("resources").0).unwrap_err();
    assert!(e.to_string().contains("no thread ever runs"), "{e}");
    // custom-slice.json's SCHED_OTHER dl-runtime: the task's custom slice, honoured from 6.12.
    let r = import(&feature_snippet("dl-runtime").0).unwrap();
    has_notice(&r, "tasks.t.dl-runtime", "custom slice");
    has_notice(&r, "tasks.t.dl-runtime", "6.12");
}

//! Renders the app with yew's server renderer (natively) and checks what a test or a
//! screen reader relies on: a named control per config key, data-metric on every metric.

use std::rc::Rc;

use crate::engine::config::KEYS;

use super::app::{App, AppProps};
use super::format::METRICS;
use super::state::{Action, State};

async fn render(state: State) -> String {
    // The local renderer: the state holds `Rc`s, which are not Send. BufStream may spawn
    // locally, so the tests run inside a LocalSet.
    let local = tokio::task::LocalSet::new();
    local
        .run_until(
            yew::LocalServerRenderer::<App>::with_props(AppProps { initial: Some(Rc::new(state)) })
                .hydratable(false)
                .render(),
        )
        .await
}

#[tokio::test]
async fn every_key_has_a_named_control_with_a_label() {
    let html = render(State::default()).await;
    for k in KEYS {
        assert!(html.contains(&format!("name=\"{}\"", k.key)), "no element named {}", k.key);
        assert!(html.contains(&format!("for=\"ctl-{}\"", k.key)), "no label for {}", k.key);
    }
    assert!(html.contains("name=\"preset\""));
    // KEYS order keeps groups; each group appears as a summary.
    for g in ["Machine", "Scheduler", "Idle", "nohz", "Workload", "Run"] {
        assert!(html.contains(&format!("<summary>{g}</summary>")), "group {g}");
    }
}

#[tokio::test]
async fn every_metric_carries_data_metric() {
    let html = render(State::default()).await;
    for m in METRICS {
        assert!(html.contains(&format!("data-metric=\"{}\"", m.key)), "{}", m.key);
    }
}

#[tokio::test]
async fn keys_that_do_not_apply_are_disabled_with_a_note() {
    let html = render(State::default()).await;
    // Default is CFS: rr_interval is SD's.
    let at = html.find("name=\"rr_interval\"").expect("rr_interval input");
    let tag_end = at + html[at..].find('>').unwrap();
    assert!(html[at..tag_end].contains("disabled"), "{}", &html[at..tag_end]);
    assert!(html.contains("(not used by CFS)"));
}

#[tokio::test]
async fn compare_view_shows_both_sides_and_the_stub_run_is_explained() {
    let s = Rc::new(State::default());
    let gen = s.gen;
    let run = crate::ui::jobs::execute(&crate::ui::jobs::Request::Run { id: 1, config: s.config.clone(), trace: true });
    let crate::ui::jobs::Response::Run { result, .. } = run else { panic!() };
    let s = yew::Reducible::reduce(s, Action::RunDone { gen, result });
    let s = yew::Reducible::reduce(s, Action::PinA);
    let html = render((*s).clone()).await;
    assert!(html.contains("data-side=\"a\"") && html.contains("data-side=\"b\""));
    assert!(html.contains("class=\"timeline\""), "the timeline component is mounted");
    if s.result.as_ref().unwrap().metrics.events == 0 {
        assert!(html.contains("empty run"), "an all-zero run says why");
    }
}

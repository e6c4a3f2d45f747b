//! Placeholder for the timeline canvas (the `timeline` branch replaces this file).

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::Trace;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub trace: Rc<Trace>,
    #[prop_or_default]
    pub label: AttrValue,
}

/// Renders an empty canvas of the right class until the real component is merged.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    html! { <canvas class="timeline" aria-label={props.label.clone()}></canvas> }
}

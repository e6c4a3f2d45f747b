//! The app's side of the sweep panel's seam (issue 26's code splitting): `SweepMount` builds
//! the panel's inputs from the state (`seam::Seam`) and, in the browser, hands them as wire
//! bytes to the views module (`common::lazy`, asked for once the first figure is in, so it
//! never delays it), which draws `SweepPanel` into a `<div>` this component's yew leaves
//! empty; the module's answers come back as the app's actions (`SweepAction::View`,
//! `Action::SetCell`). Meanwhile the panel says "Loading…", and if the module fails, why
//! (the rest of the page and the config untouched). Natively (yew's server renderer, the
//! SSR tests) the panel is drawn in place from the same `Seam`.

use std::rc::Rc;

use yew::prelude::*;

use crate::share::url::SweepView;
use crate::ui::app::state::Action;
use crate::ui::sweep::model::Sweep;
use crate::ui::sweep::seam::Seam;
use crate::ui::sweep::state::SweepAction;
use crate::ui::StateCtx;

#[derive(Properties, PartialEq)]
pub struct SweepMountProps {
    pub sweep: Rc<Sweep>,
    /// Only the plot (the embed's plot view).
    #[prop_or_default]
    pub plot_only: bool,
}

fn on_view(ctx: &StateCtx) -> Callback<SweepView> {
    let d = ctx.dispatcher();
    Callback::from(move |v: SweepView| d.dispatch(Action::Sweep(SweepAction::View(v))))
}

fn on_cell(ctx: &StateCtx) -> Callback<Vec<(&'static str, String)>> {
    let d = ctx.dispatcher();
    Callback::from(move |sets: Vec<(&'static str, String)>| d.dispatch(Action::SetCell(sets)))
}

/// Natively: the panel in place.
#[cfg(not(target_arch = "wasm32"))]
#[function_component(SweepMount)]
pub fn sweep_mount(props: &SweepMountProps) -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let seam = Seam::of(&ctx, &props.sweep, props.plot_only);
    html! { <super::SweepPanel ..super::panel_props(seam, on_view(&ctx), on_cell(&ctx)) /> }
}

#[cfg(target_arch = "wasm32")]
pub use web::SweepMount;

#[cfg(target_arch = "wasm32")]
mod web {
    use super::*;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use crate::ui::common::lazy::LazyMount;
    use crate::ui::sweep::seam::key_named;

    /// In the browser: the module's mount (`lazy::LazyMount`).
    #[function_component(SweepMount)]
    pub fn sweep_mount(props: &SweepMountProps) -> Html {
        let ctx = use_context::<StateCtx>().expect("StateCtx");
        // The first figure first: the module is asked for once the full run's figures are
        // in (a preview's are not the first figure; the module is shared with the inspector).
        let wanted = ctx.result.as_ref().is_some_and(|r| !r.preview) || ctx.run_error.is_some();
        let bytes = Rc::new(crate::ui::worker::wire::encode(&Seam::of(&ctx, &props.sweep, props.plot_only)));
        // The module's answers: a new view (wire bytes of `SweepView`), a cell's [[key, value], …].
        let args: Rc<Vec<JsValue>> = {
            let (on_view, on_cell) = (on_view(&ctx), on_cell(&ctx));
            use_memo((), move |_| {
                let view = Closure::<dyn Fn(js_sys::Uint8Array)>::new(move |b: js_sys::Uint8Array| {
                    if let Ok(v) = crate::ui::worker::wire::decode::<SweepView>(&b.to_vec()) {
                        on_view.emit(v);
                    }
                });
                let cell = Closure::<dyn Fn(js_sys::Array)>::new(move |sets: js_sys::Array| {
                    let sets: Vec<(&'static str, String)> = sets
                        .iter()
                        .filter_map(|p| {
                            let p: js_sys::Array = p.dyn_into().ok()?;
                            Some((key_named(&p.get(0).as_string()?)?, p.get(1).as_string()?))
                        })
                        .collect();
                    if !sets.is_empty() {
                        on_cell.emit(sets);
                    }
                });
                vec![view.into_js_value(), cell.into_js_value()]
            })
        };
        html! {
            <LazyMount api="schedscopeSweep" {wanted} {bytes} {args} class="sweep-mount"
                loading={Some(("Loading the sweep…".into(), "note sweep-loading".into()))}
                show_failure=true what="The sweep"
                then="The rest of the page and your config are as they were; reload the page to try again." />
        }
    }
}

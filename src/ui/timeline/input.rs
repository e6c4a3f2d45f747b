//! The timeline's event handlers: the canvas's listeners (resize, wheel), pointer (drag, pinch,
//! drag-to-zoom, tap to inspect), keys, the minimap and the toolbar's buttons, each a callback
//! over the shared `Inner` that asks for a frame; their numbers come from `gesture` and `nav`.

use super::gesture::{self, Key, Wheel};
use super::*;
use yew::UseStateSetter;

/// The component's state behind the canvas, shared by the handlers and the frame loop.
pub(super) type Cell = Rc<RefCell<Inner>>;
/// Where a pointer went down (CSS px), until it goes up: a tap selects.
pub(super) type Down = Rc<RefCell<Option<(f64, f64)>>>;

fn offset(e: &web_sys::MouseEvent) -> (f64, f64) {
    (e.offset_x() as f64, e.offset_y() as f64)
}

/// Wheel: vertical zooms around the pointer, horizontal pans.
fn on_wheel(cell: &Cell, e: &WheelEvent) {
    e.prevent_default();
    {
        let mut st = cell.borrow_mut();
        let (x, y) = offset(e);
        match gesture::wheel(e.delta_mode(), e.delta_x(), e.delta_y()) {
            Wheel::Zoom(f) => st.zoom(f, Some(x)),
            Wheel::Pan(px) => {
                let (pw, dpr, end) = (st.plot_w(), st.dpr(), st.index.end);
                st.view = st.view.pan_px(px * dpr, pw, end);
            }
        }
        st.hover = Some((x * st.dpr(), y * st.dpr()));
    }
    request_redraw(cell);
}

/// Mount: take the canvases, observe the box's size, listen to the wheel (not passively).
pub(super) fn attach(
    inner: &Cell,
    canvas: Option<HtmlCanvasElement>,
    mini: Option<HtmlCanvasElement>,
    stopped: UseStateSetter<bool>,
) {
    let Some(canvas) = canvas else { return };
    let mut st = inner.borrow_mut();
    st.mini = mini.and_then(|c| {
        let ctx = c.get_context("2d").ok().flatten()?.dyn_into::<CanvasRenderingContext2d>().ok()?;
        Some((c, ctx))
    });
    st.canvas = Some(canvas.clone());
    st.stopped = Some(stopped);
    let weak = Rc::downgrade(inner);
    let on_resize = Closure::<dyn FnMut()>::new(move || {
        if let Some(cell) = weak.upgrade() {
            if let Ok(mut st) = cell.try_borrow_mut() {
                st.css_w = None;
            }
            request_redraw(&cell);
        }
    });
    if let (Ok(obs), Some(parent)) = (ResizeObserver::new(on_resize.as_ref().unchecked_ref()), canvas.parent_element())
    {
        obs.observe(&parent);
        st.observer = Some((obs, on_resize));
    }
    let weak = Rc::downgrade(inner);
    st.wheel = Some(EventListener::new_with_options(
        &canvas,
        "wheel",
        EventListenerOptions::enable_prevent_default(),
        move |e| {
            if let (Some(cell), Some(e)) = (weak.upgrade(), e.dyn_ref::<WheelEvent>()) {
                on_wheel(&cell, e);
            }
        },
    ));
}

/// Unmount: drop the listeners, the frame asked for and the canvases.
pub(super) fn detach(inner: &Cell) {
    let mut st = inner.borrow_mut();
    if let Some((obs, _)) = st.observer.take() {
        obs.disconnect();
    }
    st.wheel = None;
    st.raf = None;
    st.canvas = None;
    st.ctx = None;
    st.mini = None;
    st.stopped = None;
}

/// A toolbar button that changes the state and redraws.
pub(super) fn act(inner: &Cell, f: fn(&mut Inner)) -> Callback<MouseEvent> {
    let inner = inner.clone();
    Callback::from(move |_: MouseEvent| {
        f(&mut inner.borrow_mut());
        request_redraw(&inner);
    })
}

pub(super) fn toggle_select(inner: &Cell, select_mode: &UseStateHandle<bool>) -> Callback<MouseEvent> {
    let (inner, select_mode) = (inner.clone(), select_mode.clone());
    Callback::from(move |_: MouseEvent| {
        let on = !*select_mode;
        inner.borrow_mut().select_mode = on;
        select_mode.set(on);
    })
}

pub(super) fn zoom_to_selected(inner: &Cell, selected: &UseStateHandle<Option<usize>>) -> Callback<MouseEvent> {
    let (inner, selected) = (inner.clone(), selected.clone());
    Callback::from(move |_: MouseEvent| {
        let Some(i) = *selected else { return };
        {
            let mut st = inner.borrow_mut();
            if let Some(v) = nav::focus_view(&st.trace, i, st.index.end) {
                st.view = v;
            }
        }
        request_redraw(&inner);
    })
}

/// The minimap: a press, or a drag with a button held, moves the view there.
pub(super) fn minimap(inner: &Cell) -> Callback<PointerEvent> {
    let inner = inner.clone();
    Callback::from(move |e: PointerEvent| {
        if e.type_() == "pointermove" && e.buttons() == 0 {
            return;
        }
        if e.type_() == "pointerdown" {
            if let Some(t) = e.target_dyn_into::<HtmlElement>() {
                let _ = t.set_pointer_capture(e.pointer_id());
            }
        }
        inner.borrow_mut().minimap_to(offset(&e).0);
        request_redraw(&inner);
    })
}

pub(super) fn toggle_play(inner: &Cell, playing: &UseStateHandle<bool>) -> Callback<MouseEvent> {
    let (inner, playing) = (inner.clone(), playing.clone());
    Callback::from(move |_: MouseEvent| {
        let now = {
            let mut st = inner.borrow_mut();
            st.playing = !st.playing;
            if st.playing && st.cursor.is_some_and(|c| c >= st.index.end as f64) {
                // Replay from the start of the trace.
                st.view = st.view.pan(-st.view.t0, st.index.end);
                st.cursor = None;
            }
            st.playing
        };
        playing.set(now);
        request_redraw(&inner);
    })
}

pub(super) fn speed(inner: &Cell, speed: &UseStateHandle<usize>) -> Callback<Event> {
    let (inner, speed) = (inner.clone(), speed.clone());
    Callback::from(move |e: Event| {
        let Some(sel) = e.target_dyn_into::<HtmlSelectElement>() else { return };
        let i = sel.value().parse::<usize>().unwrap_or(draw::DEFAULT_SPEED).min(draw::SPEEDS.len() - 1);
        inner.borrow_mut().speed = draw::SPEEDS[i].1;
        speed.set(i);
    })
}

/// "Save PNG": the current view, downloaded through a link.
pub(super) fn save_png(inner: &Cell) -> Callback<MouseEvent> {
    let inner = inner.clone();
    Callback::from(move |_: MouseEvent| {
        let st = inner.borrow();
        let (t0, t1) = st.view.ns_range();
        let css_w = st.layout.map_or(1200.0, |l| l.width / l.dpr);
        let url = render_png_data_url(&st.trace, Some((t0, t1)), css_w as u32, st.dpr().max(2.0), &st.label);
        let result = url.and_then(|url| {
            let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
            let a: HtmlAnchorElement =
                doc.create_element("a").ok().and_then(|a| a.dyn_into().ok()).ok_or("cannot create a link")?;
            a.set_href(&url);
            a.set_download(&gesture::png_name(&st.label));
            a.click();
            Ok(())
        });
        if let Err(e) = result {
            web_sys::console::warn_1(&format!("timeline PNG export failed: {e}").into());
        }
    })
}

/// Idle CPUs: one lane, or a lane each (the trace re-indexed, the view kept).
pub(super) fn toggle_idle(inner: &Cell, collapse: &UseStateHandle<bool>) -> Callback<MouseEvent> {
    let (inner, collapse) = (inner.clone(), collapse.clone());
    Callback::from(move |_: MouseEvent| {
        let now = !*collapse;
        {
            let mut st = inner.borrow_mut();
            st.collapse = now;
            let (trace, label, view) = (st.trace.clone(), st.label.clone(), st.view);
            st.set_trace(trace, label, true);
            st.view = view;
        }
        collapse.set(now);
        request_redraw(&inner);
    })
}

pub(super) fn pointer_down(inner: &Cell, down: &Down) -> Callback<PointerEvent> {
    let (inner, down) = (inner.clone(), down.clone());
    Callback::from(move |e: PointerEvent| {
        if let Some(t) = e.target_dyn_into::<HtmlElement>() {
            let _ = t.focus();
            let _ = t.set_pointer_capture(e.pointer_id());
        }
        let (x, y) = offset(&e);
        *down.borrow_mut() = Some((x, y));
        let mut st = inner.borrow_mut();
        // Shift-drag (or a drag in select mode) marks a stretch to zoom to.
        if (e.shift_key() || st.select_mode) && st.pointers.is_empty() {
            st.select = Some((x, x));
            drop(st);
            request_redraw(&inner);
            return;
        }
        st.pointers.retain(|p| p.0 != e.pointer_id());
        st.pointers.push((e.pointer_id(), x, y));
        let dpr = st.dpr();
        st.hover = Some((x * dpr, y * dpr));
        drop(st);
        request_redraw(&inner);
    })
}

pub(super) fn pointer_move(inner: &Cell) -> Callback<PointerEvent> {
    let inner = inner.clone();
    Callback::from(move |e: PointerEvent| {
        let (x, y) = offset(&e);
        let mut st = inner.borrow_mut();
        if let Some((a, _)) = st.select {
            st.select = Some((a, x));
            drop(st);
            request_redraw(&inner);
            return;
        }
        let (dpr, pw, end) = (st.dpr(), st.plot_w(), st.index.end);
        let id = e.pointer_id();
        match st.pointers.iter().position(|p| p.0 == id) {
            Some(k) if st.pointers.len() >= 2 => {
                // Pinch: the two pointers' horizontal distance sets the zoom, their midpoint pans.
                let other = st.pointers[1 - k.min(1)];
                let p = gesture::pinch(st.pointers[k].1, x, other.1);
                if let Some(f) = p.zoom {
                    st.zoom(f, Some(p.at));
                }
                st.view = st.view.pan_px(p.pan * dpr, pw, end);
                st.pointers[k] = (id, x, y);
                st.hover = None;
            }
            Some(k) => {
                let dx = x - st.pointers[k].1;
                st.view = st.view.pan_px(dx * dpr, pw, end);
                st.pointers[k] = (id, x, y);
                st.hover = Some((x * dpr, y * dpr));
            }
            None => st.hover = Some((x * dpr, y * dpr)),
        }
        drop(st);
        request_redraw(&inner);
    })
}

/// Up (or cancelled): a drag-to-zoom zooms, a tap selects the span under it.
pub(super) fn pointer_up(
    inner: &Cell,
    down: &Down,
    selected: &UseStateHandle<Option<usize>>,
) -> Callback<PointerEvent> {
    let (inner, down, selected) = (inner.clone(), down.clone(), selected.clone());
    Callback::from(move |e: PointerEvent| {
        let (x, y) = offset(&e);
        let picked = {
            let mut st = inner.borrow_mut();
            st.select.take().map(|(a, _)| {
                if let Some(l) = st.layout {
                    if let Some(v) = nav::selection_view(&st.view, &l, a, x, st.index.end) {
                        st.view = v;
                    }
                }
            })
        };
        if picked.is_some() {
            down.borrow_mut().take();
            request_redraw(&inner);
        } else if let Some(hit) = down.borrow_mut().take().and_then(|d| inspect_tap(&inner.borrow(), d, (x, y))) {
            selected.set(Some(hit));
        }
        inner.borrow_mut().pointers.retain(|p| p.0 != e.pointer_id());
        if let Some(t) = e.target_dyn_into::<HtmlElement>() {
            let _ = t.release_pointer_capture(e.pointer_id());
        }
    })
}

pub(super) fn pointer_leave(inner: &Cell) -> Callback<PointerEvent> {
    let inner = inner.clone();
    Callback::from(move |_: PointerEvent| {
        inner.borrow_mut().hover = None;
        request_redraw(&inner);
    })
}

/// Keys on the focused canvas (`gesture::key`).
pub(super) fn key(inner: &Cell, selected: &UseStateHandle<Option<usize>>) -> Callback<KeyboardEvent> {
    let (inner, selected) = (inner.clone(), selected.clone());
    Callback::from(move |e: KeyboardEvent| {
        let Some(k) = gesture::key(&e.key()) else { return };
        let mut st = inner.borrow_mut();
        let (len, end) = (st.view.len(), st.index.end);
        match k {
            Key::Step { from_selected, dir } => {
                let cur = if from_selected { *selected } else { None };
                let t = (st.view.t0 + st.view.t1) / 2.0;
                if let Some(i) = crate::ui::inspect::find::step(&st.trace, &st.index.spans, cur, dir, t) {
                    selected.set(Some(i));
                }
            }
            Key::Pan(frac) => st.view = st.view.pan(frac * len, end),
            Key::ZoomIn => st.zoom(ZOOM_STEP, None),
            Key::ZoomOut => st.zoom(1.0 / ZOOM_STEP, None),
            Key::Home => st.view = st.view.pan(-st.view.t0, end),
            Key::End => st.view = st.view.pan(end as f64, end),
            Key::Fit => st.view = st.fit_view,
            Key::Focus => match selected.and_then(|i| nav::focus_view(&st.trace, i, end)) {
                Some(v) => st.view = v,
                None => return,
            },
        }
        e.prevent_default();
        st.hover = None;
        drop(st);
        request_redraw(&inner);
    })
}

/// A tap or click (`gesture::is_tap`) selects the span under it.
fn inspect_tap(st: &Inner, down: (f64, f64), up: (f64, f64)) -> Option<usize> {
    if !gesture::is_tap(down, up) {
        return None;
    }
    let (layout, dpr) = (st.layout?, st.dpr());
    draw::hit_test(&st.trace, &st.index, &st.view, &layout, up.0 * dpr, up.1 * dpr)
}

//! The file picker behind "Import rt-app…" and "Import trace…": a labelled button over a
//! hidden file input, which hands the picked file on and clears itself so the same file can
//! be picked again (after an edit). A plain function, not a component: it holds no state,
//! and each function component costs the page its own instance of yew's component code
//! (issue 26).

use yew::prelude::*;

/// The button: its text (`label`), `title`, the input's `name` (the tests pick files through
/// it) and `accept` list, and `on_file`, called with the picked file.
pub fn file_button(
    label: &'static str,
    title: &'static str,
    name: &'static str,
    accept: &'static str,
    on_file: Callback<web_sys::File>,
) -> Html {
    let onchange = {
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                on_file.emit(file);
            }
            input.set_value("");
        })
    };
    html! {
        <label class="import button" {title}>
            {label}
            <input type="file" {name} {accept} {onchange}
                style="position:absolute;width:1px;height:1px;opacity:0;overflow:hidden" />
        </label>
    }
}

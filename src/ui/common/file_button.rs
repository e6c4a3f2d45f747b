//! The file picker behind "Import rt-app…" and "Import trace…": a labelled button over a
//! hidden file input, which hands the picked file on and clears itself so the same file can
//! be picked again (after an edit).

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct FileButtonProps {
    /// The button's text.
    pub label: AttrValue,
    pub title: AttrValue,
    /// The input's name (the tests pick files through it).
    pub name: AttrValue,
    /// The input's `accept` list.
    pub accept: AttrValue,
    /// Called with the picked file.
    pub on_file: Callback<web_sys::File>,
}

#[function_component(FileButton)]
pub fn file_button(p: &FileButtonProps) -> Html {
    let onchange = {
        let on_file = p.on_file.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                on_file.emit(file);
            }
            input.set_value("");
        })
    };
    html! {
        <label class="import button" title={p.title.clone()}>
            {p.label.clone()}
            <input type="file" name={p.name.clone()} accept={p.accept.clone()} {onchange}
                style="position:absolute;width:1px;height:1px;opacity:0;overflow:hidden" />
        </label>
    }
}

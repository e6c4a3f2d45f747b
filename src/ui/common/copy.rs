//! "Copy as text": a button that puts a plain-text table on the clipboard (the A/B table,
//! the sweep, the Experiments view; `share::table` writes the text), or, where the browser
//! has no clipboard or refuses, shows the text selected in a field so Ctrl+C copies it.

use std::rc::Rc;

use yew::prelude::*;

use crate::ui::common::browser::copy_text;

#[derive(Properties, PartialEq)]
pub struct CopyTextProps {
    /// The text to copy, made when the button is pressed (the table may be long).
    pub text: Callback<(), String>,
    /// What is copied, for the button's title ("the A/B table as text for an email").
    pub what: AttrValue,
}

/// A "Copy as text" button and, after a press, what happened.
#[function_component(CopyText)]
pub fn copy_text_button(props: &CopyTextProps) -> Html {
    // The text copied and whether the clipboard took it.
    let copied = use_state(|| None::<(Rc<str>, bool)>);
    let field = use_node_ref();
    {
        let field = field.clone();
        use_effect_with((*copied).clone(), move |c| {
            if let Some((_, false)) = c {
                if let Some(area) = field.cast::<web_sys::HtmlTextAreaElement>() {
                    let _ = area.focus();
                    area.select();
                }
            }
        });
    }
    let onclick = {
        let (copied, make) = (copied.clone(), props.text.clone());
        Callback::from(move |_| {
            let text: Rc<str> = make.emit(()).into();
            let (copied, shown) = (copied.clone(), text.clone());
            copy_text(&text, Callback::from(move |ok| copied.set(Some((shown.clone(), ok)))));
        })
    };
    html! {
        <div class="copy-text">
            <button type="button" class="copy-as-text" title={format!("Copy {} (plain text, 72 columns, with the link)", props.what)} {onclick}>
                {"Copy as text"}
            </button>
            { match &*copied {
                Some((_, true)) => html! { <span class="note" role="status">{"Copied."}</span> },
                Some((text, false)) => html! {
                    <>
                        <span class="note" role="status">{"The browser did not let the page copy: the text is selected below, press Ctrl+C."}</span>
                        <textarea ref={field} class="copied-text" readonly=true rows="12" cols="74" value={text.to_string()} />
                    </>
                },
                None => html! {},
            } }
        </div>
    }
}

//! Share, embed, export and import in the browser: the share bar (copy link, embed dialog,
//! exports, rt-app import), the embedded page (`?embed=1`), and the browser calls behind
//! them (address bar sync, downloads, clipboard, file reading, drag and drop).
//!
//! The URL format itself lives in `share::url`; the pure pieces here (iframe snippet,
//! file names, sweep CSV, standalone SVG) are tested natively. Nothing from the URL or a
//! file is ever written as markup: only parsed values reach the page, through yew.
//!
//! Files: `address` (the address bar and history), `embed` (snippet, dialog, embedded page),
//! `files` (the export files' pure parts), `export` (the Export… menu), `plots` (its plots'
//! SVG and PNG files, in the views module), `import` (rt-app and tour import); this file is the share bar that holds them (copy link) and the notices.

mod address;
mod embed;
mod export;
mod files;
mod import;
#[cfg(target_arch = "wasm32")]
pub mod plots;
#[cfg(test)]
mod tests;

use yew::prelude::*;

pub use address::{current_query, initial_state, push_query, replace_query, use_popstate, URL_DEBOUNCE_MS};
pub use embed::{
    embed_query, embed_snippet, EmbedDialog, EmbedDialogProps, EmbedPage, DEFAULT_EMBED_SIZE, DEFAULT_EMBED_VIEWS,
};
pub use export::{download_text, ExportMenu};
pub use files::{
    attr_escape, caption_height, config_text, export_request, file_stem, svg_file, sweep_csv_request, SvgCaption,
    SvgColours,
};
pub use import::{read_import, use_drop_import, ImportButton};

use crate::ui::app::state::Action;
use crate::ui::common::browser::{copy_text, link_of};
use crate::ui::StateCtx;

/// Copy link, embed dialog, exports and import, above the results.
#[function_component(ShareBar)]
pub fn share_bar() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    // The link shown after "Copy link" and whether the clipboard took it.
    let copied = use_state(|| None::<(String, bool)>);
    let embed_open = use_state(|| false);
    let message = use_state(|| None::<String>);
    let link_ref = use_node_ref();

    // When the clipboard refused, select the link so Ctrl+C copies it.
    {
        let link_ref = link_ref.clone();
        use_effect_with((*copied).clone(), move |c| {
            if let Some((_, false)) = c {
                if let Some(input) = link_ref.cast::<web_sys::HtmlInputElement>() {
                    let _ = input.focus();
                    input.select();
                }
            }
        });
    }

    let on_copy = {
        let (ctx, copied) = (ctx.clone(), copied.clone());
        Callback::from(move |_| {
            let link = link_of(&ctx.query());
            let (copied, shown) = (copied.clone(), link.clone());
            copy_text(&link, Callback::from(move |ok| copied.set(Some((shown.clone(), ok)))));
        })
    };
    let toggle_embed = {
        let embed_open = embed_open.clone();
        Callback::from(move |_| embed_open.set(!*embed_open))
    };

    html! {
        <div class="sharebar" role="group" aria-label="Share, export and import"
            style="display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.5rem 0">
            <button type="button" name="copy-link" onclick={on_copy}
                title="Copy a link that restores this exact config">{"Copy link"}</button>
            <button type="button" name="embed" aria-expanded={embed_open.to_string()} onclick={toggle_embed}
                title="An iframe snippet for slides and docs">{"Embed…"}</button>
            <ExportMenu on_message={{ let message = message.clone(); Callback::from(move |m| message.set(m)) }} />
            <ImportButton />
            { crate::ui::traces::trace_import_button() }
            if let Some((link, ok)) = &*copied {
                <span class="copied" role="status" style="display:flex;gap:.4rem;align-items:center;flex:1 1 20rem">
                    <input ref={link_ref} type="text" readonly=true name="share-link" value={link.clone()}
                        aria-label="Link to this config" style="flex:1;min-width:8rem" />
                    { if *ok { "Link copied." } else { "Press Ctrl+C (⌘C) to copy the selected link." } }
                </span>
            }
            if let Some(m) = &*message { <span class="err" role="alert">{m.clone()}</span> }
            if *embed_open { <EmbedDialog on_close={Callback::from(move |_| embed_open.set(false))} /> }
        </div>
    }
}

/// Notices (`role="status"`), each dismissible, with its list of details. A plain function
/// of the state its callers read anyway (they re-render on every change of it), not a
/// component (issue 26: each component is page code).
pub fn notices(ctx: &StateCtx) -> Html {
    if ctx.notices.is_empty() {
        return html! {};
    }
    html! {
        <ul class="notices" role="status">
            { for ctx.notices.iter().map(|n| {
                let (ctx, id) = (ctx.clone(), n.id);
                let onclick = Callback::from(move |_| ctx.dispatch(Action::Dismiss(id)));
                html! {
                    <li key={n.id} style="flex-wrap:wrap">
                        <span style="flex:1 1 0">{n.text.clone()}</span>
                        <button type="button" class="dismiss" aria-label="Dismiss" {onclick}>{"×"}</button>
                        if !n.details.is_empty() {
                            <ul class="details" style="flex:1 1 100%;margin:.2rem 0 0 1.2rem;padding:0">
                                { for n.details.iter().map(|d| html! {
                                    <li style="display:list-item;list-style:disc;background:none;border:0;padding:0">{d.clone()}</li>
                                }) }
                            </ul>
                        }
                    </li>
                }
            }) }
        </ul>
    }
}

//! Entry point: the Yew app on wasm32, the native CLI elsewhere.

#[cfg(target_arch = "wasm32")]
fn main() {
    schedscope::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(schedscope::cli::main(
        std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect(),
    ));
}

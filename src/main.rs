//! Entry point: the Yew app on wasm32, the native CLI elsewhere.

#[cfg(all(target_arch = "wasm32", feature = "web"))]
fn main() {
    schedscope::ui::start();
}

/// A wasm32 build without the `web` feature has no app to start (the CLI is native).
#[cfg(all(target_arch = "wasm32", not(feature = "web")))]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(schedscope::cli::main(
        std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect(),
    ));
}

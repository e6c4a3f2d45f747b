//! The project's shell scripts, where they say something a user reads: `scripts/serve`'s address.

use std::process::Command;

fn serve_url(flags: &[&str]) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/serve"))
        .arg("--print-url")
        .args(flags)
        .output()
        .expect("bash runs scripts/serve");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8").trim().to_string()
}

/// `./scripts/serve --port 8094` said "trunk serve on http://127.0.0.1:8080" while Trunk
/// listened on 8094: the address it prints follows Trunk.toml and the flags given.
#[test]
fn serve_says_the_address_it_serves_on() {
    assert_eq!(serve_url(&[]), "http://127.0.0.1:8080/", "Trunk.toml's [serve]");
    assert_eq!(serve_url(&["--port", "8094"]), "http://127.0.0.1:8094/");
    assert_eq!(serve_url(&["--port=9000", "--address", "0.0.0.0"]), "http://0.0.0.0:9000/");
}

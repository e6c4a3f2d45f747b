//! Text for a terminal: control characters from files, links and task names escaped, so
//! nothing read from outside can retitle a terminal, move its cursor or reverse the text.
//!
//! A task name is 15 bytes of anything the task chose (`prctl(PR_SET_NAME)`): `\e]0;x\a`
//! fits and retitles an xterm, and U+202E (right-to-left override) reorders what follows
//! it. `escape_controls` writes such characters as `\uXXXX`, which reads plainly in text
//! and is the same character inside a JSON string, so JSON output stays valid JSON.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal raw: C0 controls other than newline and tab,
/// DEL, C1 controls, and the Unicode bidirectional formatting characters.
pub fn is_unsafe(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every `is_unsafe` character written as `\uXXXX` (newlines and tabs kept).
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_obey_and_keeps_json_valid() {
        assert_eq!(escape_controls("a\tb\nc"), "a\tb\nc");
        assert_eq!(escape_controls("\u{1b}]0;PWNED\u{7}"), "\\u001B]0;PWNED\\u0007");
        assert_eq!(escape_controls("x\u{202e}y\u{85}\r"), "x\\u202Ey\\u0085\\u000D");
        assert_eq!(escape_controls("café ✓"), "café ✓");
        let json = serde_json::to_string(&"a\u{202e}b\u{1b}").unwrap();
        let v: String = serde_json::from_str(&escape_controls(&json)).unwrap();
        assert_eq!(v, "a\u{202e}b\u{1b}");
    }
}

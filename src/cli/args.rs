//! Low-level argument parsing: flags as close to the command line as possible.
//!
//! Each subcommand declares its flags as a table of `Flag`s; `parse` turns the raw words
//! into a `Parsed` bag or one `CliError` naming the flag and what is allowed. Both
//! `--flag value` and `--flag=value` are read. A value may not start with `--` (so a
//! forgotten value is reported as missing instead of swallowing the next flag).

use super::CliError;

/// One flag a subcommand accepts.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// With the dashes: `--preset`.
    pub name: &'static str,
    /// What the value looks like in messages (`NAME`, `KEY=VALUE`); `None` for a switch.
    pub value: Option<&'static str>,
    /// Whether the flag may be given more than once.
    pub repeat: bool,
}

impl Flag {
    pub const fn switch(name: &'static str) -> Flag {
        Flag { name, value: None, repeat: false }
    }
    pub const fn value(name: &'static str, value: &'static str) -> Flag {
        Flag { name, value: Some(value), repeat: false }
    }
    pub const fn repeated(name: &'static str, value: &'static str) -> Flag {
        Flag { name, value: Some(value), repeat: true }
    }
}

/// What a subcommand's words said, flag by flag, in command-line order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// `(flag name, value)`; switches have an empty value.
    pub items: Vec<(&'static str, String)>,
    /// `-h` or `--help` was given.
    pub help: bool,
}

impl Parsed {
    /// The value of a non-repeated flag.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.items.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// Every value of a repeated flag, in order.
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.items.iter().filter(|(n, _)| *n == name).map(|(_, v)| v.as_str()).collect()
    }

    /// Whether a switch was given.
    pub fn has(&self, name: &str) -> bool {
        self.items.iter().any(|(n, _)| *n == name)
    }
}

fn allowed(flags: &[Flag]) -> String {
    flags.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
}

/// Parses the words after the subcommand `cmd` against `flags`.
pub fn parse(cmd: &str, words: &[String], flags: &[Flag]) -> Result<Parsed, CliError> {
    let mut out = Parsed::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        i += 1;
        if word == "-h" || word == "--help" {
            out.help = true;
            continue;
        }
        if flags.is_empty() {
            return Err(CliError::usage(format!("{cmd}: takes no arguments (got '{word}')")));
        }
        if !word.starts_with('-') || word == "-" {
            return Err(CliError::usage(format!(
                "{cmd}: unexpected argument '{word}' (flags: {}; see schedscope help)",
                allowed(flags)
            )));
        }
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (word, None),
        };
        let Some(flag) = flags.iter().find(|f| f.name == name) else {
            return Err(CliError::usage(format!("{cmd}: unknown flag '{name}' (allowed: {})", allowed(flags))));
        };
        if !flag.repeat && out.has(flag.name) {
            return Err(CliError::usage(format!("{}: given more than once", flag.name)));
        }
        let value = match (flag.value, inline) {
            (None, None) => String::new(),
            (None, Some(_)) => return Err(CliError::usage(format!("{}: takes no value", flag.name))),
            (Some(_), Some(v)) => v.to_string(),
            (Some(what), None) => match words.get(i) {
                Some(v) if !v.starts_with("--") => {
                    i += 1;
                    v.clone()
                }
                _ => {
                    return Err(CliError::usage(format!(
                        "{}: missing value (expected {} {what})",
                        flag.name, flag.name
                    )))
                }
            },
        };
        out.items.push((flag.name, value));
    }
    Ok(out)
}

/// A whole number flag in `lo..=hi`, or `default` when absent.
pub fn count_flag(parsed: &Parsed, flag: &str, lo: usize, hi: usize, default: usize) -> Result<usize, CliError> {
    match parsed.get(flag) {
        None => Ok(default),
        Some(t) => match t.trim().parse::<usize>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(CliError::usage(format!("{flag}: '{t}' is not a whole number from {lo} to {hi}"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAGS: &[Flag] =
        &[Flag::value("--preset", "NAME"), Flag::repeated("--set", "KEY=VALUE"), Flag::switch("--json")];

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn message(s: &str) -> String {
        parse("run", &words(s), FLAGS).unwrap_err().message
    }

    #[test]
    fn reads_both_value_forms_and_repeats_in_order() {
        let p = parse("run", &words("--preset intro --set a=1 --json --set=b=2"), FLAGS).unwrap();
        assert_eq!(p.get("--preset"), Some("intro"));
        assert_eq!(p.all("--set"), vec!["a=1", "b=2"]);
        assert!(p.has("--json") && !p.help);
    }

    #[test]
    fn every_mistake_names_the_flag() {
        assert!(message("--nope").contains("'--nope'") && message("--nope").contains("--preset, --set, --json"));
        assert!(message("--set").starts_with("--set: missing value"));
        assert!(message("--set --json").starts_with("--set: missing value"), "does not swallow the next flag");
        assert!(message("--json=1").starts_with("--json: takes no value"));
        assert!(message("--preset a --preset b").starts_with("--preset: given more than once"));
        assert!(message("stray").contains("unexpected argument 'stray'"));
        assert_eq!(parse("presets", &words("x"), &[]).unwrap_err().message, "presets: takes no arguments (got 'x')");
    }

    #[test]
    fn help_is_recognised_anywhere() {
        assert!(parse("run", &words("--json -h"), FLAGS).unwrap().help);
    }
}

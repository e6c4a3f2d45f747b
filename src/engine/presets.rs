//! Named presets: the three seed experiments and teaching scenarios. (stub, being written)

use super::config::Config;

/// A named starting config.
#[derive(Clone, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    /// Two sentences: what it shows and which mechanism produces the effect.
    pub about: &'static str,
    pub config: fn() -> Config,
}

pub const PRESETS: &[Preset] = &[Preset {
    name: "intro",
    title: "Intro: 2 cores, 4 periodic tasks",
    about: "Four rt-app-style periodic tasks on two cores under CFS. Watch ticks, wakeups and C-states.",
    config: Config::default,
}];

pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

//! The explorer's panels: the controls generated from `KEYS` (`controls`), the metrics and
//! A/B compare (`views`), the SVG sweep and distribution plots (`plots`), the mean of several
//! seeds (`replicas`, pure), and the Experiments tables' slice of the state (`seeds`, pure;
//! their views are `ui::experiments`, a module loaded on first use).

pub mod controls;
pub mod plots;
pub mod replicas;
pub mod seeds;
pub mod views;

//! The explorer's panels: the controls generated from `KEYS` (`controls`), the metrics,
//! A/B compare and Experiments tables (`views`), the SVG sweep and distribution plots
//! (`plots`), the mean of several seeds (`replicas`, pure), the Experiments tables' slice of
//! the state (`seeds`, pure) and the Experiments view's score, verdicts and reasons
//! (`scoreboard`, pure).

pub mod controls;
pub mod plots;
pub mod replicas;
pub mod scoreboard;
pub mod seeds;
pub mod views;

//! What every feature shares and none owns: units and numbers (`format`), slider scales
//! (`scale`), colours (`palette`), User Timing marks (`marks`) and the few browser helpers
//! (`browser`). Depends on nothing else in `ui`.

pub mod browser;
pub mod format;
pub mod marks;
pub mod palette;
pub mod scale;

//! What every feature shares and none owns: units and numbers (`format`), slider scales
//! (`scale`), colours (`palette`), User Timing marks (`marks`), the few browser helpers
//! (`browser`), the "Copy as text" button (`copy`), the file picker of the imports
//! (`file_button`) and the page's notices (`notices`), the machine's topology in words (`topology`), the views module's loader (`lazy`). Depends on nothing else in `ui`.

pub mod browser;
pub mod copy;
pub mod file_button;
pub mod format;
pub mod lazy;
pub mod marks;
pub mod notices;
pub mod palette;
pub mod scale;
pub mod topology;

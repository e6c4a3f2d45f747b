//! One time axis for several timelines (`ViewLink`): zooming or panning one moves the others
//! while the link is on (A and B in the compare view).

use super::*;

/// One time axis for several timelines (`TimelineProps::link`).
#[derive(Clone, Default)]
pub struct ViewLink(pub(super) Rc<RefCell<LinkState>>);

#[derive(Default)]
pub(super) struct LinkState {
    pub(super) on: bool,
    /// The window last published, and a count of publications.
    pub(super) view: Option<View>,
    pub(super) version: u64,
    pub(super) members: Vec<Weak<RefCell<Inner>>>,
}

impl PartialEq for ViewLink {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl ViewLink {
    /// A link, on or off.
    pub fn new(on: bool) -> Self {
        ViewLink(Rc::new(RefCell::new(LinkState { on, ..LinkState::default() })))
    }

    pub fn is_on(&self) -> bool {
        self.0.borrow().on
    }

    /// Turns the link on or off; on, the next window drawn is everyone's.
    pub fn set_on(&self, on: bool) {
        let members: Vec<_> = {
            let mut l = self.0.borrow_mut();
            l.on = on;
            l.view = None;
            l.members.retain(|m| m.strong_count() > 0);
            l.members.iter().filter_map(Weak::upgrade).collect()
        };
        for m in members {
            request_redraw(&m);
        }
    }
}

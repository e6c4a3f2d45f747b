//! The tour's slice of the app's state (pure): the tour open and its step, the reader's
//! answer to that step, and a tour imported from a file. Opening a step loads its configs,
//! which crosses features, so the app does that (`Action::Tour`); answering and closing are
//! the tour's own.

use std::rc::Rc;

use crate::ui::tour::{self, Tour};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TourState {
    /// The guided tour open and its step (1-based), from `tour=NAME&step=N`.
    pub open: Option<(String, usize)>,
    /// The reader's answer to the open step (a choice index or a number, as text); the
    /// step's figures show only once it is given.
    pub reply: Option<String>,
    /// A tour imported from a file (links to it work only where it is imported).
    pub custom: Option<Rc<Tour>>,
}

impl TourState {
    /// The tour named `name`: the imported one first, then the built-in ones.
    pub fn find(&self, name: &str) -> Option<Tour> {
        match &self.custom {
            Some(t) if t.name == name => Some((**t).clone()),
            _ => tour::builtin(name),
        }
    }

    /// The open tour and its step, if any.
    pub fn step(&self) -> Option<(Tour, usize)> {
        let (name, step) = self.open.as_ref()?;
        let t = self.find(name)?;
        let step = (*step).clamp(1, t.steps.len());
        Some((t, step))
    }

    /// Whether the open step's figures may show: no tour, or the reader has answered.
    pub fn revealed(&self) -> bool {
        self.open.is_none() || self.reply.is_some()
    }

    /// The reader's answer to the open step.
    pub fn answer(&mut self, reply: String) {
        self.reply = Some(reply);
    }

    /// Closes the tour (the configs stay).
    pub fn close(&mut self) {
        self.open = None;
        self.reply = None;
    }
}

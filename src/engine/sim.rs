//! The simulation core (stub while being written).
use super::config::Config;
use super::trace::{Recorder, TraceOptions};
use super::Outcome;

pub struct Sim {
    rec: Recorder,
}

impl Sim {
    pub fn new(_config: &Config, trace: Option<TraceOptions>) -> Self {
        Sim { rec: Recorder::new(trace) }
    }
    pub fn run(self) -> Outcome {
        Outcome { metrics: Default::default(), trace: self.rec.trace }
    }
}

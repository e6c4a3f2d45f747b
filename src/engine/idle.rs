//! cpuidle governors (menu, ladder, teo): pick an idle state from a prediction.
//!
//! INTERFACE STUB: a helper replaces the bodies; the signatures are the contract with `sim`.

use super::config::Governor as GovernorKind;
use super::time::Ns;

/// One state the governor may pick. Index 0 of the slice given to `select` is always
/// POLL (exit latency 0, residency 0); the others are the enabled C-states, shallow to deep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleState {
    /// The state's number in the trace (`SpanKind::Idle { state }`): 0 POLL, n = cstates[n-1].
    pub index: u8,
    pub exit_latency: Ns,
    pub target_residency: Ns,
}

/// What the governor knows when the CPU goes idle.
#[derive(Clone, Copy, Debug)]
pub struct IdleRequest<'a> {
    /// POLL first, then the enabled states, shallow to deep.
    pub states: &'a [IdleState],
    /// Time from now until the next timer event on this CPU (the tick when it runs, else
    /// the next task timer); `Ns::MAX` when nothing is armed.
    pub next_timer: Ns,
    /// The tick period (1/HZ).
    pub tick_period: Ns,
    /// PM QoS latency limit.
    pub latency_limit: Option<Ns>,
}

/// Per-CPU governor state.
#[derive(Clone, Debug)]
pub struct GovernorState {
    kind: GovernorKind,
}

impl GovernorState {
    pub fn new(kind: GovernorKind, _nstates: usize) -> Self {
        GovernorState { kind }
    }

    pub fn kind(&self) -> GovernorKind {
        self.kind
    }

    /// Picks a state: returns a position in `req.states`.
    pub fn select(&mut self, req: &IdleRequest) -> usize {
        let mut best = 0;
        for (i, s) in req.states.iter().enumerate() {
            if s.target_residency <= req.next_timer && req.latency_limit.is_none_or(|l| s.exit_latency <= l) {
                best = i;
            }
        }
        best
    }

    /// Learns from the idle that just ended: `chosen` was the position picked, `measured`
    /// how long the CPU actually idled, `next_timer` what `select` was told.
    pub fn reflect(&mut self, _req_states: &[IdleState], _chosen: usize, _measured: Ns, _next_timer: Ns) {}
}

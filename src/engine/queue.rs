//! The event kernel's queue: events ordered by (time, sequence number), ties pop FIFO.
//!
//! A binary min-heap of small `Copy` entries. The sequence number is global and
//! monotone, so two events at the same nanosecond pop in the order they were pushed:
//! the order never depends on the heap's internals. Cancellation is done by the caller
//! with generation counters stored in the payload (a stale event is popped and ignored).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::time::Ns;

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    time: Ns,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap, we want the earliest (time, seq) on top.
        (other.time, other.seq).cmp(&(self.time, self.seq))
    }
}

/// A priority queue of events keyed by (time, seq).
#[derive(Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(256), next_seq: 0 }
    }

    /// Schedules `event` at `time`.
    #[inline]
    pub fn push(&mut self, time: Ns, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { time, seq, event });
    }

    /// Removes and returns the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<(Ns, E)> {
        self.heap.pop().map(|e| (e.time, e.event))
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<Ns> {
        self.heap.peek().map(|e| e.time)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

/// The bare loop the engine benchmark compares against: `n` pops, each followed by a push
/// of an event a pseudo-random few microseconds later, over a queue holding `width`
/// events, with the same key type and an event of the engine's size. Returns a checksum
/// so the work cannot be optimised away.
pub fn bare_loop<E: Copy + Default>(n: u64, width: usize) -> u64 {
    let mut q: EventQueue<E> = EventQueue::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..width as u64 {
        q.push(i * 1_000, E::default());
    }
    let mut sum = 0u64;
    for _ in 0..n {
        let (t, _) = q.pop().unwrap_or((0, E::default()));
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        sum = sum.wrapping_add(t);
        q.push(t + 500 + (x & 0xfff), E::default());
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_ties_fifo() {
        let mut q = EventQueue::new();
        q.push(30, 'c');
        q.push(10, 'a');
        q.push(20, 'b');
        q.push(10, 'x');
        q.push(10, 'y');
        let got: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(got, vec![(10, 'a'), (10, 'x'), (10, 'y'), (20, 'b'), (30, 'c')]);
    }

    #[test]
    fn bare_loop_is_deterministic() {
        assert_eq!(bare_loop::<[u64; 2]>(10_000, 8), bare_loop::<[u64; 2]>(10_000, 8));
    }
}

//! The event kernel's queue: events ordered by (time, sequence number), ties pop FIFO.
//!
//! Two sorted containers merged at the head: a binary min-heap for most events, and a FIFO
//! "lane" for events pushed with `push_late` (the periodic ticks) while their keys arrive in
//! order. The sequence number is global and monotone, so every key is unique and two events
//! at the same nanosecond pop in the order they were pushed; the lane only takes an event
//! whose key is after the lane's last one (else it goes to the heap), so the lane is sorted,
//! and `pop` takes the smaller of the two heads: the pop order is a function of the keys
//! alone, never of which container held an event (a test checks it against a sorted
//! reference). Cancellation is done by the caller with generation counters stored in the
//! payload (a stale event is popped and ignored, and still counts as an event: see
//! `Sim::step`).
//!
//! Why a lane: on `nohz-pipe` a quarter of all events are cancelled ticks (every idle exit
//! re-arms the tick at the next boundary, every idle entry stops it), and they wait there by
//! the dozen. In the heap they made it ~60 deep and every push and pop paid for the depth;
//! in the lane they cost a compare at the head. BENCHMARKS.md has the figures.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

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
    /// Sorted by (time, seq): `push_late` appends only keys after the back.
    lane: VecDeque<Entry<E>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(256), lane: VecDeque::with_capacity(256), next_seq: 0 }
    }

    #[inline]
    fn entry(&mut self, time: Ns, event: E) -> Entry<E> {
        let seq = self.next_seq;
        self.next_seq += 1;
        Entry { time, seq, event }
    }

    /// Schedules `event` at `time`.
    #[inline]
    pub fn push(&mut self, time: Ns, event: E) {
        let e = self.entry(time, event);
        self.heap.push(e);
    }

    /// Schedules `event` at `time`, for events that usually come at or after every earlier
    /// `push_late` (periodic timers): same order as `push`, cheaper while that holds.
    #[inline]
    pub fn push_late(&mut self, time: Ns, event: E) {
        let e = self.entry(time, event);
        // `seq` is the newest, so the key is after the back iff the time is not before it.
        if self.lane.back().is_none_or(|b| b.time <= time) {
            self.lane.push_back(e);
        } else {
            self.heap.push(e);
        }
    }

    /// Removes and returns the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<(Ns, E)> {
        let from_lane = match (self.heap.peek(), self.lane.front()) {
            // `Entry`'s order is reversed: `l > h` means the lane's head comes first.
            (Some(h), Some(l)) => l > h,
            (None, Some(_)) => true,
            _ => false,
        };
        let e = if from_lane { self.lane.pop_front() } else { self.heap.pop() };
        e.map(|e| (e.time, e.event))
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<Ns> {
        match (self.heap.peek(), self.lane.front()) {
            (Some(h), Some(l)) => Some(h.time.min(l.time)),
            (h, l) => h.or(l).map(|e| e.time),
        }
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.lane.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.lane.is_empty()
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

    /// Interleaved pushes and pops (many equal times, bursts of pushes, drains to empty)
    /// against a reference that keeps every pending (time, seq) in a `BTreeSet`: the heap
    /// must pop exactly the reference's minimum every time.
    #[test]
    fn matches_a_sorted_reference_under_mixed_use() {
        let mut q = EventQueue::new();
        let mut reference = std::collections::BTreeSet::new();
        let (mut seq, mut now, mut x) = (0u64, 0u64, 0x2545_F491_4F6C_DD1Du64);
        let mut popped = 0;
        for round in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pushes = if round % 500 < 250 { (x % 4) as usize } else { (x % 2) as usize };
            for k in 0..pushes {
                // Coarse times so that many events share a nanosecond (FIFO ties).
                let t = now + ((x >> (8 * k)) % 6) * 1_000;
                // Half the pushes take the lane path, in and out of order.
                if (x >> (8 * k + 4)) & 1 == 0 {
                    q.push(t, seq);
                } else {
                    q.push_late(t, seq);
                }
                reference.insert((t, seq));
                seq += 1;
            }
            if (x >> 40) % 3 != 0 || round % 997 == 0 {
                let want = reference.pop_first();
                let got = q.pop();
                assert_eq!(got, want, "round {round}");
                if let Some((t, _)) = got {
                    now = t;
                    popped += 1;
                }
            }
            assert_eq!(q.len(), reference.len());
            assert_eq!(q.peek_time(), reference.first().map(|&(t, _)| t));
        }
        while let Some(want) = reference.pop_first() {
            assert_eq!(q.pop(), Some(want));
        }
        assert!(q.is_empty() && q.pop().is_none());
        assert!(popped > 10_000, "the mix must pop a lot: {popped}");
    }

    #[test]
    fn bare_loop_is_deterministic() {
        assert_eq!(bare_loop::<[u64; 2]>(10_000, 8), bare_loop::<[u64; 2]>(10_000, 8));
    }
}

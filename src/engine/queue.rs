//! The event kernel's queue: events ordered by (time, sequence number), ties pop FIFO.
//!
//! Two sorted containers merged at the head: a 4-ary min-heap for most events, and a FIFO
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

use std::collections::VecDeque;

use super::time::Ns;

/// An event with its key, `(time << 64) | seq` as one integer: the lexicographic order of
/// (time, seq) is the integer order, one 128-bit comparison.
#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    key: u128,
    event: E,
}

#[inline]
fn key(time: Ns, seq: u64) -> u128 {
    (u128::from(time) << 64) | u128::from(seq)
}

#[inline]
fn time_of(key: u128) -> Ns {
    (key >> 64) as Ns
}

/// A 4-ary min-heap of entries on their keys (array-backed; node `i`'s children are
/// `4i + 1 ..= 4i + 4`). `pop` moves the hole left at the root down to a leaf along the
/// smallest children and then lifts the last entry into it from there (the bottom-up
/// variant `std::collections::BinaryHeap` uses too: the last entry usually belongs near the
/// bottom, so it saves comparisons per level). Four children a level halve the depth of the
/// walk, whose every level waits on the load of the child it chose; the four keys are
/// compared as two independent pairs and then their winners, so a level's chain is one
/// load and two comparisons.
#[derive(Debug)]
struct Heap<E> {
    v: Vec<Entry<E>>,
}

/// Children per node.
const ARITY: usize = 4;

impl<E: Copy> Heap<E> {
    fn with_capacity(n: usize) -> Self {
        Heap { v: Vec::with_capacity(n) }
    }

    #[inline]
    fn peek(&self) -> Option<&Entry<E>> {
        self.v.first()
    }

    #[inline(always)]
    fn push(&mut self, e: Entry<E>) {
        let pos = self.v.len();
        self.v.push(e);
        let v = self.v.as_mut_slice();
        // Most new events come after their parent's (later than what is pending): then the
        // entry stays where it was pushed, written once.
        if pos > 0 && v[(pos - 1) / ARITY].key > e.key {
            Self::sift_up(v, pos, e);
        }
    }

    /// Puts `e` at `pos` (a hole) or above it, moving larger parents down.
    #[inline(always)]
    fn sift_up(v: &mut [Entry<E>], mut pos: usize, e: Entry<E>) {
        while pos > 0 {
            let parent = (pos - 1) / ARITY;
            let p = v[parent];
            if p.key <= e.key {
                break;
            }
            v[pos] = p;
            pos = parent;
        }
        v[pos] = e;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<Entry<E>> {
        let top = *self.v.first()?;
        let v = self.v.as_mut_slice();
        // The last entry leaves its place at `n`: the heap below is `v[..n]`.
        let n = v.len() - 1;
        // The hole at the root goes down along the smallest child to a leaf.
        let mut hole = 0;
        let mut child = 1;
        let h = &mut v[..n];
        while let Some(kids) = h.get(child..child + ARITY) {
            // Two independent comparisons, then one between their winners' keys, selected
            // into registers (not loaded again by the index they chose: that load would
            // wait on the first comparisons).
            let (k0, k1, k2, k3) = (kids[0].key, kids[1].key, kids[2].key, kids[3].key);
            let (a, ka) = if k1 < k0 { (1, k1) } else { (0, k0) };
            let (b, kb) = if k3 < k2 { (3, k3) } else { (2, k2) };
            let m = if kb < ka { b } else { a };
            h[hole] = kids[m];
            hole = child + m;
            child = ARITY * hole + 1;
        }
        // A last node with one to three children.
        if let Some(kids) = h.get(child..) {
            if !kids.is_empty() {
                let mut m = 0;
                for (i, k) in kids.iter().enumerate().skip(1) {
                    if k.key < kids[m].key {
                        m = i;
                    }
                }
                h[hole] = kids[m];
                hole = child + m;
            }
        }
        // The last entry fills the hole, copied in memory (not taken apart into registers
        // as a value held across the walk would be), and is lifted from there.
        v[hole] = v[n];
        Self::lift(&mut v[..n], hole);
        self.v.truncate(n);
        Some(top)
    }

    /// Lifts the entry at `pos` above its larger parents.
    #[inline(always)]
    fn lift(v: &mut [Entry<E>], mut pos: usize) {
        while pos > 0 {
            let parent = (pos - 1) / ARITY;
            if v[parent].key <= v[pos].key {
                break;
            }
            v.swap(parent, pos);
            pos = parent;
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.v.len()
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.v.is_empty()
    }
}

/// A priority queue of events keyed by (time, seq).
#[derive(Debug)]
pub struct EventQueue<E> {
    heap: Heap<E>,
    /// Sorted by (time, seq): `push_late` appends only keys after the back.
    lane: VecDeque<Entry<E>>,
    /// The key at the lane's front, `u128::MAX` while it is empty: `pop` compares it with
    /// the heap's top without computing the ring buffer's front.
    lane_front: u128,
    next_seq: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: Heap::with_capacity(256),
            lane: VecDeque::with_capacity(256),
            lane_front: u128::MAX,
            next_seq: 0,
        }
    }

    #[inline]
    fn entry(&mut self, time: Ns, event: E) -> Entry<E> {
        let seq = self.next_seq;
        self.next_seq += 1;
        Entry { key: key(time, seq), event }
    }

    /// Schedules `event` at `time`.
    #[inline(always)]
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
        if self.lane.back().is_none_or(|b| time_of(b.key) <= time) {
            if self.lane.is_empty() {
                self.lane_front = e.key;
            }
            self.lane.push_back(e);
        } else {
            self.heap.push(e);
        }
    }

    /// Removes and returns the earliest event.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<(Ns, E)> {
        // With both empty this takes the (empty) lane.
        let from_lane = self.heap.peek().is_none_or(|h| self.lane_front < h.key);
        let e = if from_lane { self.pop_lane() } else { self.heap.pop() };
        e.map(|e| (time_of(e.key), e.event))
    }

    #[inline]
    fn pop_lane(&mut self) -> Option<Entry<E>> {
        let e = self.lane.pop_front();
        self.lane_front = self.lane.front().map_or(u128::MAX, |l| l.key);
        e
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<Ns> {
        match (self.heap.peek(), self.lane.front()) {
            (Some(h), Some(l)) => Some(time_of(h.key.min(l.key))),
            (h, l) => h.or(l).map(|e| time_of(e.key)),
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

    /// The heap alone, at every size up to 70 and with many equal keys: each pop walks to
    /// a leaf (four children, a last node with one to three, none), fills the hole with the
    /// last entry and lifts it; the keys must come out sorted.
    #[test]
    fn the_heap_pops_sorted_at_every_size() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for n in 0..70u64 {
            let mut h = Heap::with_capacity(4);
            let mut want = Vec::new();
            for i in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let k = key(x % 16, i);
                h.push(Entry { key: k, event: i });
                want.push(k);
            }
            want.sort_unstable();
            let got: Vec<_> = std::iter::from_fn(|| h.pop().map(|e| e.key)).collect();
            assert_eq!(got, want, "{n} entries");
        }
    }

    /// The layout is 4-ary: after random pushes and pops every entry's key is at or after
    /// that of its parent `(i - 1) / 4` (a binary heap's array breaks this), and the depth
    /// of 200 entries is 4 levels below the root, not 7.
    #[test]
    fn the_heap_is_four_ary() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut h = Heap::with_capacity(4);
        for i in 0..400u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            h.push(Entry { key: key(x % 1_000, i), event: i });
            if i % 2 == 1 {
                h.pop();
            }
        }
        assert_eq!(h.len(), 200);
        for i in 1..h.v.len() {
            assert!(h.v[(i - 1) / 4].key <= h.v[i].key, "entry {i} above its parent");
        }
        let depth = std::iter::successors(Some(h.v.len() - 1), |&i| (i > 0).then(|| (i - 1) / ARITY)).count() - 1;
        assert_eq!(depth, 4);
    }

    #[test]
    fn bare_loop_is_deterministic() {
        assert_eq!(bare_loop::<[u64; 2]>(10_000, 8), bare_loop::<[u64; 2]>(10_000, 8));
    }
}

//! Runqueue structures in O(log n): the queue in arrival order (`Fifo`) and an ordered, augmented tree (`Timeline`).
//!
//! The kernel keeps a CFS runqueue in an rbtree (`cfs_rq->tasks_timeline`, kernel/sched/fair.c
//! `__enqueue_entity`/`__dequeue_entity`, leftmost cached, `__pick_first_entity`); EEVDF's is
//! augmented (6.6: sorted by vruntime, `min_deadline` per subtree, `min_deadline_cb`; 6.8+ and
//! 6.12: sorted by deadline, `min_vruntime` per subtree, `min_vruntime_cb`, 2227a957e1d5). Here:
//! - `Fifo`: every core's waiting tasks in the order they were queued (an intrusive doubly
//!   linked list indexed by task id, a task on at most one queue), with the queue's load.
//!   `Policy::queued` shows it: the load balancer takes the most recently queued task it
//!   may move (`iter().rev()`), as it did from the `Vec` the queues were before.
//! - `Timeline<K, A>`: tasks ordered by a unique key `K` (the policy's sort key and a tie
//!   breaker), each with an augmented value `A` kept per subtree (`Aug::combine`), as
//!   `RB_DECLARE_CALLBACKS` keeps `min_vruntime`. Simplified: a treap (priorities a fixed
//!   hash of the task id, so the shape is a function of the keys) instead of a red-black
//!   tree; the leftmost is cached per core as the kernel's `rb_root_cached` does (a walk
//!   down the left spine, O(log n) expected, only when the leftmost leaves). Each
//!   node stores its key and augmented value as they were inserted: a key never changes
//!   while its task is queued (the kernel dequeues an entity before moving it, and so do
//!   the policies here), and tests that move one behind a policy's back re-key it.
//!
//! In test builds `Timeline::visits` counts the nodes the walks examined, so tests can hold
//! each operation to O(log n) without timing anything.

/// No task / no node.
pub const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Link {
    prev: u32,
    next: u32,
    /// The core whose queue holds the task, `NIL` if none.
    core: u32,
    weight: u64,
}

const UNLINKED: Link = Link { prev: NIL, next: NIL, core: NIL, weight: 0 };

#[derive(Clone, Copy, Debug)]
struct Ends {
    head: u32,
    tail: u32,
    len: usize,
    load: u64,
}

const EMPTY: Ends = Ends { head: NIL, tail: NIL, len: 0, load: 0 };

/// Every core's queue in arrival order: push at the tail, remove anywhere, O(1).
#[derive(Clone, Debug, Default)]
pub struct Fifo {
    links: Vec<Link>,
    ends: Vec<Ends>,
}

impl Fifo {
    pub fn new(cores: usize) -> Self {
        Fifo { links: Vec::new(), ends: vec![EMPTY; cores.max(1)] }
    }

    /// Appends `task` (not queued anywhere) to core `c`'s queue; `weight` counts in its load.
    #[inline]
    pub fn push(&mut self, c: usize, task: usize, weight: u64) {
        if self.links.len() <= task {
            self.grow(task);
        }
        debug_assert_eq!(self.links[task].core, NIL, "task {task} is queued twice");
        let e = &mut self.ends[c];
        let t = task as u32;
        self.links[task] = Link { prev: e.tail, next: NIL, core: c as u32, weight };
        if e.tail == NIL {
            e.head = t;
        } else {
            self.links[e.tail as usize].next = t;
        }
        e.tail = t;
        e.len += 1;
        e.load += weight;
    }

    #[cold]
    fn grow(&mut self, task: usize) {
        self.links.resize(task + 1, UNLINKED);
    }

    /// Takes `task` off core `c`'s queue. False if it is not there.
    #[inline]
    pub fn remove(&mut self, c: usize, task: usize) -> bool {
        if !self.contains(c, task) {
            return false;
        }
        let Link { prev, next, weight, .. } = self.links[task];
        let e = &mut self.ends[c];
        if prev == NIL {
            e.head = next;
        } else {
            self.links[prev as usize].next = next;
        }
        if next == NIL {
            e.tail = prev;
        } else {
            self.links[next as usize].prev = prev;
        }
        e.len -= 1;
        e.load -= weight;
        self.links[task] = UNLINKED;
        true
    }

    #[inline]
    pub fn contains(&self, c: usize, task: usize) -> bool {
        self.links.get(task).is_some_and(|l| l.core == c as u32)
    }

    #[inline]
    pub fn len(&self, c: usize) -> usize {
        self.ends[c].len
    }

    #[inline]
    pub fn is_empty(&self, c: usize) -> bool {
        self.ends[c].len == 0
    }

    /// The weight `task` was queued with (it must be queued).
    #[inline]
    pub fn weight(&self, task: usize) -> u64 {
        self.links[task].weight
    }

    /// Core `c`'s queue, for `Policy::queued`.
    #[inline]
    pub fn view(&self, c: usize) -> Queued<'_> {
        Queued { fifo: self, c }
    }
}

/// One core's waiting tasks in arrival order (`Policy::queued`).
#[derive(Clone, Copy)]
pub struct Queued<'a> {
    fifo: &'a Fifo,
    c: usize,
}

impl<'a> Queued<'a> {
    #[inline]
    pub fn len(&self) -> usize {
        self.fifo.len(self.c)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty(self.c)
    }

    #[inline]
    pub fn contains(&self, task: usize) -> bool {
        self.fifo.contains(self.c, task)
    }

    /// The sum of the queued tasks' weights (not counting `curr`).
    #[inline]
    pub fn load(&self) -> u64 {
        self.fifo.ends[self.c].load
    }

    /// Oldest first; `.rev()` newest first.
    #[inline]
    pub fn iter(&self) -> Iter<'a> {
        let e = self.fifo.ends[self.c];
        Iter { links: &self.fifo.links, front: e.head, back: e.tail, left: e.len }
    }

    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }
}

pub struct Iter<'a> {
    links: &'a [Link],
    front: u32,
    back: u32,
    left: usize,
}

impl Iterator for Iter<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        let t = self.front;
        self.left -= 1;
        self.front = self.links[t as usize].next;
        Some(t as usize)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        let t = self.back;
        self.left -= 1;
        self.back = self.links[t as usize].prev;
        Some(t as usize)
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// A value kept per subtree: `combine` must be associative (a min, a sum, or nothing).
pub trait Aug: Copy {
    fn combine(self, other: Self) -> Self;
}

impl Aug for () {
    #[inline]
    fn combine(self, _: ()) {}
}

/// The smallest `(vruntime, task)` of a subtree (6.12 `se->min_vruntime`, with the tie breaker).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct MinVruntime(pub u64, pub u32);

impl Aug for MinVruntime {
    #[inline]
    fn combine(self, other: Self) -> Self {
        self.min(other)
    }
}

#[derive(Clone, Copy, Debug)]
struct Node<K, A> {
    key: K,
    own: A,
    sub: A,
    left: u32,
    right: u32,
    prio: u32,
    core: u32,
}

/// A fixed hash of the task id (a treap's priority): the shape is a function of the keys.
#[inline]
fn prio(t: u32) -> u32 {
    let mut x = t.wrapping_add(0x9e37_79b9);
    x = (x ^ (x >> 16)).wrapping_mul(0x85eb_ca6b);
    x = (x ^ (x >> 13)).wrapping_mul(0xc2b2_ae35);
    x ^ (x >> 16)
}

/// Tasks ordered by a unique key, per core, with an augmented value per subtree.
#[derive(Clone, Debug)]
pub struct Timeline<K, A> {
    nodes: Vec<Node<K, A>>,
    roots: Vec<u32>,
    /// Per core, the node with the smallest key (`NIL` if empty): the kernel's cached
    /// leftmost (`rb_root_cached`), kept on insert and remove so `first` does not walk.
    firsts: Vec<u32>,
    lens: Vec<usize>,
    /// Nodes examined by walks since the last `take_visits` (test builds only).
    #[cfg(test)]
    visits: std::cell::Cell<u64>,
}

impl<K: Ord + Copy + Default, A: Aug + Default> Timeline<K, A> {
    pub fn new(cores: usize) -> Self {
        Timeline {
            nodes: Vec::new(),
            roots: vec![NIL; cores.max(1)],
            firsts: vec![NIL; cores.max(1)],
            lens: vec![0; cores.max(1)],
            #[cfg(test)]
            visits: std::cell::Cell::new(0),
        }
    }

    #[inline(always)]
    fn visit(&self) {
        #[cfg(test)]
        self.visits.set(self.visits.get() + 1);
    }

    /// Nodes examined since the last call (test builds).
    #[cfg(test)]
    pub fn take_visits(&self) -> u64 {
        self.visits.replace(0)
    }

    #[inline]
    pub fn len(&self, c: usize) -> usize {
        self.lens[c]
    }

    #[inline]
    pub fn contains(&self, c: usize, task: usize) -> bool {
        self.nodes.get(task).is_some_and(|n| n.core == c as u32)
    }

    /// The key and augmented value `task` was inserted with (it must be in a tree).
    #[inline]
    pub fn entry(&self, task: usize) -> (K, A) {
        let n = &self.nodes[task];
        (n.key, n.own)
    }

    #[inline]
    fn pull(&mut self, n: u32) {
        if std::mem::size_of::<A>() == 0 {
            return; // nothing kept per subtree (CFS, SD): no work
        }
        let node = self.nodes[n as usize];
        let mut sub = node.own;
        if node.left != NIL {
            sub = self.nodes[node.left as usize].sub.combine(sub);
        }
        if node.right != NIL {
            sub = sub.combine(self.nodes[node.right as usize].sub);
        }
        self.nodes[n as usize].sub = sub;
    }

    /// Inserts `task` (in no tree) into core `c`'s with `key` (unique) and augmented value `own`.
    #[inline]
    pub fn insert(&mut self, c: usize, task: usize, key: K, own: A) {
        if self.nodes.len() <= task {
            self.grow(task);
        }
        debug_assert_eq!(self.nodes[task].core, NIL, "task {task} is in a tree twice");
        let n = &mut self.nodes[task];
        *n = Node { key, own, sub: own, left: NIL, right: NIL, prio: n.prio, core: c as u32 };
        let root = self.roots[c];
        // An empty tree (the common case on a lightly loaded core) needs no walk.
        self.roots[c] = if root == NIL { task as u32 } else { self.insert_at(root, task as u32) };
        let first = self.firsts[c];
        if first == NIL || key < self.nodes[first as usize].key {
            self.firsts[c] = task as u32;
        }
        self.lens[c] += 1;
    }

    #[cold]
    fn grow(&mut self, task: usize) {
        let fresh = |t: usize| Node {
            key: K::default(),
            own: A::default(),
            sub: A::default(),
            left: NIL,
            right: NIL,
            prio: prio(t as u32),
            core: NIL,
        };
        let from = self.nodes.len();
        self.nodes.extend((from..=task).map(fresh));
    }

    fn insert_at(&mut self, root: u32, t: u32) -> u32 {
        if root == NIL {
            return t;
        }
        self.visit();
        let (r, n) = (root as usize, t as usize);
        if self.nodes[n].key < self.nodes[r].key {
            let l = self.insert_at(self.nodes[r].left, t);
            self.nodes[r].left = l;
            if self.nodes[l as usize].prio > self.nodes[r].prio {
                // Rotate right: l becomes the root of this subtree.
                self.nodes[r].left = self.nodes[l as usize].right;
                self.pull(root);
                self.nodes[l as usize].right = root;
                self.pull(l);
                return l;
            }
        } else {
            let g = self.insert_at(self.nodes[r].right, t);
            self.nodes[r].right = g;
            if self.nodes[g as usize].prio > self.nodes[r].prio {
                self.nodes[r].right = self.nodes[g as usize].left;
                self.pull(root);
                self.nodes[g as usize].left = root;
                self.pull(g);
                return g;
            }
        }
        self.pull(root);
        root
    }

    /// Takes `task` out of core `c`'s tree. False if it is not there.
    #[inline]
    pub fn remove(&mut self, c: usize, task: usize) -> bool {
        if !self.contains(c, task) {
            return false;
        }
        let root = self.roots[c];
        let n = self.nodes[task];
        self.roots[c] = if root == task as u32 {
            // The root (a lone task, or the highest priority): its children take its place.
            self.visit();
            self.merge(n.left, n.right)
        } else {
            self.remove_at(root, task as u32)
        };
        if self.firsts[c] == task as u32 {
            self.firsts[c] = self.leftmost(self.roots[c]);
        }
        self.lens[c] -= 1;
        let n = &mut self.nodes[task];
        n.core = NIL;
        n.left = NIL;
        n.right = NIL;
        true
    }

    fn remove_at(&mut self, root: u32, t: u32) -> u32 {
        debug_assert_ne!(root, NIL, "a queued task is found by its key");
        self.visit();
        if root == t {
            let n = self.nodes[t as usize];
            return self.merge(n.left, n.right);
        }
        let r = root as usize;
        if self.nodes[t as usize].key < self.nodes[r].key {
            let l = self.remove_at(self.nodes[r].left, t);
            self.nodes[r].left = l;
        } else {
            let g = self.remove_at(self.nodes[r].right, t);
            self.nodes[r].right = g;
        }
        self.pull(root);
        root
    }

    /// Joins two trees, every key of `a` before every key of `b`.
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        if a == NIL {
            return b;
        }
        if b == NIL {
            return a;
        }
        self.visit();
        if self.nodes[a as usize].prio > self.nodes[b as usize].prio {
            let m = self.merge(self.nodes[a as usize].right, b);
            self.nodes[a as usize].right = m;
            self.pull(a);
            a
        } else {
            let m = self.merge(a, self.nodes[b as usize].left);
            self.nodes[b as usize].left = m;
            self.pull(b);
            b
        }
    }

    /// The task with the smallest key (`__pick_first_entity`), cached.
    #[inline]
    pub fn first(&self, c: usize) -> Option<usize> {
        let f = self.firsts[c];
        (f != NIL).then_some(f as usize)
    }

    /// The leftmost node under `n` (`NIL` for an empty tree): a walk down the left spine.
    fn leftmost(&self, mut n: u32) -> u32 {
        if n == NIL {
            return NIL;
        }
        loop {
            self.visit();
            let l = self.nodes[n as usize].left;
            if l == NIL {
                return n;
            }
            n = l;
        }
    }

    /// The augmented value of core `c`'s whole tree (`None` if empty).
    #[inline]
    pub fn total(&self, c: usize) -> Option<A> {
        let r = self.roots[c];
        (r != NIL).then(|| self.nodes[r as usize].sub)
    }

    /// The task with the smallest key whose own value satisfies `ok`, where `ok(sub)` of a
    /// subtree's combined value tells whether any of its tasks does (6.12 `__pick_eevdf`'s
    /// heap search: "eligible entities in left subtree are always better choices").
    #[inline]
    pub fn first_where(&self, c: usize, ok: impl Fn(&A) -> bool) -> Option<usize> {
        let mut n = self.roots[c];
        while n != NIL {
            self.visit();
            let node = &self.nodes[n as usize];
            if node.left != NIL && ok(&self.nodes[node.left as usize].sub) {
                n = node.left;
                continue;
            }
            if ok(&node.own) {
                return Some(n as usize);
            }
            n = node.right;
        }
        None
    }

    /// Core `c`'s tasks in key order (tests and checks; O(n)).
    pub fn in_order(&self, c: usize) -> Vec<usize> {
        fn walk<K, A>(nodes: &[Node<K, A>], n: u32, out: &mut Vec<usize>) {
            if n != NIL {
                walk(nodes, nodes[n as usize].left, out);
                out.push(n as usize);
                walk(nodes, nodes[n as usize].right, out);
            }
        }
        let mut out = Vec::with_capacity(self.lens[c]);
        walk(&self.nodes, self.roots[c], &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn fifo_keeps_arrival_order_through_removals() {
        let mut f = Fifo::new(2);
        for t in [5, 1, 9, 3] {
            f.push(0, t, 10 + t as u64);
        }
        f.push(1, 7, 100);
        assert!(f.remove(0, 9));
        assert!(!f.remove(0, 9) && !f.remove(0, 7), "not queued there");
        f.push(0, 9, 19);
        assert_eq!(f.view(0).to_vec(), vec![5, 1, 3, 9]);
        assert_eq!(f.view(0).iter().rev().collect::<Vec<_>>(), vec![9, 3, 1, 5]);
        assert_eq!((f.len(0), f.view(0).load()), (4, 15 + 11 + 13 + 19));
        assert_eq!(f.view(1).to_vec(), vec![7]);
        assert!(f.view(1).contains(7) && !f.view(0).contains(7));
        for t in [5, 1, 3, 9] {
            assert!(f.remove(0, t));
        }
        assert!(f.is_empty(0) && f.view(0).iter().next().is_none() && f.view(0).load() == 0);
    }

    /// Random pushes and removals on two cores against the `Vec`s the queues were (push at
    /// the end, `remove` keeping order): the same order, both ways, and the same load.
    #[test]
    fn fifo_matches_the_vec_it_replaced() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut f = Fifo::new(2);
        let mut reference: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for _ in 0..20_000 {
            let t = rng.gen_range(0..200usize);
            let c = rng.gen_range(0..2usize);
            match reference.iter().position(|q| q.contains(&t)) {
                Some(on) => {
                    assert_eq!(f.remove(c, t), on == c, "removed only from its own queue");
                    if on == c {
                        reference[c].retain(|&x| x != t);
                    }
                }
                None => {
                    f.push(c, t, t as u64 * 3 + 1);
                    reference[c].push(t);
                }
            }
            for (c, want) in reference.iter().enumerate() {
                assert_eq!(&f.view(c).to_vec(), want);
                assert!(f.view(c).iter().rev().eq(want.iter().rev().copied()));
                assert_eq!(f.view(c).load(), want.iter().map(|&t| t as u64 * 3 + 1).sum::<u64>());
                assert_eq!(f.len(c), want.len());
            }
        }
    }

    /// Keys inserted in increasing order (vruntimes and deadlines mostly grow) and removed
    /// from the front (the pick) keep the treap shallow: O(log n) nodes per operation.
    #[test]
    fn timeline_walks_stay_logarithmic_for_sorted_keys() {
        let n = 16_384usize;
        let mut tl: Timeline<(u64, u64), ()> = Timeline::new(1);
        for t in 0..n {
            tl.insert(0, t, (t as u64 / 4, t as u64), ());
        }
        let inserts = tl.take_visits();
        let log2 = (n as f64).log2();
        assert!(inserts as f64 / n as f64 <= 3.0 * log2, "{inserts} visits for {n} inserts");
        let mut worst = 0;
        for round in 0..n {
            let t = tl.first(0).unwrap();
            assert!(tl.remove(0, t));
            tl.insert(0, t, ((n + round) as u64, t as u64), ());
            worst = worst.max(tl.take_visits());
        }
        assert!(worst > 0 && worst as f64 <= 8.0 * log2, "worst pick + requeue: {worst} nodes");
    }

    /// Random inserts and removals against a sorted reference: order, first, total, first_where.
    #[test]
    fn timeline_matches_a_sorted_reference() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let n = 300;
        let mut tl: Timeline<(u64, u32), MinVruntime> = Timeline::new(1);
        let mut reference: Vec<((u64, u32), MinVruntime)> = Vec::new();
        for _ in 0..20_000 {
            let t = rng.gen_range(0..n) as u32;
            if let Some(i) = reference.iter().position(|e| e.0 .1 == t) {
                assert!(tl.remove(0, t as usize));
                reference.remove(i);
            } else {
                let key = (rng.gen_range(0..50u64), t);
                let own = MinVruntime(rng.gen_range(0..50u64), t);
                tl.insert(0, t as usize, key, own);
                reference.push((key, own));
            }
            reference.sort();
            let order: Vec<usize> = reference.iter().map(|e| e.0 .1 as usize).collect();
            assert_eq!(tl.in_order(0), order);
            assert_eq!(tl.first(0), order.first().copied());
            assert_eq!(tl.total(0), reference.iter().map(|e| e.1).min());
            let v = rng.gen_range(0..50u64);
            let want = reference.iter().find(|e| e.1 .0 <= v).map(|e| e.0 .1 as usize);
            assert_eq!(tl.first_where(0, |a| a.0 <= v), want);
        }
    }
}

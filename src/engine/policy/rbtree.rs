//! lib/rbtree.c's red-black tree (insert and erase with their exact rotations and colours), augmented with each subtree's least deadline: the shape 6.6-rc1's EEVDF walked.
//!
//! Ported from lib/rbtree.c (`__rb_insert`, `____rb_erase_color`) and
//! include/linux/rbtree_augmented.h (`__rb_erase_augmented`, `rb_add_augmented_cached`) of
//! v6.6, unchanged since long before: the same sequence of insertions and erasures gives
//! the kernel's tree node for node, which is what a walk that depends on the tree's shape
//! (6.6-rc1's `pick_eevdf`, `Eevdf`'s `pick_v1`) needs. The key is the kernel's
//! `__entity_less`: `vruntime` (an equal key goes right); the augmentation is
//! `min_deadline_cb` (the least deadline of the node and its subtrees), recomputed on the
//! paths an operation touched instead of through the kernel's callbacks (the same values).
//! One arena for every core's tree, indexed by task (a task is on one tree at a time).

const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    left: u32,
    right: u32,
    red: bool,
    vruntime: u64,
    deadline: u64,
    min_deadline: u64,
}

const EMPTY: Node = Node { parent: NIL, left: NIL, right: NIL, red: false, vruntime: 0, deadline: 0, min_deadline: 0 };

#[derive(Clone, Debug, Default)]
pub struct RbTimeline {
    nodes: Vec<Node>,
    roots: Vec<u32>,
    /// Nodes whose children changed in the running operation (their `min_deadline` and
    /// their ancestors' are recomputed at its end).
    touched: Vec<u32>,
}

/// One node as `pick_v1` sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub task: usize,
    pub left: Option<usize>,
    pub right: Option<usize>,
    pub vruntime: u64,
    pub deadline: u64,
    pub min_deadline: u64,
}

fn opt(i: u32) -> Option<usize> {
    (i != NIL).then_some(i as usize)
}

impl RbTimeline {
    pub fn new(cores: usize) -> Self {
        RbTimeline { nodes: Vec::new(), roots: vec![NIL; cores], touched: Vec::new() }
    }

    pub fn root(&self, c: usize) -> Option<usize> {
        opt(self.roots[c])
    }

    pub fn view(&self, t: usize) -> View {
        let n = &self.nodes[t];
        View {
            task: t,
            left: opt(n.left),
            right: opt(n.right),
            vruntime: n.vruntime,
            deadline: n.deadline,
            min_deadline: n.min_deadline,
        }
    }

    fn change_child(&mut self, old: u32, new: u32, parent: u32, c: usize) {
        if parent == NIL {
            self.roots[c] = new;
        } else if self.nodes[parent as usize].left == old {
            self.nodes[parent as usize].left = new;
        } else {
            self.nodes[parent as usize].right = new;
        }
    }

    fn set_pc(&mut self, n: u32, parent: u32, red: bool) {
        let x = &mut self.nodes[n as usize];
        x.parent = parent;
        x.red = red;
    }

    fn is_red(&self, n: u32) -> bool {
        n != NIL && self.nodes[n as usize].red
    }

    /// `__rb_rotate_set_parents`: `new` takes `old`'s parent and colour, `old` goes under
    /// `new` with `color`.
    fn rotate_set_parents(&mut self, old: u32, new: u32, c: usize, red: bool) {
        let (parent, old_red) = (self.nodes[old as usize].parent, self.nodes[old as usize].red);
        self.set_pc(new, parent, old_red);
        self.set_pc(old, new, red);
        self.change_child(old, new, parent, c);
        self.touched.push(old);
        self.touched.push(new);
    }

    /// `__enqueue_entity`: `rb_add_augmented_cached(&se->run_node, ..., __entity_less, ...)`.
    pub fn insert(&mut self, c: usize, task: usize, vruntime: u64, deadline: u64) {
        if self.nodes.len() <= task {
            self.nodes.resize(task + 1, EMPTY);
        }
        let mut parent = NIL;
        let mut link = self.roots[c];
        let mut go_left = false;
        while link != NIL {
            parent = link;
            let p = &self.nodes[link as usize];
            // entity_before: (s64)(a->vruntime - b->vruntime) < 0.
            go_left = (vruntime.wrapping_sub(p.vruntime) as i64) < 0;
            link = if go_left { p.left } else { p.right };
        }
        let n = task as u32;
        self.nodes[task] =
            Node { parent, left: NIL, right: NIL, red: true, vruntime, deadline, min_deadline: deadline };
        if parent == NIL {
            self.roots[c] = n;
        } else if go_left {
            self.nodes[parent as usize].left = n;
        } else {
            self.nodes[parent as usize].right = n;
        }
        self.touched.push(n);
        self.insert_fixup(c, n);
        self.recompute();
    }

    /// A child: the right one if `right`, else the left.
    fn kid(&self, n: u32, right: bool) -> u32 {
        let x = &self.nodes[n as usize];
        if right {
            x.right
        } else {
            x.left
        }
    }

    fn set_kid(&mut self, n: u32, right: bool, child: u32) {
        let x = &mut self.nodes[n as usize];
        if right {
            x.right = child;
        } else {
            x.left = child;
        }
    }

    /// `__rb_insert`. The kernel writes its two mirrored halves out; here one half serves
    /// both, `u` being the uncle's side (right when the parent is a left child).
    fn insert_fixup(&mut self, c: usize, mut node: u32) {
        let mut parent = self.nodes[node as usize].parent;
        loop {
            if parent == NIL {
                self.set_pc(node, NIL, false);
                break;
            }
            if !self.nodes[parent as usize].red {
                break;
            }
            let gparent = self.nodes[parent as usize].parent;
            let u = parent != self.nodes[gparent as usize].right;
            let mut tmp = self.kid(gparent, u);
            if self.is_red(tmp) {
                // Case 1: the uncle is red (colour flips).
                self.set_pc(tmp, gparent, false);
                self.set_pc(parent, gparent, false);
                node = gparent;
                parent = self.nodes[node as usize].parent;
                self.set_pc(node, parent, true);
                continue;
            }
            tmp = self.kid(parent, u);
            if node == tmp {
                // Case 2: node is on the uncle's side of parent: rotate at parent.
                tmp = self.kid(node, !u);
                self.set_kid(parent, u, tmp);
                self.set_kid(node, !u, parent);
                if tmp != NIL {
                    self.set_pc(tmp, parent, false);
                }
                self.set_pc(parent, node, true);
                self.touched.push(parent);
                self.touched.push(node);
                parent = node;
                tmp = self.kid(node, u);
            }
            // Case 3: rotate at gparent, toward the uncle.
            self.set_kid(gparent, !u, tmp);
            self.set_kid(parent, u, gparent);
            if tmp != NIL {
                self.set_pc(tmp, gparent, false);
            }
            self.rotate_set_parents(gparent, parent, c, true);
            break;
        }
    }

    /// `__dequeue_entity`: `rb_erase_augmented_cached` (`__rb_erase_augmented`, then
    /// `__rb_erase_color` when a black node left a path short).
    pub fn erase(&mut self, c: usize, task: usize) {
        let node = task as u32;
        let Node { parent: npar, left: nleft, right: child, red: nred, .. } = self.nodes[task];
        let rebalance;
        if nleft == NIL {
            // Case 1: at most one child (the right).
            self.change_child(node, child, npar, c);
            if child != NIL {
                self.set_pc(child, npar, nred);
                rebalance = NIL;
            } else {
                rebalance = if nred { NIL } else { npar };
            }
            if npar != NIL {
                self.touched.push(npar);
            }
        } else if child == NIL {
            // Still case 1, the child is the left one.
            self.set_pc(nleft, npar, nred);
            self.change_child(node, nleft, npar, c);
            rebalance = NIL;
            if npar != NIL {
                self.touched.push(npar);
            }
        } else {
            let mut successor = child;
            let parent;
            let child2;
            let mut tmp = self.nodes[child as usize].left;
            if tmp == NIL {
                // Case 2: the successor is the right child.
                parent = successor;
                child2 = self.nodes[successor as usize].right;
            } else {
                // Case 3: the successor is the leftmost under the right child.
                let mut p = successor;
                while tmp != NIL {
                    p = successor;
                    successor = tmp;
                    tmp = self.nodes[tmp as usize].left;
                }
                parent = p;
                child2 = self.nodes[successor as usize].right;
                self.nodes[parent as usize].left = child2;
                self.nodes[successor as usize].right = child;
                self.nodes[child as usize].parent = successor;
                self.touched.push(parent);
            }
            self.nodes[successor as usize].left = nleft;
            self.nodes[nleft as usize].parent = successor;
            self.change_child(node, successor, npar, c);
            if child2 != NIL {
                self.set_pc(child2, parent, false);
                rebalance = NIL;
            } else {
                rebalance = if self.nodes[successor as usize].red { NIL } else { parent };
            }
            self.set_pc(successor, npar, nred);
            self.touched.push(parent);
            self.touched.push(successor);
        }
        self.nodes[task] = EMPTY;
        self.touched.retain(|&t| t != node);
        if rebalance != NIL {
            self.erase_color(c, rebalance);
        }
        self.recompute();
    }

    /// `____rb_erase_color`, its two mirrored halves as one: `r` is the sibling's side
    /// (right when the short path runs through parent's left).
    fn erase_color(&mut self, c: usize, mut parent: u32) {
        let mut node = NIL;
        loop {
            let r = node != self.nodes[parent as usize].right;
            let mut sibling = self.kid(parent, r);
            if self.is_red(sibling) {
                // Case 1: rotate at parent, away from the sibling.
                let tmp1 = self.kid(sibling, !r);
                self.set_kid(parent, r, tmp1);
                self.set_kid(sibling, !r, parent);
                self.set_pc(tmp1, parent, false);
                self.rotate_set_parents(parent, sibling, c, true);
                sibling = tmp1;
            }
            let mut tmp1 = self.kid(sibling, r);
            if !self.is_red(tmp1) {
                let tmp2 = self.kid(sibling, !r);
                if !self.is_red(tmp2) {
                    // Case 2: sibling colour flip.
                    self.set_pc(sibling, parent, true);
                    if self.nodes[parent as usize].red {
                        self.nodes[parent as usize].red = false;
                    } else {
                        node = parent;
                        parent = self.nodes[node as usize].parent;
                        if parent != NIL {
                            continue;
                        }
                    }
                    break;
                }
                // Case 3: rotate at sibling.
                tmp1 = self.kid(tmp2, r);
                self.set_kid(sibling, !r, tmp1);
                self.set_kid(tmp2, r, sibling);
                self.set_kid(parent, r, tmp2);
                if tmp1 != NIL {
                    self.set_pc(tmp1, sibling, false);
                }
                self.touched.push(sibling);
                self.touched.push(tmp2);
                tmp1 = sibling;
                sibling = tmp2;
            }
            // Case 4: rotate at parent and colour flips.
            let tmp2 = self.kid(sibling, !r);
            self.set_kid(parent, r, tmp2);
            self.set_kid(sibling, !r, parent);
            self.set_pc(tmp1, sibling, false);
            if tmp2 != NIL {
                self.nodes[tmp2 as usize].parent = parent;
            }
            self.rotate_set_parents(parent, sibling, c, false);
            break;
        }
    }

    fn depth(&self, mut n: u32) -> usize {
        let mut d = 0;
        while self.nodes[n as usize].parent != NIL {
            n = self.nodes[n as usize].parent;
            d += 1;
        }
        d
    }

    /// `min_deadline_cb`'s values for every touched node and its ancestors, deepest first.
    fn recompute(&mut self) {
        let mut touched = std::mem::take(&mut self.touched);
        touched.sort_unstable();
        touched.dedup();
        let mut by_depth: Vec<(usize, u32)> = touched.iter().map(|&t| (self.depth(t), t)).collect();
        by_depth.sort_unstable_by(|a, b| b.cmp(a));
        for (_, mut n) in by_depth {
            while n != NIL {
                let x = self.nodes[n as usize];
                let mut m = x.deadline;
                for ch in [x.left, x.right] {
                    if ch != NIL {
                        let d = self.nodes[ch as usize].min_deadline;
                        if (d.wrapping_sub(m) as i64) < 0 {
                            m = d;
                        }
                    }
                }
                self.nodes[n as usize].min_deadline = m;
                n = x.parent;
            }
        }
        touched.clear();
        self.touched = touched;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::SimRng;

    /// Checks the red-black rules, the order, the parents and the augmentation; returns
    /// the black height and the in-order keys.
    fn check(t: &RbTimeline, n: u32, parent: u32, keys: &mut Vec<u64>) -> usize {
        if n == NIL {
            return 1;
        }
        let x = t.nodes[n as usize];
        assert_eq!(x.parent, parent, "parent pointer");
        if x.red {
            assert!(!t.is_red(x.left) && !t.is_red(x.right), "a red node has black children");
        }
        let hl = check(t, x.left, n, keys);
        keys.push(x.vruntime);
        let hr = check(t, x.right, n, keys);
        assert_eq!(hl, hr, "black heights");
        let mut m = x.deadline;
        for ch in [x.left, x.right] {
            if ch != NIL {
                m = m.min(t.nodes[ch as usize].min_deadline);
            }
        }
        assert_eq!(x.min_deadline, m, "min_deadline");
        hl + usize::from(!x.red)
    }

    #[test]
    fn random_inserts_and_erases_keep_a_valid_augmented_red_black_tree() {
        let mut rng = SimRng::new(7, 0);
        let mut t = RbTimeline::new(2);
        let mut on: Vec<Option<usize>> = vec![None; 300];
        for _ in 0..20_000 {
            let task = rng.range(0, 299) as usize;
            match on[task] {
                Some(c) => {
                    t.erase(c, task);
                    on[task] = None;
                }
                None => {
                    let c = rng.range(0, 1) as usize;
                    t.insert(c, task, rng.range(0, 50), rng.range(0, 1000));
                    on[task] = Some(c);
                }
            }
            for c in 0..2 {
                let mut keys = Vec::new();
                let root = t.roots[c];
                assert!(!t.is_red(root), "the root is black");
                check(&t, root, NIL, &mut keys);
                assert!(keys.windows(2).all(|w| w[0] <= w[1]), "in order");
                assert_eq!(keys.len(), on.iter().filter(|&&x| x == Some(c)).count());
            }
        }
    }

    #[test]
    fn ascending_inserts_give_lib_rbtree_s_shape() {
        // 1..=7 inserted in order: lib/rbtree.c gives 2 at the root with 1 and 4 below, 4
        // red with 3 and 6, 6 black with 5 and 7 red (the classic sequence of case 1 and
        // case 3 fixups).
        let mut t = RbTimeline::new(1);
        for k in 1..=7u64 {
            t.insert(0, k as usize, k, k);
        }
        let v = |k: usize| t.view(k);
        assert_eq!(t.root(0), Some(2));
        assert_eq!((v(2).left, v(2).right), (Some(1), Some(4)));
        assert_eq!((v(4).left, v(4).right), (Some(3), Some(6)));
        assert_eq!((v(6).left, v(6).right), (Some(5), Some(7)));
        assert!(t.nodes[4].red && !t.nodes[6].red && t.nodes[5].red && t.nodes[7].red);
        assert!(!t.nodes[1].red && !t.nodes[3].red);
    }
}

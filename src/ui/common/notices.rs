//! The page's notices (a slice of the app's state): what a link, an import or a late answer
//! could not use, and why. Short: old ones scroll away. Pure.

use std::ops::Deref;

#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub id: u64,
    pub text: String,
    /// Items listed under the text (what a link or an import could not use, and why).
    pub details: Vec<String>,
}

/// The notices shown, oldest first, and the id the next one gets (ids are never reused, so
/// a Dismiss for an old notice never removes a new one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notices {
    list: Vec<Notice>,
    next: u64,
}

/// How many notices are kept.
const KEPT: usize = 4;

impl Notices {
    pub fn push(&mut self, text: impl Into<String>) {
        self.push_with(text, Vec::new());
    }

    pub fn push_with(&mut self, text: impl Into<String>, details: Vec<String>) {
        self.next += 1;
        self.list.push(Notice { id: self.next, text: text.into(), details });
        if self.list.len() > KEPT {
            self.list.remove(0);
        }
    }

    pub fn dismiss(&mut self, id: u64) {
        self.list.retain(|n| n.id != id);
    }
}

impl Deref for Notices {
    type Target = [Notice];

    fn deref(&self) -> &[Notice] {
        &self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_notices_scroll_away_and_ids_are_never_reused() {
        let mut n = Notices::default();
        for i in 0..6 {
            n.push(format!("n{i}"));
        }
        assert_eq!(n.iter().map(|x| x.text.as_str()).collect::<Vec<_>>(), ["n2", "n3", "n4", "n5"]);
        let first = n[0].id;
        n.dismiss(first);
        n.push("n6");
        assert!(n.iter().all(|x| x.id != first) && n.last().unwrap().id == 7);
    }
}

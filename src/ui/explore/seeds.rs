//! The Experiments page's slice of the app's state: its tables, loaded the first time the
//! page opens (`app::jobs` asks for them) and filled in one job at a time. Pure.

use std::rc::Rc;

use crate::ui::worker::protocol::SeedTable;

#[derive(Clone, Debug, PartialEq)]
pub enum Seeds {
    NotLoaded,
    Loading,
    /// Some tables are in, more are being computed.
    Partial(Rc<Vec<SeedTable>>),
    Loaded(Rc<Vec<SeedTable>>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum SeedsAction {
    Loading,
    /// One Experiments job's tables; `last` when no more follow.
    Done {
        tables: Vec<SeedTable>,
        last: bool,
    },
}

impl Seeds {
    pub fn reduce(&mut self, a: SeedsAction) {
        match a {
            SeedsAction::Loading => *self = Seeds::Loading,
            SeedsAction::Done { tables, last } => {
                let mut all = match self {
                    Seeds::Partial(so_far) => so_far.as_ref().clone(),
                    _ => Vec::new(),
                };
                all.extend(tables);
                *self = if last { Seeds::Loaded(Rc::new(all)) } else { Seeds::Partial(Rc::new(all)) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn experiments_tables_accumulate_until_the_last_one() {
        let table = |name: &str| SeedTable {
            preset: name.into(),
            title: name.into(),
            source: String::new(),
            metric: "elapsed_s".into(),
            unit: "s".into(),
            columns: Vec::new(),
            rows: Vec::new(),
            corpus: false,
            notes: String::new(),
        };
        let mut s = Seeds::NotLoaded;
        s.reduce(SeedsAction::Loading);
        s.reduce(SeedsAction::Done { tables: vec![table("a")], last: false });
        assert!(matches!(&s, Seeds::Partial(t) if t.len() == 1));
        s.reduce(SeedsAction::Done { tables: vec![table("b")], last: true });
        let Seeds::Loaded(t) = &s else { panic!("{s:?}") };
        assert_eq!(t.iter().map(|t| t.preset.as_str()).collect::<Vec<_>>(), ["a", "b"], "in order, none lost");
    }
}

//! What crosses between the page and the views module for the tour card (issue 26's code
//! splitting): `Card`, the open step as the card shows it (texts, choices, the reader's
//! answer and whether it is right, the figure's line once revealed), built from the app's
//! state (`Card::of`) and sent as `worker::wire` bytes. The tour model, the figures' numbers
//! and the answer's judging stay on the page. Pure (no web crate).

use crate::ui::app::state::State;
use crate::ui::common::format::{metric, metric_display, metric_label};
use crate::ui::worker::wire::{Reader, Wire};

/// The open step as the card shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Card {
    /// The tour's name (`data-tour`) and title.
    pub name: String,
    pub title: String,
    /// The open step (1-based) and how many there are.
    pub n: u32,
    pub total: u32,
    pub step_title: String,
    /// The knobs B sets on top of the preset, in the tour's order.
    pub set: Vec<(String, String)>,
    /// The metric the question is about: its key (`data-metric`) and title.
    pub metric_key: String,
    pub metric_title: String,
    pub region: Option<String>,
    pub question: String,
    /// A number question (an input) rather than choices.
    pub number: bool,
    pub choices: Vec<String>,
    /// The reader's answer, whether it is right, and the right one in words.
    pub reply: Option<String>,
    pub right: bool,
    pub right_answer: String,
    /// The figure's line once revealed (`metric_key` names it), and whether a run is still going.
    pub figure: Option<String>,
    pub busy: bool,
    pub explain: String,
    /// An embedded step: no close button, no step navigation.
    pub embed: bool,
}

impl Card {
    /// The card for the open step; None when no tour is open.
    pub fn of(s: &State) -> Option<Card> {
        let (tour, n) = s.tour.step()?;
        let st = &tour.steps[n - 1];
        let def = metric(&st.metric);
        let reply = s.tour.reply.clone();
        // The figure once revealed: A -> B when the step compares, else the run's value.
        let b = s.result.as_ref().filter(|r| r.gen == s.gen);
        let a = s.pin.as_ref().and_then(|p| p.result.as_ref());
        let figure = def.map(|d| {
            let show = |m: &crate::engine::Metrics| {
                let (v, u) = metric_display(d, m);
                if u.is_empty() {
                    v
                } else {
                    format!("{v} {u}")
                }
            };
            let label = metric_label(d, b.map(|r| &r.metrics).unwrap_or(&Default::default()));
            match (a, b) {
                (Some(a), Some(b)) => format!("{label}: A {} → B {}", show(&a.metrics), show(&b.metrics)),
                (None, Some(b)) => format!("{label}: {}", show(&b.metrics)),
                _ => format!("{label}: simulating…"),
            }
        });
        Some(Card {
            name: tour.name.clone(),
            title: tour.title.clone(),
            n: n as u32,
            total: tour.steps.len() as u32,
            step_title: st.title.clone(),
            set: st.set.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            metric_key: def.map(|d| d.key.to_string()).unwrap_or_default(),
            metric_title: def.map(|d| d.title.to_string()).unwrap_or_default(),
            region: st.region.clone(),
            question: st.question.clone(),
            number: st.number.is_some(),
            choices: st.choices.clone(),
            right: reply.as_deref().is_some_and(|r| st.is_right(r)),
            right_answer: st.right_answer(),
            reply,
            figure,
            busy: s.running() || s.comparing(),
            explain: st.explain.clone(),
            embed: s.embed,
        })
    }
}

impl Wire for Card {
    fn put(&self, w: &mut Vec<u8>) {
        let Card {
            name,
            title,
            n,
            total,
            step_title,
            set,
            metric_key,
            metric_title,
            region,
            question,
            number,
            choices,
            reply,
            right,
            right_answer,
            figure,
            busy,
            explain,
            embed,
        } = self;
        name.put(w);
        title.put(w);
        n.put(w);
        total.put(w);
        step_title.put(w);
        set.put(w);
        metric_key.put(w);
        metric_title.put(w);
        region.put(w);
        question.put(w);
        number.put(w);
        choices.put(w);
        reply.put(w);
        right.put(w);
        right_answer.put(w);
        figure.put(w);
        busy.put(w);
        explain.put(w);
        embed.put(w);
    }
    fn get(r: &mut Reader) -> Self {
        Card {
            name: Wire::get(r),
            title: Wire::get(r),
            n: Wire::get(r),
            total: Wire::get(r),
            step_title: Wire::get(r),
            set: Wire::get(r),
            metric_key: Wire::get(r),
            metric_title: Wire::get(r),
            region: Wire::get(r),
            question: Wire::get(r),
            number: Wire::get(r),
            choices: Wire::get(r),
            reply: Wire::get(r),
            right: Wire::get(r),
            right_answer: Wire::get(r),
            figure: Wire::get(r),
            busy: Wire::get(r),
            explain: Wire::get(r),
            embed: Wire::get(r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::worker::wire::{decode, encode};

    fn open(name: &str, step: usize) -> State {
        let mut s = State::default();
        s.tour.open = Some((name.to_string(), step));
        s
    }

    #[test]
    fn no_tour_no_card() {
        assert_eq!(Card::of(&State::default()), None);
    }

    #[test]
    fn a_step_crosses_whole_and_judges_the_answer_on_the_page() {
        let mut s = open("intro", 1);
        let before = Card::of(&s).expect("the intro tour's first step");
        assert_eq!((before.name.as_str(), before.n), ("intro", 1));
        assert!(before.total >= 4 && !before.question.is_empty() && !before.choices.is_empty());
        assert_eq!((before.reply.as_deref(), before.right), (None, false));
        // The intro's first step: the right choice is 1 (e2e/teach.test.mjs clicks it).
        s.tour.answer("1".into());
        let after = Card::of(&s).unwrap();
        assert_eq!((after.reply.as_deref(), after.right), (Some("1"), true));
        assert_eq!(after.figure.as_deref().map(|f| f.ends_with("simulating…")), Some(true), "no run yet");
        for card in [before, after] {
            assert_eq!(decode::<Option<Card>>(&encode(&Some(card.clone()))).unwrap(), Some(card));
        }
        assert_eq!(decode::<Option<Card>>(&encode(&None::<Card>)).unwrap(), None);
    }

    #[test]
    fn a_number_step_says_so() {
        // e2e/teach.test.mjs answers step 4 of the intro with a number.
        let c = Card::of(&open("intro", 4)).unwrap();
        assert!(c.number);
    }
}

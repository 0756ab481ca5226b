//! The refuter's round schedule: loop bounds deepening, each round first with branches
//! merged as the static path estimate says (`symex::should_merge`) and, once a round runs
//! out of paths that way, again at the same bound with every loop-free branch merged,
//! merged from then on. The estimate cannot see branches inside loops whose iterations
//! are forced (no unrolling bound stops them); merging makes one path of the lot.
//!
//! Serves the counterexample search (`refute::search`) and the ∃-run check of a concrete
//! ∀ run (`refute::exists`); it only schedules: each round's exploration stays with its
//! caller, whose callbacks have effects and cannot be replayed.

/// Deepening bounds, each with whether every branch is merged.
pub struct Rounds<I: Iterator<Item = u32>> {
    bounds: I,
    merge_all: bool,
    /// The bound to run again merged (the last round ran out of paths unmerged).
    again: Option<u32>,
}

impl<I: Iterator<Item = u32>> Rounds<I> {
    pub fn new(bounds: I) -> Self {
        Rounds { bounds, merge_all: false, again: None }
    }

    /// The next round: its bound and whether to merge every branch.
    pub fn next_round(&mut self) -> Option<(u32, bool)> {
        if let Some(bound) = self.again.take() {
            return Some((bound, true));
        }
        self.bounds.next().map(|b| (b, self.merge_all))
    }

    /// The round at `bound` ran out of paths: whether it is run again merged (the caller
    /// then moves on to the next round); `false` when it already was merged.
    pub fn out_of_paths(&mut self, bound: u32) -> bool {
        if self.merge_all {
            return false;
        }
        self.merge_all = true;
        self.again = Some(bound);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Rounds;

    #[test]
    fn a_round_out_of_paths_is_run_again_merged_and_later_rounds_stay_merged() {
        let mut r = Rounds::new([1, 2, 4].into_iter());
        assert_eq!(r.next_round(), Some((1, false)));
        assert_eq!(r.next_round(), Some((2, false)));
        assert!(r.out_of_paths(2));
        assert_eq!(r.next_round(), Some((2, true)));
        assert!(!r.out_of_paths(2));
        assert_eq!(r.next_round(), Some((4, true)));
        assert_eq!(r.next_round(), None);
    }
}

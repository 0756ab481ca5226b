//! Cooperative cancellation with deadlines, shared by engines, the portfolio and batch runs.
//!
//! A token is cancelled when any flag on its chain is set or its deadline passed. A child
//! (`child`, `with_timeout`) can be cancelled alone (the portfolio stops the losing engine)
//! while cancelling a parent (Ctrl-C) reaches every child.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flags: Vec<Arc<AtomicBool>>,
    deadline: Option<Instant>,
}

impl Cancel {
    /// A token that is never cancelled until `cancel` is called.
    pub fn new() -> Cancel {
        Cancel { flags: vec![Arc::new(AtomicBool::new(false))], deadline: None }
    }

    /// A child token: cancelled with this one, and also on its own.
    pub fn child(&self) -> Cancel {
        let mut flags = self.flags.clone();
        flags.push(Arc::new(AtomicBool::new(false)));
        Cancel { flags, deadline: self.deadline }
    }

    /// A child token whose deadline is at most `timeout` from now.
    pub fn with_timeout(&self, timeout: Duration) -> Cancel {
        let mut child = self.child();
        let d = Instant::now() + timeout;
        child.deadline = Some(self.deadline.map_or(d, |old| old.min(d)));
        child
    }

    /// Cancels this token and its children (not its parent).
    pub fn cancel(&self) {
        if let Some(own) = self.flags.last() {
            own.store(true, Ordering::SeqCst);
        }
    }

    /// Whether work under this token should stop now.
    pub fn is_cancelled(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::SeqCst)) || self.timed_out()
    }

    /// Whether the deadline has passed (as opposed to an explicit cancel).
    pub fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Time left before the deadline (`None`: no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_is_cancelled_by_parent_but_not_the_reverse() {
        let parent = Cancel::new();
        let child = parent.child();
        child.cancel();
        assert!(child.is_cancelled());
        assert!(!parent.is_cancelled());
        let other = parent.child();
        parent.cancel();
        assert!(other.is_cancelled());
    }

    #[test]
    fn deadline_cancels() {
        let t = Cancel::new().with_timeout(Duration::from_millis(0));
        assert!(t.is_cancelled());
        assert!(t.timed_out());
        assert!(!Cancel::new().with_timeout(Duration::from_secs(60)).is_cancelled());
    }
}

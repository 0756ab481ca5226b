//! `--jobs N` as a budget of cores: at most N engines compute at once, counting both the
//! batch's tuples and the portfolio's second engines.
//!
//! Without it, `--jobs 1` decided one tuple at a time but raced a second engine beside
//! every prover that ran past the gate, so it used 1.2–1.3 cores, and `--jobs 2` started
//! second engines while the next tuples waited. A second engine that starts on a busy
//! budget takes a core from the next tuple and mostly duplicates work the prover then
//! finishes anyway (on the ForEx suite, every such race was won by the prover). So a
//! second engine starts early only on a free core; on a full budget it waits until the
//! prover has run for the race's patience, then runs anyway (one engine over the
//! budget), so no tuple depends on its prover alone.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Engines computing at once, out of a limit.
pub struct CoreBudget {
    limit: usize,
    busy: Mutex<usize>,
    freed: Condvar,
}

impl std::fmt::Debug for CoreBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CoreBudget({}/{})", self.busy(), self.limit)
    }
}

/// One core of a budget, given back when dropped.
#[derive(Debug)]
pub struct Core {
    budget: Arc<CoreBudget>,
}

impl CoreBudget {
    /// A budget of `limit` cores (at least 1).
    pub fn new(limit: usize) -> Arc<CoreBudget> {
        Arc::new(CoreBudget { limit: limit.max(1), busy: Mutex::new(0), freed: Condvar::new() })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    fn lock(&self) -> MutexGuard<'_, usize> {
        self.busy.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Engines computing now (can exceed the limit by the engines taken anyway).
    pub fn busy(&self) -> usize {
        *self.lock()
    }

    /// A core if one is free.
    pub fn try_take(self: &Arc<Self>) -> Option<Core> {
        let mut busy = self.lock();
        (*busy < self.limit).then(|| {
            *busy += 1;
            Core { budget: self.clone() }
        })
    }

    /// A core, waiting until one is free.
    pub fn take(self: &Arc<Self>) -> Core {
        let mut busy = self.lock();
        while *busy >= self.limit {
            busy = self.freed.wait(busy).unwrap_or_else(|e| e.into_inner());
        }
        *busy += 1;
        Core { budget: self.clone() }
    }

    /// A core whether or not one is free.
    pub fn take_anyway(self: &Arc<Self>) -> Core {
        *self.lock() += 1;
        Core { budget: self.clone() }
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        *self.budget.lock() -= 1;
        self.budget.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cores_are_counted_and_given_back() {
        let b = CoreBudget::new(2);
        let one = b.try_take().expect("a free core");
        let two = b.try_take().expect("a second free core");
        assert!(b.try_take().is_none(), "the budget is full");
        let extra = b.take_anyway();
        assert_eq!(b.busy(), 3);
        drop(extra);
        drop(one);
        assert_eq!(b.busy(), 1);
        assert!(b.try_take().is_some());
        drop(two);
    }

    #[test]
    fn take_waits_for_a_core_given_back() {
        let b = CoreBudget::new(1);
        let held = b.try_take().expect("the only core");
        let waiter = {
            let b = b.clone();
            std::thread::spawn(move || {
                let _core = b.take();
                b.busy()
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!waiter.is_finished(), "no core is free yet");
        drop(held);
        assert_eq!(waiter.join().unwrap(), 1);
    }

    #[test]
    fn a_zero_limit_is_one_core() {
        let b = CoreBudget::new(0);
        assert_eq!(b.limit(), 1);
        let _one = b.try_take().expect("one core");
        assert!(b.try_take().is_none());
    }
}

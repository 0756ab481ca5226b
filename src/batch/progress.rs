//! The progress bar on stderr: done/total, verdicts so far and the tuple that has been
//! running longest. Absent (every method a no-op) when disabled.

use crate::report::{Counts, ResultKind};
use crate::verdict::VerdictKind;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::{Duration, Instant};

pub struct Progress {
    bar: Option<ProgressBar>,
    counts: Counts,
}

impl Progress {
    pub fn new(enabled: bool, total: usize) -> Progress {
        let bar = enabled.then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            let style =
                ProgressStyle::with_template("{elapsed:>4} [{bar:25}] {pos}/{len} {wide_msg}")
                    .expect("a valid template")
                    .progress_chars("=> ");
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress { bar, counts: Counts::default() }
    }

    /// A line above the bar (or plain on stderr when there is none).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// One tuple finished with this verdict.
    pub fn record(&mut self, verdict: VerdictKind) {
        self.counts.add(ResultKind::Verdict(verdict));
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Redraws the message with the tuple running longest, if any.
    pub fn update(&self, longest: Option<(&str, Instant)>) {
        let Some(bar) = &self.bar else { return };
        let c = &self.counts;
        let mut msg =
            format!("{} verified, {} violated, {} unknown", c.verified, c.violated, c.unknown);
        if let Some((name, since)) = longest {
            msg.push_str(&format!(" | running {name} ({}s)", since.elapsed().as_secs()));
        }
        bar.set_message(msg);
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

//! Verdicts on save: a worker thread decides every tuple of the saved text with the
//! portfolio and publishes each verdict as a diagnostic on the tuple's name. A change to
//! the document cancels the worker (its `Cancel` token also interrupts Z3), and a
//! cancelled worker publishes nothing more.

use super::diagnostics::from_outcome;
use super::navigate::Outline;
use super::position::LineMap;
use crate::cancel::Cancel;
use crate::frontend::{load_source_with, InputFormat};
use crate::portfolio::{decide, DecideOptions};
use lsp_server::{Message, Notification};
use lsp_types::{Diagnostic, Position, PublishDiagnosticsParams, Range, Url};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Stack for the worker: engines recurse over expressions up to `ir::MAX_DEPTH`.
const STACK: usize = 64 << 20;

/// Sends diagnostics to the client. Publishing and cancelling take the same lock, so a
/// worker's check "am I still current?" and its send happen together: once the main loop
/// has cancelled a worker and published fresh diagnostics, no stale verdict follows.
#[derive(Clone)]
pub struct Publisher {
    sender: crossbeam_channel::Sender<Message>,
    lock: Arc<Mutex<()>>,
    /// Per document, per verified tuple: its ∃ strategy as Markdown (for hover).
    strategies: Arc<Mutex<StrategyMap>>,
}

type StrategyMap = std::collections::HashMap<Url, std::collections::HashMap<String, String>>;

impl Publisher {
    pub fn new(sender: crossbeam_channel::Sender<Message>) -> Publisher {
        Publisher { sender, lock: Arc::new(Mutex::new(())), strategies: Default::default() }
    }

    fn strategies(&self) -> std::sync::MutexGuard<'_, StrategyMap> {
        self.strategies.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The ∃ strategy of tuple `tuple` of `uri` from its last verification, as Markdown.
    pub fn strategy(&self, uri: &Url, tuple: &str) -> Option<String> {
        self.strategies().get(uri)?.get(tuple).cloned()
    }

    /// Cancels `cancel` and then publishes, atomically with respect to workers.
    pub fn cancel_and_publish(
        &self,
        cancel: Option<&Cancel>,
        uri: &Url,
        version: Option<i32>,
        diagnostics: Vec<Diagnostic>,
    ) {
        let _held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = cancel {
            c.cancel();
        }
        self.send(uri, version, diagnostics);
    }

    /// Publishes only while `cancel` is not cancelled; false if it was.
    fn publish_if_current(
        &self,
        cancel: &Cancel,
        uri: &Url,
        version: Option<i32>,
        diagnostics: Vec<Diagnostic>,
    ) -> bool {
        let _held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if cancel.is_cancelled() {
            return false;
        }
        self.send(uri, version, diagnostics);
        true
    }

    fn send(&self, uri: &Url, version: Option<i32>, diagnostics: Vec<Diagnostic>) {
        let params = PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version };
        let note = Notification::new("textDocument/publishDiagnostics".into(), params);
        let _ = self.sender.send(note.into());
    }
}

/// Starts deciding the tuples of `text` on a worker thread under `cancel`.
pub fn spawn(
    publisher: Publisher,
    uri: Url,
    version: Option<i32>,
    text: String,
    opts: (DecideOptions, crate::frontend::Options),
    cancel: Cancel,
) {
    let spawned = std::thread::Builder::new()
        .name("forex-lsp-verify".into())
        .stack_size(STACK)
        .spawn(move || run(&publisher, &uri, version, &text, &opts.0, &opts.1, &cancel));
    if let Err(e) = spawned {
        eprintln!("forex lsp: cannot start a verification thread: {e}");
    }
}

fn run(
    publisher: &Publisher,
    uri: &Url,
    version: Option<i32>,
    text: &str,
    opts: &DecideOptions,
    front: &crate::frontend::Options,
    cancel: &Cancel,
) {
    let name = uri.to_file_path().map_or(uri.to_string(), |p| p.display().to_string());
    // Input errors are already on screen (published on open/change): nothing to decide.
    let Ok(module) = load_source_with(&name, text.as_bytes(), InputFormat::Auto, front) else {
        return;
    };
    let stem = std::path::Path::new(&name).file_stem().map(|s| s.to_string_lossy().into_owned());
    let outline = Outline::parse(text, stem.as_deref().unwrap_or("tuple"));
    let map = LineMap::new(text);
    let mut verdicts = Vec::new();
    publisher.strategies().remove(uri);
    for tuple in &module.tuples {
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| decide(tuple, opts, cancel)));
        let Ok(mut outcome) = outcome else { return };
        outcome.time = start.elapsed();
        if cancel.is_cancelled() {
            return;
        }
        let range = outline
            .tuples()
            .iter()
            .find(|t| t.name.name == tuple.name && !t.name.span.is_empty())
            .map(|t| map.range(&t.name.span))
            .unwrap_or_else(|| {
                let at = Position::new(
                    tuple.loc.line.saturating_sub(1),
                    tuple.loc.col.saturating_sub(1),
                );
                Range::new(at, at)
            });
        if let crate::verdict::Verdict::Verified { proof } = &outcome.verdict {
            if !proof.recorded.strategy.is_empty() {
                let mut md = format!("**{}** verified; the ∃ side chooses:\n\n", tuple.name);
                for e in &proof.recorded.strategy {
                    md.push_str(&format!("- `{} := {}` ({})\n", e.param, e.term, e.step));
                }
                publisher
                    .strategies()
                    .entry(uri.clone())
                    .or_default()
                    .insert(tuple.name.clone(), md);
            }
        }
        verdicts.push(from_outcome(range, &tuple.name, &outcome));
        if !publisher.publish_if_current(cancel, uri, version, verdicts.clone()) {
            return;
        }
    }
}

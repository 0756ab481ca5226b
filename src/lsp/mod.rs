//! `forex lsp`: a Language Server Protocol server over stdio.
//!
//! The main loop owns the open documents. On open and change it runs the front end and
//! publishes its diagnostics (cancelling any verification of the old text); on save it
//! starts a worker that decides the tuples and publishes verdicts (`verify`). Hover,
//! go-to-definition and the outline read the syntax tree (`navigate`). Positions are
//! converted between byte offsets and UTF-16 columns in `position`.

mod diagnostics;
mod navigate;
mod position;
mod verify;

pub use navigate::Outline;
pub use position::LineMap;

use crate::cancel::Cancel;
use crate::frontend::{load_source_with, InputFormat};
use crate::portfolio::DecideOptions;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams,
    HoverProviderCapability, Location, MarkupContent, MarkupKind, OneOf, ServerCapabilities,
    SymbolKind, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use std::collections::HashMap;
use verify::Publisher;

/// One open document.
struct Document {
    text: String,
    version: Option<i32>,
    /// The running verification of this text, if any.
    verifying: Option<Cancel>,
}

struct Server {
    publisher: Publisher,
    documents: HashMap<Url, Document>,
    decide: DecideOptions,
    /// How files are read (C files: `--int-model`, `-I`, `-D`).
    front: crate::frontend::Options,
}

/// Serves one client on stdin/stdout until `exit`.
pub fn run_stdio(decide: DecideOptions, front: crate::frontend::Options) -> Result<(), String> {
    let (connection, io) = Connection::stdio();
    serve(&connection, decide, front)?;
    drop(connection);
    io.join().map_err(|e| e.to_string())
}

/// Serves one client on `connection` until `shutdown` and `exit` (or the client leaves).
pub fn serve(
    connection: &Connection,
    decide: DecideOptions,
    front: crate::frontend::Options,
) -> Result<(), String> {
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            save: Some(TextDocumentSyncSaveOptions::Supported(true)),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    };
    let caps = serde_json::to_value(capabilities).map_err(|e| e.to_string())?;
    connection.initialize(caps).map_err(|e| e.to_string())?;
    let mut decide = decide;
    // Proofs keep their ∃ strategy, which hover shows on a verified tuple's name.
    decide.prove.record = true;
    decide.prove.strategy_only = true;
    let mut server = Server {
        publisher: Publisher::new(connection.sender.clone()),
        documents: HashMap::new(),
        decide,
        front,
    };
    for message in &connection.receiver {
        match message {
            Message::Request(req) => {
                if connection.handle_shutdown(&req).map_err(|e| e.to_string())? {
                    server.cancel_all();
                    return Ok(());
                }
                let response = server.request(req);
                let _ = connection.sender.send(response.into());
            }
            Message::Notification(note) => server.notification(note),
            Message::Response(_) => {}
        }
    }
    server.cancel_all();
    Ok(())
}

/// The file stem of a document, which names a ForEx-format file's one tuple.
fn stem(uri: &Url) -> String {
    let path = uri.path();
    let file = path.rsplit('/').next().unwrap_or(path);
    file.split('.').next().filter(|s| !s.is_empty()).unwrap_or("tuple").to_string()
}

fn file_name(uri: &Url) -> String {
    uri.to_file_path().map_or(uri.to_string(), |p| p.display().to_string())
}

impl Server {
    fn cancel_all(&mut self) {
        for doc in self.documents.values_mut() {
            if let Some(c) = doc.verifying.take() {
                c.cancel();
            }
        }
    }

    fn notification(&mut self, note: Notification) {
        match note.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(note.params) else {
                    return;
                };
                let doc = p.text_document;
                self.update(doc.uri, doc.text, Some(doc.version));
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(note.params)
                else {
                    return;
                };
                // Full sync: the last change holds the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    self.update(p.text_document.uri, change.text, Some(p.text_document.version));
                }
            }
            "textDocument/didSave" => {
                let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(note.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                if let Some(text) = p.text {
                    let version = self.documents.get(&uri).and_then(|d| d.version);
                    self.update(uri.clone(), text, version);
                }
                self.verify(&uri);
            }
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(note.params)
                else {
                    return;
                };
                let uri = p.text_document.uri;
                let cancel = self.documents.remove(&uri).and_then(|d| d.verifying);
                self.publisher.cancel_and_publish(cancel.as_ref(), &uri, None, Vec::new());
            }
            _ => {}
        }
    }

    /// New text: cancel the old verification, publish the front end's diagnostics.
    fn update(&mut self, uri: Url, text: String, version: Option<i32>) {
        let name = file_name(&uri);
        let diagnostics =
            match load_source_with(&name, text.as_bytes(), InputFormat::Auto, &self.front) {
                Ok(_) => Vec::new(),
                Err(diags) => diagnostics::from_front_end(&uri, &text, &diags),
            };
        let old = self.documents.insert(uri.clone(), Document { text, version, verifying: None });
        let cancel = old.and_then(|d| d.verifying);
        self.publisher.cancel_and_publish(cancel.as_ref(), &uri, version, diagnostics);
    }

    fn verify(&mut self, uri: &Url) {
        let Some(doc) = self.documents.get_mut(uri) else { return };
        if let Some(old) = doc.verifying.take() {
            old.cancel();
        }
        let cancel = Cancel::new();
        doc.verifying = Some(cancel.clone());
        let (text, version) = (doc.text.clone(), doc.version);
        verify::spawn(
            self.publisher.clone(),
            uri.clone(),
            version,
            text,
            (self.decide.clone(), self.front.clone()),
            cancel,
        );
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            "textDocument/hover" => serde_json::from_value::<HoverParams>(req.params)
                .map(|p| serde_json::to_value(self.hover(p)))
                .map_err(|e| e.to_string()),
            "textDocument/definition" => serde_json::from_value::<GotoDefinitionParams>(req.params)
                .map(|p| serde_json::to_value(self.definition(p)))
                .map_err(|e| e.to_string()),
            "textDocument/documentSymbol" => {
                serde_json::from_value::<DocumentSymbolParams>(req.params)
                    .map(|p| serde_json::to_value(self.symbols(&p.text_document.uri)))
                    .map_err(|e| e.to_string())
            }
            other => {
                let code = lsp_server::ErrorCode::MethodNotFound as i32;
                return Response::new_err(id, code, format!("unsupported request {other}"));
            }
        };
        match result {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err(e)) => {
                Response::new_err(id, lsp_server::ErrorCode::InternalError as i32, e.to_string())
            }
            Err(e) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, e),
        }
    }

    /// The document's syntax tree and the byte offset of `pos` in it.
    fn locate(&self, uri: &Url, pos: lsp_types::Position) -> Option<(&Document, Outline, usize)> {
        let doc = self.documents.get(uri)?;
        let offset = LineMap::new(&doc.text).offset(pos);
        Some((doc, Outline::parse(&doc.text, &stem(uri)), offset))
    }

    fn hover(&self, p: HoverParams) -> Option<Hover> {
        let at = p.text_document_position_params;
        let uri = &at.text_document.uri;
        let (doc, outline, offset) = self.locate(uri, at.position)?;
        // On a verified tuple's name: the ∃ strategy its proof found.
        let on_name = outline.tuples().iter().find(|t| t.name.span.contains(&offset)).cloned();
        if let Some(t) = on_name {
            if let Some(md) = self.publisher.strategy(uri, &t.name.name) {
                return Some(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: md,
                    }),
                    range: Some(LineMap::new(&doc.text).range(&t.name.span)),
                });
            }
        }
        let r = outline.copy_ref_at(offset)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: outline.hover(&r),
            }),
            range: Some(LineMap::new(&doc.text).range(&r.span)),
        })
    }

    fn definition(&self, p: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let at = p.text_document_position_params;
        let uri = at.text_document.uri;
        let (doc, outline, offset) = self.locate(&uri, at.position)?;
        let target = outline.definition(&outline.copy_ref_at(offset)?)?;
        let range = LineMap::new(&doc.text).range(&target);
        Some(GotoDefinitionResponse::Scalar(Location { uri, range }))
    }

    fn symbols(&self, uri: &Url) -> Option<DocumentSymbolResponse> {
        let doc = self.documents.get(uri)?;
        let outline = Outline::parse(&doc.text, &stem(uri));
        let map = LineMap::new(&doc.text);
        #[allow(deprecated)] // `deprecated` is a required field of the struct
        let symbol = |name: &str, kind, detail: String, span, sel| DocumentSymbol {
            name: name.to_string(),
            detail: Some(detail),
            kind,
            tags: None,
            deprecated: None,
            range: map.range(span),
            selection_range: map.range(sel),
            children: None,
        };
        let mut out = Vec::new();
        for p in outline.programs() {
            out.push(symbol(
                &p.name.name,
                SymbolKind::FUNCTION,
                "program".into(),
                &p.span,
                &p.name.span,
            ));
        }
        for t in outline.tuples() {
            let copies: Vec<String> =
                t.copies.iter().map(|c| format!("{}: {}", c.name.name, c.program.name)).collect();
            let detail = format!("tuple ({})", copies.join(", "));
            out.push(symbol(&t.name.name, SymbolKind::STRUCT, detail, &t.span, &t.name.span));
        }
        Some(DocumentSymbolResponse::Nested(out))
    }
}

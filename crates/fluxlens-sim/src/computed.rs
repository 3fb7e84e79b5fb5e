//! What one computation of the report holds, and what one request sees of the server's caches
//! (`clocks.rs` keeps them over time; `store.rs` computes and answers from them).

use std::collections::HashMap;
use std::sync::Arc;

/// One object as the report's computation indexes it (reporter `NewResourceStatus`).
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub status: String,
    pub message: String,
    pub last_reconciled: Option<String>,
}

/// One kind's counts in one namespace (reporter `reconcilerStats`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NsStats {
    pub total: u64,
    pub suspended: u64,
    pub failing: u64,
}

/// One installed kind's counts, per namespace (reporter `ReconcilerStatsByNamespace`).
#[derive(Debug, Clone, PartialEq)]
pub struct KindStats {
    pub api_version: String,
    pub kind: String,
    pub by_namespace: HashMap<String, NsStats>,
}

/// What one computation of the report holds (reporter `FluxStatusReporter.Compute`): the
/// counts of every installed kind, zero-count kinds included, and the search index.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Computed {
    pub stats: Vec<KindStats>,
    pub index: Vec<IndexRow>,
    /// The distinct kinds of the index (search_index.go `Kinds`), computed with it: a list
    /// asks for each of its rows whether the kind is listed.
    pub kinds: std::collections::BTreeSet<String>,
}

/// What one request sees: the report's last computation, the user's namespaces as cached, and
/// the seed that orders rows the server's sort leaves tied.
#[derive(Debug, Clone)]
pub struct Seen {
    pub computed: Arc<Computed>,
    /// The user's namespaces as the server holds them for this request.
    pub namespaces: Vec<String>,
    /// Per request: rows with the same `lastReconciled` come out in no fixed order
    /// (resources.go sorts with `sort.Slice`, not stable, after per-kind goroutines append).
    pub seed: u64,
}

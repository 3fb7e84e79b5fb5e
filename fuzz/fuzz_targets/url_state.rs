//! URL state parsing: any query string parses, and what it writes parses back the same.
#![no_main]
use fluxlens_core::share::urlstate::{GraphQuery, ListQuery};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(q) = std::str::from_utf8(data) else { return };
    let g = GraphQuery::from_query(q);
    let again = GraphQuery::from_query(&g.to_query());
    assert_eq!(again.filter.namespaces, g.filter.namespaces);
    assert_eq!(again.selected, g.selected);
    let l = ListQuery::from_query(q);
    assert_eq!(ListQuery::from_query(&l.to_query()), l);
});

//! Keys for `<For>` lists: an item's identity and content, so a poll that changes one object
//! rebuilds only the rows that show it, and an unchanged row keeps its DOM — an opened
//! `<details>`, the text typed in its filter, keyboard focus (#23).

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A hash of what a value shows: equal content, equal hash. The shown types derive `Hash`
/// over the fields they show (#48: this formatted each item's `Debug` text, a large string per
/// row per poll, and a format no type promises to keep).
pub fn content_hash<T: Hash + ?Sized>(item: &T) -> u64 {
    let mut h = DefaultHasher::new();
    item.hash(&mut h);
    h.finish()
}

/// Each item with a key from its content; equal items get distinct keys in order.
pub fn content_keys<T: Hash>(items: Vec<T>) -> Vec<(u64, T)> {
    let mut seen: HashMap<u64, u64> = HashMap::new();
    items
        .into_iter()
        .map(|item| {
            let base = content_hash(&item);
            let nth = seen.entry(base).or_default();
            let key = base.wrapping_add(*nth);
            *nth += 1;
            (key, item)
        })
        .collect()
}

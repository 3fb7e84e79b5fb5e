//! Keys for `<For>` lists: an item's identity and content, so a poll that changes one object
//! rebuilds only the rows that show it, and an unchanged row keeps its DOM — an opened
//! `<details>`, the text typed in its filter, keyboard focus (#23).

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};

/// Each item with a key from its content; equal items get distinct keys in order.
pub fn content_keys<T: Debug>(items: Vec<T>) -> Vec<(u64, T)> {
    let mut seen: HashMap<u64, u64> = HashMap::new();
    items
        .into_iter()
        .map(|item| {
            let mut h = DefaultHasher::new();
            format!("{item:?}").hash(&mut h);
            let base = h.finish();
            let nth = seen.entry(base).or_default();
            let key = base.wrapping_add(*nth);
            *nth += 1;
            (key, item)
        })
        .collect()
}

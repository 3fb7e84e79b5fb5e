//! Code the overview's first view does not run, in wasm chunks of their own when the build
//! splits (`--features split`, `scripts/split.py`): the main module is what a cold visit waits
//! for before the overview is complete (#51), so what runs later, or only on some visits, is
//! fetched when first called. Without the feature every function is linked into the one
//! module and called directly (tests, clippy).
//!
//! Chunks: `fluxlens_snapshot` (the snapshot codec: the last visit's copy, the kept visits and
//! what changed since, snapshot links and files), `fluxlens_fleet` (the fleet's reads, with the
//! fleet page), and one per page (`pages::split`).

/// Code that could not be loaded: its chunk did not arrive (network, a newer deploy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkFailed;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkFailed
    }
}

/// Declares `fn $name(args) -> T` as living in chunk `$chunk`: callers get an `async fn` that
/// fetches the chunk on first use and answers `Err(ChunkFailed)` when it does not arrive. Once
/// the chunk has arrived no call fetches it again. Arguments are passed by value.
macro_rules! in_chunk {
    ($chunk:ident: $(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $crate::chunks::in_chunk! { $chunk: $(#[$attr])* $vis fn $name($($arg: $ty),*) -> () $body }
    };
    ($chunk:ident: $(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$attr])*
        #[cfg(feature = "split")]
        #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::chunks::ChunkFailed> {
            Ok($body)
        }
        $(#[$attr])*
        #[cfg(not(feature = "split"))]
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::chunks::ChunkFailed> {
            Ok($body)
        }
    };
}
pub(crate) use in_chunk;

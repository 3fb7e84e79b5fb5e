//! Reads rendered manifests from disk — a file, or a directory of them read in name order —
//! through core's reader of one file's text (`fluxlens_core::render::manifests`).

use std::path::{Path, PathBuf};

/// All files of one tree together, at most.
pub const MAX_TREE_BYTES: u64 = 512 << 20;
/// Files of one tree, at most.
pub const MAX_FILES: usize = 50_000;

pub use fluxlens_core::render::manifests::{InputError, MAX_FILE_BYTES, Manifest, Origin, file};
pub use fluxlens_core::render::yaml;

fn error(file: &Path, document: Option<usize>, reason: impl Into<String>) -> InputError {
    InputError {
        file: file.to_path_buf(),
        document,
        reason: reason.into(),
    }
}

/// Every manifest under `path` (a file, or a directory read recursively in name order;
/// hidden entries and files not ending in .yaml, .yml or .json are passed over).
pub fn tree(path: &Path) -> Result<Vec<Manifest>, InputError> {
    let files = files(path)?;
    let mut total = 0u64;
    let mut out = Vec::new();
    for f in files {
        let len = std::fs::metadata(&f)
            .map_err(|e| error(&f, None, format!("cannot read: {e}")))?
            .len();
        if len > MAX_FILE_BYTES {
            return Err(error(
                &f,
                None,
                format!("{len} bytes, over the limit of {MAX_FILE_BYTES} for one file"),
            ));
        }
        total += len;
        if total > MAX_TREE_BYTES {
            return Err(error(
                &f,
                None,
                format!("the tree passes {MAX_TREE_BYTES} bytes here, over the limit"),
            ));
        }
        let bytes = std::fs::read(&f).map_err(|e| error(&f, None, format!("cannot read: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            error(
                &f,
                None,
                format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
            )
        })?;
        out.extend(file(&f, &text)?);
    }
    Ok(out)
}

/// The files to read under `path`, sorted.
fn files(path: &Path) -> Result<Vec<PathBuf>, InputError> {
    let meta =
        std::fs::metadata(path).map_err(|e| error(path, None, format!("cannot read: {e}")))?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut dirs = vec![path.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| error(&dir, None, format!("cannot list: {e}")))?;
        for entry in entries {
            let entry = entry.map_err(|e| error(&dir, None, format!("cannot list: {e}")))?;
            let p = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            // Not followed into linked directories: a link loop must not hang the check.
            let kind = entry
                .file_type()
                .map_err(|e| error(&p, None, format!("cannot read: {e}")))?;
            if kind.is_dir() {
                dirs.push(p);
            } else if [".yaml", ".yml", ".json"].iter().any(|e| name.ends_with(e)) {
                out.push(p);
            }
        }
        if out.len() > MAX_FILES {
            return Err(error(path, None, format!("more than {MAX_FILES} files")));
        }
    }
    out.sort();
    Ok(out)
}

//! Arbitrary bytes as `.codegraph/manifest.json` beside two real one-file
//! segments: opening the index validates the manifest whole (names, duplicates,
//! base segments, superseded slots, generation) and then queries, counts, lists
//! and verifies; every outcome is an error or an answer, never a panic, a hang or
//! a file opened outside `.codegraph/`.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use codegraph::project::Index;
use codegraph::query::{search, Mode, Query};
use libfuzzer_sys::fuzz_target;

/// A project folder with two real segments (from the snapshot seeds).
fn project() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("cg-fuzz-manifest-{}", std::process::id()));
        let dir = root.join(".codegraph");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("seg-000001-0000.cgs"), include_bytes!("../seeds/snapshot/one-go-file.cgs")).unwrap();
        std::fs::write(dir.join("seg-000001-0001.cgs"), include_bytes!("../seeds/snapshot/one-rust-file.cgs")).unwrap();
        root
    })
}

fuzz_target!(|data: &[u8]| {
    let root = project();
    if std::fs::write(root.join(".codegraph/manifest.json"), data).is_err() {
        return;
    }
    let Ok(index) = Index::open(root) else { return };
    for (term, mode) in [("main", Mode::Exact), ("ma", Mode::StartsWith), ("ai", Mode::Contains)] {
        let _ = search(&index, &Query::new(term, mode));
    }
    let _ = index.stats();
    let _ = index.files();
    let _ = index.verify();
});

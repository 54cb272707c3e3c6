//! Arbitrary bytes as a transformer vector store (`deep.cgd`): opening,
//! verifying, reading every row, keeping rows for a rewrite, and searching
//! it against an index of a real segment return errors or answers, never
//! panic; every scale read is one a unit vector can have, every cosine a
//! finite number, every hit a definition its file has.
#![no_main]

use codegraph::embed::deep::{DeepRows, DeepStore};
use codegraph::project::Index;
use codegraph::snapshot::Segment;
use libfuzzer_sys::fuzz_target;

/// An index of one real segment (the snapshot seed), whose files the rows may
/// name.
fn index() -> &'static Index {
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let bytes = include_bytes!("../seeds/snapshot/one-go-file.cgs").to_vec();
        Index::from_segments(&std::env::temp_dir(), vec![Segment::from_vec("seed", bytes).unwrap()])
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(store) = DeepStore::from_vec(data.to_vec()) else { return };
    let _ = store.verify();
    for fi in 0..store.files.min(10_000) {
        let key = store.file_key(fi);
        let _ = (store.path(fi), store.find_file(key), store.find(key, 0));
        for r in store.file_rows(fi).take(1000) {
            let _ = (store.def_index(r), store.signs(r));
        }
    }
    let q: Vec<i8> = (0..store.dims).map(|i| (i * 37 % 255) as i8).collect();
    for r in 0..store.rows.min(10_000) {
        let s = store.scale(r);
        assert!(codegraph::embed::scale_ok(s), "row {r}: scale {s}");
        assert!(store.dot(r, &q, 1.0 / 127.0).is_finite());
    }
    let mut rows = DeepRows::new(&store.model, store.model_id, store.dims);
    rows.extend_from(&store, |_| Some(64));
    let again = DeepStore::from_vec(rows.to_bytes()).expect("rows written by DeepRows read back");
    again.verify().expect("rows written by DeepRows verify");
    let index = index();
    let (hits, _) = codegraph::graph::deep_nearest(index, &store, &(q, 1.0 / 127.0), 5);
    for ((file, def), cos) in hits {
        assert!(cos.is_finite(), "cosine {cos}");
        let f = index.segments[file.0].slot(file.1).unwrap();
        assert!(def < f.meta.defs(), "definition {def} of a file of {}", f.meta.defs());
    }
});

//! Arbitrary bytes as a segment file: opening, verifying, querying (also with
//! superseded slots), symbol search (by words and by meaning, with a made-up
//! static model), the context bundle, graph questions and copying files out for compaction
//! return errors or answers, never panic.
#![no_main]

use codegraph::project::Index;
use codegraph::query::{search, Mode, Query};
use codegraph::snapshot::Segment;
use libfuzzer_sys::fuzz_target;

/// A static model over a few words (vectors made up); a segment's vectors are
/// compared only when their model id is this model's.
fn model() -> &'static codegraph::embed::StaticModel {
    static MODEL: std::sync::OnceLock<codegraph::embed::StaticModel> = std::sync::OnceLock::new();
    MODEL.get_or_init(|| {
        let words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "player", "health", "point", "distance"];
        let vocab = codegraph::embed::wordpiece::WordPiece::from_vocab_txt(&words.join("\n"), true).unwrap();
        let vectors = (0..words.len() * 8).map(|i| ((i * 7919 % 23) as f32 - 11.0) / 11.0).collect();
        codegraph::embed::StaticModel::new("fuzz", vocab, 8, vectors)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(segment) = Segment::from_vec("fuzz", data.to_vec()) else { return };
    let _ = segment.verify();
    if let Ok(copy) = segment.copy_files(|s| s % 2 == 0) {
        for f in &copy.files {
            let _ = f.with_entry(|e| e.structure.len());
        }
    }
    let mut index = Index::from_segments(&std::env::temp_dir(), vec![segment]);
    for superseded in [vec![], vec![0u32, 1, 3]] {
        index.superseded[0] = superseded.into_iter().collect();
        for (term, mode) in [("player", Mode::Exact), ("pl", Mode::StartsWith), ("aye", Mode::Contains), ("^p.*r$", Mode::Regex), ("^pla.*yer$", Mode::Regex), ("player", Mode::Subword), ("player_health", Mode::Subword)] {
            let _ = search(&index, &Query::new(term, mode));
        }
        let _ = index.stats();
        let _ = index.files();
        let g = codegraph::graph::Graph::new(&index);
        let _ = g.search("player health", 10);
        let _ = codegraph::graph::nearest(&index, model(), "player health", 5);
        let _ = g.search_by("player distance", 5, codegraph::graph::SearchMode::Hybrid, Some(model()));
        let _ = codegraph::graph::vector_coverage(&index, Some("fuzz"), Some(model()));
        let _ = g.context("fix Point.distance", 2000, &[]);
        for symbol in ["Start", "Server", "Point.distance", "main"] {
            if let Ok(defs) = g.find(symbol) {
                let _ = g.refs(&defs, &[]);
                let _ = g.callers(&defs, 2);
                if let Some(&d) = defs.first() {
                    let _ = g.callees(d, 2);
                    let _ = g.hierarchy(d);
                }
            }
        }
    }
});

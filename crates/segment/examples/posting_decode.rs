//! How fast a segment's posting lists decode, every list of every variant:
//!
//!     cargo run --release -p codegraph-segment --example posting_decode -- .codegraph/seg-000001-0000.cgs
//!
//! Three passes, each the median of five: `extend_into` (a contains query's
//! loop), `PostingIter` (streaming), and `count_left` (counting alone).

use codegraph_segment::postings::{extend_into, PostingIter};
use codegraph_segment::{Segment, SlotSet};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: posting_decode SEGMENT.cgs")?;
    let seg = Segment::open(std::path::Path::new(&path))?;
    let mut lists = Vec::new();
    for i in 0..seg.variant_count {
        let v = seg.variant(i)?;
        let (rest, defs) = seg.posting_lists(&v)?;
        lists.push(rest);
        lists.push(defs);
    }
    let bytes: usize = lists.iter().map(|l| l.bytes().len()).sum();
    let skip = SlotSet::default();
    let median = |f: &dyn Fn() -> u64| {
        let mut runs: Vec<(f64, u64)> = (0..5)
            .map(|_| {
                let t = Instant::now();
                let n = f();
                (t.elapsed().as_secs_f64(), n)
            })
            .collect();
        runs.sort_by(|a, b| a.0.total_cmp(&b.0));
        runs[2]
    };
    let (t, n) = median(&|| {
        let mut out = Vec::new();
        let mut n = 0;
        for l in &lists {
            out.clear();
            extend_into(*l, &skip, &mut out).expect("well-formed");
            n += out.len() as u64;
        }
        n
    });
    println!("{} lists, {:.1} MiB, {n} postings", lists.len(), bytes as f64 / 1048576.0);
    println!("extend_into  {:.1} ms  {:.2} ns/posting", t * 1e3, t * 1e9 / n as f64);
    let (t, n) = median(&|| lists.iter().map(|l| PostingIter::new(*l).count() as u64).sum());
    println!("PostingIter  {:.1} ms  {:.2} ns/posting", t * 1e3, t * 1e9 / n as f64);
    let (t, n) = median(&|| lists.iter().map(|l| PostingIter::new(*l).count_left().expect("well-formed")).sum());
    println!("count_left   {:.1} ms  {:.2} ns/posting", t * 1e3, t * 1e9 / n as f64);
    Ok(())
}

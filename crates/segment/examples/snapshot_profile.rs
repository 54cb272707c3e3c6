//! Where a segment's bytes go, and what a denser layout would save:
//!
//!     cargo run --release -p codegraph-segment --example snapshot_profile -- .codegraph/seg-000001-0000.cgs
//!
//! 1. Each section's length and the same bytes through zstd (level 3): how far
//!    from their information content the section's encoding is.
//! 2. The structure archives (section 8): what each field of `FileStructure`
//!    costs once compressed as the writer compresses it (the section's own
//!    dictionary, level 7), as the archives' total without that field.
//!
//! The layout read here is format/README.md's; the tool only reads.

use codegraph_segment::structure::FileStructure;
use codegraph_segment::Segment;

const NAMES: [&str; 20] = [
    "term fst",
    "folds",
    "variants",
    "strings",
    "postings",
    "slots",
    "line types",
    "structure",
    "gram fst",
    "grams",
    "gram postings",
    "def fst",
    "defs",
    "def strings",
    "subword fst",
    "subwords",
    "vectors",
    "relation fst",
    "relations",
    "reference files",
];

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: snapshot_profile SEGMENT.cgs");
        std::process::exit(2);
    };
    if let Err(e) = run(std::path::Path::new(&path)) {
        eprintln!("snapshot_profile: {path}: {e}");
        std::process::exit(1);
    }
}

fn mib(n: usize) -> f64 {
    n as f64 / 1048576.0
}

fn run(path: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    // Opening checks the header, the table and the block sums' own sum.
    let seg = Segment::open(path)?;
    let bytes = std::fs::read(path)?;
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
    let count = (u32_at(12) as usize).min(NAMES.len());
    let mut sections: Vec<(&str, &[u8])> = Vec::new();
    for (i, name) in NAMES.iter().enumerate().take(count) {
        let entry = 64 + 32 * i;
        let (offset, len) = (u64_at(entry + 8) as usize, u64_at(entry + 16) as usize);
        let body = bytes.get(offset..offset.saturating_add(len)).ok_or("section out of bounds")?;
        sections.push((name, body));
    }

    println!("{} ({:.1} MiB)\n", path.display(), mib(bytes.len()));
    println!("{:<16} {:>9} {:>7} {:>12}", "section", "MiB", "share", "zstd -3 MiB");
    let mut by_size = sections.clone();
    by_size.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
    for (name, body) in &by_size {
        let z = zstd::bulk::compress(body, 3)?.len();
        println!(
            "{name:<16} {:>9.2} {:>6.1}% {:>12.2}",
            mib(body.len()),
            100.0 * body.len() as f64 / bytes.len() as f64,
            mib(z)
        );
    }

    // The archives, decompressed and decoded once.
    let mut files: Vec<FileStructure> = Vec::new();
    for i in 0..seg.slot_count {
        let slot = seg.slot(i)?;
        if slot.part == 0 && slot.structure.len > 0 {
            files.push(seg.structure(&slot)?);
        }
    }
    let structure = sections.get(7).map_or(&[][..], |s| s.1);
    let dict = codegraph_segment::structure::section_dict(structure).ok_or("structure dictionary invalid")?;
    let mut c = zstd::bulk::Compressor::with_dictionary(7, dict)?;
    c.set_parameter(zstd::stream::raw::CParameter::DictIdFlag(false))?;
    type Strip = fn(&mut FileStructure);
    let strips: [(&str, Strip); 9] = [
        ("as written", |_| {}),
        ("header comments", |f| f.header.clear()),
        ("doc comments", |f| {
            f.types.iter_mut().for_each(|t| t.doc.clear());
            f.methods.iter_mut().for_each(|m| m.doc.clear());
        }),
        ("prototypes, declarations", |f| {
            f.methods.iter_mut().for_each(|m| m.prototype.clear());
            f.properties.iter_mut().for_each(|p| p.declaration.clear());
        }),
        ("references (refs)", |f| f.refs.clear()),
        ("refs and their names", |f| {
            f.refs.clear();
            f.names.clear();
        }),
        ("imports", |f| f.imports.clear()),
        ("properties", |f| f.properties.clear()),
        ("types", |f| f.types.clear()),
    ];
    println!(
        "\nstructure archives of {} files: without each field (zstd level 7, the section's dictionary)",
        files.len()
    );
    let mut whole = 0usize;
    for (name, strip) in strips {
        let (mut raw, mut z) = (0usize, 0usize);
        for f in &files {
            let mut g = f.clone();
            strip(&mut g);
            let a = g.to_archive();
            raw += a.len();
            z += c.compress(&a)?.len();
        }
        if whole == 0 {
            whole = z;
            println!("{name:<26} raw {:>8.2} MiB, compressed {:>6.2} MiB", mib(raw), mib(z));
        } else {
            println!("{name:<26} costs {:>6.2} MiB", mib(whole.saturating_sub(z)));
        }
    }

    Ok(())
}

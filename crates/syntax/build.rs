//! Compiles `src/extract/flat.c` (a tree's visible nodes in one call) against
//! the internal headers of the tree-sitter crate this build links: its build
//! script publishes its `include/` folder, and `src/` lies beside it.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src/extract/flat.c");
    let include = PathBuf::from(
        std::env::var_os("DEP_TREE_SITTER_INCLUDE")
            .expect("the tree-sitter crate's build script names its include folder"),
    );
    let internal = include.parent().map(|p| p.join("src")).expect("the tree-sitter crate's src folder");
    cc::Build::new()
        .file("src/extract/flat.c")
        .include(&include)
        .include(&internal)
        .flag_if_supported("-std=c11")
        .define("_POSIX_C_SOURCE", "200112L")
        .define("_DEFAULT_SOURCE", None)
        .warnings(false)
        .compile("cgflat");
}

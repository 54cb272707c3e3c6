//! `cg`: the command line. Argument parsing and glue only; the work is in the library.

use std::process::ExitCode;

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    use_mimalloc_in_tree_sitter();
    cli::main()
}

/// tree-sitter allocates through C `malloc` unless told otherwise; parsing is the
/// bulk of indexing, so it gets the same allocator as the rest of `cg`.
#[allow(unsafe_code)]
fn use_mimalloc_in_tree_sitter() {
    use libmimalloc_sys::{mi_calloc, mi_free, mi_malloc, mi_realloc};
    // SAFETY: this runs first in `main`, before any parser or tree exists, so no
    // block allocated by one allocator is ever freed by the other. The four
    // mimalloc functions have exactly the C signatures tree-sitter expects.
    unsafe { tree_sitter::set_allocator(Some(mi_malloc), Some(mi_calloc), Some(mi_realloc), Some(mi_free)) };
}

/// For the commands that answer questions (the server and the others): no
/// transparent huge pages for their memory. Calls take and free buffers of a
/// few KiB to a few MiB; mimalloc hands out fresh arena memory, and with huge
/// pages each first touch had the kernel zero a whole 2 MiB page:
/// `clear_page_erms` under `do_huge_pmd_anonymous_page` was 20-30% of `cg
/// mcp`'s time in the MCP bench (perf; 15% fewer samples for the same calls
/// without), 24% of the graph bench's refs, and `cg refs` / `cg symbol` on the
/// four budget corpora took 10% longer a command. Segments are mapped files,
/// not affected.
#[allow(unsafe_code)]
pub fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

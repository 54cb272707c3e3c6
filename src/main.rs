//! `cg`: the command line. Argument parsing and glue only; the work is in the library.

use std::process::ExitCode;

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}

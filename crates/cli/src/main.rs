//! The `boardlab` command. Thin: parses arguments and calls the libraries.

mod commands;

use clap::Parser;
use std::process::ExitCode;

/// The server answers many small requests from many threads at once; mimalloc keeps the
/// allocations of its JSON answers from contending (the system allocator spent a sixth of a
/// loaded server's time, `docs/measurements.md`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = commands::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of standard output stopped early (`boardlab … | head`): it has what it
        // wanted, so the command ends quietly, as the tools it is piped into expect.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether `e` comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

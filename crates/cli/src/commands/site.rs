//! `boardlab site`: the web app as a folder for any static host.

use anyhow::Result;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder to write (made if missing; files already there are replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

pub fn run(args: &Args) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let written = runtime.block_on(boardlab_server::site::write_site(&args.out))?;
    #[allow(clippy::cast_precision_loss)]
    let mb = written.bytes as f64 / 1e6;
    outln!(
        "wrote {} files ({mb:.1} MB) to {}",
        written.files,
        args.out.display()
    )?;
    outln!(
        "serve the folder at the root of a site, e.g. `python3 -m http.server -d {}`",
        args.out.display()
    )?;
    Ok(())
}

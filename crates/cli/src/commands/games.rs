//! `boardlab games`.

use anyhow::Result;
use boardlab_games::GameKind;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> Result<()> {
    if args.json {
        let list: Vec<_> = GameKind::all().iter().map(|k| k.info()).collect();
        outln!("{}", serde_json::to_string_pretty(&list)?)?;
        return Ok(());
    }
    for (i, kind) in GameKind::all().iter().enumerate() {
        let info = kind.info();
        if i > 0 {
            outln!()?;
        }
        outln!("{} — {}", info.name, info.title)?;
        outln!("  {}", info.summary)?;
        outln!(
            "  colours: {} (first seat), {} (second seat)",
            info.colours[0],
            info.colours[1]
        )?;
        outln!("  moves: {}", info.move_examples)?;
        if info.options.is_empty() {
            outln!("  options: none")?;
        } else {
            outln!("  options:")?;
        }
        for o in info.options {
            let default = if o.default.is_empty() {
                "(none)"
            } else {
                o.default
            };
            outln!(
                "    {}  [{}]  default {default}",
                o.name,
                o.values.accepted()
            )?;
            outln!("        {}", o.description)?;
        }
    }
    Ok(())
}

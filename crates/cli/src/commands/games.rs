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
        let list: Vec<_> = GameKind::ALL.iter().map(|k| k.info()).collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    for (i, kind) in GameKind::ALL.iter().enumerate() {
        let info = kind.info();
        if i > 0 {
            println!();
        }
        println!("{} — {}", info.name, info.title);
        println!("  {}", info.summary);
        println!(
            "  colours: {} (first seat), {} (second seat)",
            info.colours[0], info.colours[1]
        );
        println!("  moves: {}", info.move_examples);
        if info.options.is_empty() {
            println!("  options: none");
        } else {
            println!("  options:");
        }
        for o in info.options {
            let default = if o.default.is_empty() {
                "(none)"
            } else {
                o.default
            };
            println!(
                "    {}  [{}]  default {default}",
                o.name,
                o.values.accepted()
            );
            println!("        {}", o.description);
        }
    }
    Ok(())
}

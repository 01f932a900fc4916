//! Speed of the Opprimo engine on one core: random playouts from the start (playouts/s,
//! plies/s) and perft (nodes/s), for each castle option.
//!
//! `cargo run -p boardlab-opprimo --release --example bench [SECONDS]`

use boardlab_core::perft::perft;
use boardlab_core::Game;
use boardlab_opprimo::Opprimo;
use std::time::{Duration, Instant};

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    for castle in ["band", "hex"] {
        let options = Opprimo::info()
            .parse_options(&format!("castle={castle}"))
            .expect("valid options");
        let start = Opprimo::new(&options, 0).expect("a game");
        let mut rng = boardlab_core::rng(1);
        let (mut games, mut plies) = (0u64, 0u64);
        let t = Instant::now();
        let limit = Duration::from_secs_f64(secs);
        while t.elapsed() < limit {
            for _ in 0..100 {
                let mut g = start.clone();
                plies += u64::from(g.playout(&mut rng));
                games += 1;
            }
        }
        let el = t.elapsed().as_secs_f64();
        println!(
            "castle={castle}: {games} playouts in {el:.2} s: {:.0} playouts/s, {:.2} M plies/s ({:.1} plies per game)",
            games as f64 / el,
            plies as f64 / el / 1e6,
            plies as f64 / games as f64
        );
        let t = Instant::now();
        let depth = 5;
        let nodes = perft(&start, depth);
        let el = t.elapsed().as_secs_f64();
        println!(
            "castle={castle}: perft({depth}) = {nodes} in {el:.2} s: {:.2} M nodes/s",
            nodes as f64 / el / 1e6
        );
    }
}

//! Prints the evaluation (for the side to move) along a game record: `eval_trace FILE`.

use boardlab_ai::knowledge::GameAi;
use boardlab_core::GameRecord;

fn trace<G: GameAi>(rec: &GameRecord) {
    let (_, moves) = rec.replay::<G>().expect("a valid record");
    let mut g0: G = G::new(&rec.options_for::<G>().unwrap(), rec.seed).unwrap();
    for (i, m) in moves.iter().enumerate() {
        if g0.outcome().is_some() {
            break;
        }
        println!(
            "{:3} {:?} to move: eval {:6}  then {}",
            i + 1,
            g0.to_move(),
            g0.evaluate(),
            g0.format_move(*m)
        );
        g0.play_unchecked(*m);
    }
    println!("end: {:?}", g0.outcome());
}

fn main() {
    let path = std::env::args().nth(1).expect("a record file");
    let rec = GameRecord::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    match rec.game.as_str() {
        "obsidio" => trace::<boardlab_obsidio::Obsidio>(&rec),
        "opprimo" => trace::<boardlab_opprimo::Opprimo>(&rec),
        "assideum" => trace::<boardlab_assideum::Assideum>(&rec),
        _ => trace::<boardlab_sight_reduction::SightReduction>(&rec),
    }
}

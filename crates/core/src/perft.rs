//! Perft: the number of move sequences of a given length, the standard test of move generation.
//!
//! perft(p, 0) = 1; perft(p, d) = Σ perft(play(p, m), d − 1) over the legal moves m. A finished
//! game has no legal moves. Every move is a whole turn.

use crate::game::Game;

/// Counts the leaves of the move tree `depth` moves deep.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut bufs: Vec<Vec<G::Move>> = (0..depth.max(1)).map(|_| Vec::new()).collect();
    perft_inner(game, depth, &mut bufs)
}

fn perft_inner<G: Game>(game: &G, depth: u32, bufs: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per level");
    game.legal_moves(buf);
    if depth == 1 {
        return buf.len() as u64;
    }
    let mut total = 0;
    for &mv in buf.iter() {
        let mut next = game.clone();
        next.play_unchecked(mv);
        total += perft_inner(&next, depth - 1, rest);
    }
    total
}

/// Perft split by first move: each legal move (canonical notation, in move order) with its
/// count at `depth − 1`. Empty for depth 0.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play_unchecked(mv);
            (game.format_move(mv), perft(&next, depth - 1))
        })
        .collect()
}

/// One perft test case from a perft data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub name: String,
    /// Options as `key=value,…` (`default` for none).
    pub options: String,
    pub position: Option<String>,
    /// Moves played first, from the start or from `position`.
    pub moves: Vec<String>,
    /// (depth, expected count).
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft data file:
///
/// ```text
/// # comment
/// case full-k1 default
/// options sight=any
/// position BBBW/WBWB/BBWW/BBWW/BWBW/WBWB/BWWW/BBWW w
/// moves a2,a4; d7,f5
/// perft 1 12
/// perft 2 148
/// ```
///
/// `case` starts a case; `options`, `position` and `moves` (separated by `;`) are optional.
///
/// # Errors
/// A malformed line, with its number.
pub fn read_cases(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if key == "case" {
            cases.push(PerftCase {
                name: rest.to_string(),
                options: "default".into(),
                position: None,
                moves: Vec::new(),
                counts: Vec::new(),
            });
            continue;
        }
        let case = cases
            .last_mut()
            .ok_or_else(|| format!("line {}: '{key}' before the first 'case'", n + 1))?;
        match key {
            "options" => case.options = rest.to_string(),
            "position" => case.position = Some(rest.to_string()),
            "moves" => {
                case.moves = rest
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let parsed = (|| {
                    let d = it.next()?.parse().ok()?;
                    let c = it.next()?.parse().ok()?;
                    Some((d, c))
                })();
                case.counts.push(
                    parsed
                        .ok_or_else(|| format!("line {}: expected 'perft DEPTH COUNT'", n + 1))?,
                );
            }
            _ => return Err(format!("line {}: unknown key '{key}'", n + 1)),
        }
    }
    Ok(cases)
}

/// Checks every case of a perft data file against `G`, skipping counts above `node_limit`.
/// Returns the number of counts checked.
///
/// # Panics
/// On a wrong count (naming the case), or a case that cannot be set up.
pub fn check_cases<G: Game>(text: &str, node_limit: u64) -> usize {
    let cases = read_cases(text).expect("perft file parses");
    let mut checked = 0;
    for case in &cases {
        let options = G::info()
            .parse_options(&case.options)
            .unwrap_or_else(|e| panic!("case {}: {e}", case.name));
        let game: G = crate::game::setup(&options, 0, case.position.as_deref(), &case.moves)
            .unwrap_or_else(|e| panic!("case {}: {e}", case.name));
        for &(depth, expected) in &case.counts {
            if expected > node_limit {
                continue;
            }
            let got = perft(&game, depth);
            assert_eq!(
                got, expected,
                "perft({depth}) of case '{}' is {got}, expected {expected}",
                case.name
            );
            checked += 1;
        }
    }
    checked
}

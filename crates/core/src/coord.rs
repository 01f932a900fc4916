//! Square names shared by the grid games: file letter then rank number, `a1` at the first
//! player's left corner.

/// Parses a square name like `b3` or `C12` into zero-based (file, rank), checked against the
/// board size. Returns `None` for anything else.
#[must_use]
pub fn parse_square(text: &str, files: u8, ranks: u8) -> Option<(u8, u8)> {
    let b = text.as_bytes();
    let (&f, num) = b.split_first()?;
    let f = f.to_ascii_lowercase();
    if !f.is_ascii_lowercase() || num.is_empty() || num.len() > 3 {
        return None;
    }
    if !num.iter().all(u8::is_ascii_digit) || num[0] == b'0' {
        return None;
    }
    let rank: u32 = std::str::from_utf8(num).ok()?.parse().ok()?;
    let file = f - b'a';
    if file >= files || rank == 0 || rank > u32::from(ranks) {
        return None;
    }
    Some((file, (rank - 1) as u8))
}

/// The name of zero-based (file, rank): `(1, 2)` → `b3`.
#[must_use]
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_reject_junk() {
        assert_eq!(parse_square("b3", 4, 8), Some((1, 2)));
        assert_eq!(parse_square("D8", 4, 8), Some((3, 7)));
        assert_eq!(parse_square("k11", 11, 11), Some((10, 10)));
        for bad in ["", "e1", "a0", "a9", "a01", "3a", "aa", "a-1", "é1"] {
            assert_eq!(parse_square(bad, 4, 8), None, "{bad}");
        }
        assert_eq!(square_name(10, 10), "k11");
    }
}

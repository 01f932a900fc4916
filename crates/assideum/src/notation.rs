//! Move notation (see `docs/rules/assideum.md`).
//!
//! | turn | notation |
//! |---|---|
//! | step or slide | `b2-b3`, `a1-a5` |
//! | attack by a ground piece | `c1xc5` |
//! | spin in place | `b1>e` |
//! | step then spin | `b1-b2>w`, `d1xe2>s` |
//! | Portal move carrying optional Fighters | `b5-a5{e6}`, `e4>w{d6,e6}` |
//! | … carrying only some of a square's | `c3-c4{d5:1}` |
//! | Fighter flight | `fb1-b4` |
//! | Fighter flight with attack | `fb1xb4` |
//! | Fighter strike in place | `fb4x` |
//! | Ranger fire at flying Fighters / at a ground piece | `rd1*d3f`, `rd1*d4g` |
//!
//! In braces a square alone carries all of its optional Fighters (as it always has, so earlier
//! records read the same); `:n` carries only `n` of them, written when some stay.

use crate::board::{Carry, Facing, FireAt, Move, MAX_FIGHTERS_PER_SQUARE};
use crate::tables::Square;

/// The name of a square: `a1` … `h8`.
#[must_use]
pub fn square_name(s: Square) -> String {
    let mut out = String::with_capacity(2);
    push_square(&mut out, s);
    out
}

fn push_square(out: &mut String, s: Square) {
    out.push((b'a' + (s & 7)) as char);
    out.push((b'1' + (s >> 3)) as char);
}

/// Parses a square name (either case).
#[must_use]
pub fn parse_square(text: &str) -> Option<Square> {
    boardlab_core::coord::parse_square(text, 8, 8).map(|(f, r)| r * 8 + f)
}

/// The canonical (lower-case) notation of a move.
#[must_use]
pub fn format(mv: Move) -> String {
    let mut s = String::with_capacity(12);
    match mv {
        Move::Ground {
            from,
            to,
            attack,
            face,
            carry,
        } => {
            push_square(&mut s, from);
            if to != from {
                s.push(if attack { 'x' } else { '-' });
                push_square(&mut s, to);
            }
            if let Some(g) = face {
                s.push('>');
                s.push(g.letter());
            }
            if !carry.is_empty() {
                s.push('{');
                for (i, (q, count)) in carry.entries().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    push_square(&mut s, q);
                    if let Some(n) = count {
                        s.push(':');
                        s.push(char::from(b'0' + n));
                    }
                }
                s.push('}');
            }
        }
        Move::Fire { ranger, target, at } => {
            s.push('r');
            push_square(&mut s, ranger);
            s.push('*');
            push_square(&mut s, target);
            s.push(match at {
                FireAt::Fighters => 'f',
                FireAt::Ground => 'g',
            });
        }
        Move::Fly { from, to, attack } => {
            s.push('f');
            push_square(&mut s, from);
            s.push(if attack { 'x' } else { '-' });
            push_square(&mut s, to);
        }
        Move::Strike { square } => {
            s.push('f');
            push_square(&mut s, square);
            s.push('x');
        }
    }
    s
}

/// A tiny cursor over lower-case move text.
struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn square(&mut self, what: &str) -> Result<Square, String> {
        let rest = &self.text[self.pos..];
        if rest.len() >= 2 {
            if let Ok(t) = std::str::from_utf8(&rest[..2]) {
                if let Some(s) = parse_square(t) {
                    self.pos += 2;
                    return Ok(s);
                }
            }
        }
        let shown: String = String::from_utf8_lossy(&rest[..rest.len().min(2)]).into_owned();
        Err(if shown.is_empty() {
            format!("expected {what} (a square a1…h8) at the end")
        } else {
            format!("expected {what} (a square a1…h8), found '{shown}'")
        })
    }

    fn done(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn rest(&self) -> String {
        String::from_utf8_lossy(&self.text[self.pos..]).into_owned()
    }

    /// The carried optional Fighters after `{`, through the closing `}`: squares separated by
    /// `,`, each alone (all its Fighters) or with `:` and a count. A square named several times
    /// without a count stands for that many Fighters (`d5,d5` is `d5:2`).
    fn carry(&mut self) -> Result<Carry, String> {
        // (square, count written, times named), in the order written.
        let mut items: Vec<(Square, Option<u8>, u8)> = Vec::with_capacity(2);
        loop {
            let what = if items.is_empty() {
                "a carried Fighter's square after '{'"
            } else {
                "a carried Fighter's square after ','"
            };
            let q = self.square(what)?;
            let count = if self.eat(b':') {
                match self.peek() {
                    Some(d @ b'1'..=b'2') => {
                        self.pos += 1;
                        Some(d - b'0')
                    }
                    Some(b'0') => {
                        return Err(format!(
                            "'{}:0' carries nothing: leave the square out to leave its Fighters",
                            square_name(q)
                        ))
                    }
                    _ => {
                        return Err(format!(
                            "after '{}:' write how many of its Fighters go: 1 or 2",
                            square_name(q)
                        ))
                    }
                }
            } else {
                None
            };
            match items.iter_mut().find(|(s, _, _)| *s == q) {
                Some(item) if item.1.is_none() && count.is_none() => {
                    item.2 = item.2.saturating_add(1);
                }
                Some(_) => {
                    return Err(format!(
                        "square {} is named twice with a count; write it once, e.g. {}:1",
                        square_name(q),
                        square_name(q)
                    ))
                }
                None => items.push((q, count, 1)),
            }
            if self.eat(b'}') {
                break;
            }
            if !self.eat(b',') {
                return Err(
                    "the carried Fighters' squares are separated by ',' and closed by '}'".into(),
                );
            }
        }
        let mut carry = Carry::NONE;
        for (q, count, named) in items {
            let n = match (count, named) {
                (Some(n), _) => n,
                (None, 1) => Carry::ALL,
                (None, k) => k,
            };
            if n > MAX_FIGHTERS_PER_SQUARE {
                return Err(format!(
                    "square {} is named {named} times; at most two Fighters of a side stand on one square",
                    square_name(q)
                ));
            }
            carry = carry.with(q, n).ok_or(
                "the carried Fighters stand on at most two squares (each army has two Fighters)",
            )?;
        }
        Ok(carry)
    }
}

impl Cursor<'_> {
    /// A Fighter's move after its `f`: flight, flight with attack or strike in place.
    fn fighter_move(&mut self) -> Result<Move, String> {
        let from = self.square("the Fighter's square after 'f'")?;
        if self.eat(b'x') {
            if self.done() {
                return Ok(Move::Strike { square: from });
            }
            let to = self.square("the square attacked")?;
            Ok(Move::Fly {
                from,
                to,
                attack: true,
            })
        } else if self.eat(b'-') {
            let to = self.square("the square flown to")?;
            Ok(Move::Fly {
                from,
                to,
                attack: false,
            })
        } else {
            Err("after a Fighter's square write '-' and a square (flight), 'x' and a square (flight with attack), or 'x' alone (strike in place)".into())
        }
    }

    /// Ranger fire after its `r`.
    fn fire(&mut self) -> Result<Move, String> {
        let ranger = self.square("the Ranger's square after 'r'")?;
        if !self.eat(b'*') {
            return Err("Ranger fire is written r, the Ranger's square, '*', the target square and f (Fighters) or g (ground piece), e.g. rd1*d4g".into());
        }
        let target = self.square("the target square after '*'")?;
        let at = if self.eat(b'f') {
            FireAt::Fighters
        } else if self.eat(b'g') {
            FireAt::Ground
        } else {
            return Err("end Ranger fire with f (fire at the flying Fighters there) or g (fire at the ground piece)".into());
        };
        if target == ranger {
            return Err("a Ranger fires at another square".into());
        }
        Ok(Move::Fire { ranger, target, at })
    }

    /// A ground piece's move: step, slide or attack, spin, and carried Fighters.
    fn ground_move(&mut self) -> Result<Move, String> {
        let from = self.square("the moving piece's square")?;
        let mut to = from;
        let mut attack = false;
        if self.eat(b'-') {
            to = self.square("the destination square after '-'")?;
        } else if self.eat(b'x') {
            to = self.square("the attacked square after 'x'")?;
            attack = true;
        }
        if to == from && (attack || self.pos > 2) {
            return Err(
                "a step needs two different squares (write a spin in place as b1>e)".into(),
            );
        }
        let mut face = None;
        if self.eat(b'>') {
            let letter = self.peek().map(char::from);
            face = Some(
                letter
                    .and_then(Facing::from_letter)
                    .ok_or("after '>' write the new facing: n, e, s or w")?,
            );
            self.pos += 1;
        }
        if to == from && face.is_none() {
            return Err("after a square write '-' or 'x' and a square (move, attack) or '>' and a facing (spin)".into());
        }
        let carry = if self.eat(b'{') {
            self.carry()?
        } else {
            Carry::NONE
        };
        Ok(Move::Ground {
            from,
            to,
            attack,
            face,
            carry,
        })
    }
}

/// Reads move text (case-insensitive, surrounding white space ignored). Syntax only.
///
/// # Errors
/// A description of what is wrong and what was expected.
pub fn parse(text: &str) -> Result<Move, String> {
    let lower = text.trim().to_ascii_lowercase();
    if lower.is_empty() {
        return Err("empty move".into());
    }
    if !lower.is_ascii() {
        return Err("moves use only letters, digits and the signs - x > { } , *".into());
    }
    let bytes = lower.as_bytes();
    let mut c = Cursor {
        text: bytes,
        pos: 0,
    };
    let second_is_letter = bytes.len() > 1 && bytes[1].is_ascii_alphabetic();
    let mv = if second_is_letter && bytes[0] == b'f' {
        c.pos = 1;
        c.fighter_move()?
    } else if second_is_letter && bytes[0] == b'r' {
        c.pos = 1;
        c.fire()?
    } else {
        c.ground_move()?
    };
    if !c.done() {
        return Err(format!("unexpected '{}' at the end", c.rest()));
    }
    if let Move::Fly { from, to, .. } = mv {
        if from == to {
            return Err(
                "a flight needs two different squares (a strike in place is written like fb4x)"
                    .into(),
            );
        }
    }
    Ok(mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_round_trips() {
        for t in [
            "b2-b3",
            "c1xc5",
            "b1>e",
            "b1-b2>w",
            "d1xe2>s",
            "b5-a5{e6}",
            "e4>w{d6,e6}",
            "c3-c4{d5:1}",
            "e4>w{d6:1,e6}",
            "fb1-b4",
            "fb1xb4",
            "fb4x",
            "rd1*d3f",
            "rd1*d4g",
            "f1-f2",
            "h1xh8",
        ] {
            let m = parse(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(format(m), t);
            assert_eq!(parse(&t.to_uppercase()), Ok(m));
        }
        assert_eq!(format(parse("b5-a5{E6}").unwrap()), "b5-a5{e6}");
        assert_eq!(format(parse(" e4>W{e6,d6} ").unwrap()), "e4>w{d6,e6}");
        // Naming a square once per Fighter is read as a count (the game makes it "all" where
        // the square holds exactly that many).
        assert_eq!(format(parse("c3-c4{d5,d5}").unwrap()), "c3-c4{d5:2}");
        assert_eq!(parse("c3-c4{d5,d5}"), parse("c3-c4{d5:2}"));
        assert_ne!(parse("c3-c4{d5}"), parse("c3-c4{d5:2}"));
    }

    #[test]
    fn malformed_text_is_rejected_with_a_reason() {
        for t in [
            "",
            "b2",
            "b2-",
            "b2-b2",
            "b2xb2",
            "b2>q",
            "b2-b3{",
            "b2-b3{}",
            "b2-b3{e6,}",
            "b2-b3{e6:}",
            "b2-b3{e6:0}",
            "b2-b3{e6:3}",
            "b2-b3{e6,e6,e6}",
            "b2-b3{e6:1,e6}",
            "b2-b3{e6,e6:1}",
            "b2-b3{e6;e7}",
            "b2-b3{a1,b1,c1}",
            "b2-b3{a1:1,b1:1,c1:1}",
            "fb2",
            "fb2-",
            "fb2-b2",
            "fb2xb2",
            "rd1*d4",
            "rd1-d4",
            "z9-a1",
            "b2-b3 extra",
            "é1",
            "rd1*d1g",
        ] {
            assert!(parse(t).is_err(), "{t} should not parse");
        }
    }
}

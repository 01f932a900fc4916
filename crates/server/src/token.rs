//! Seat tokens: 128-bit random secrets, stored only as SHA-256 digests and compared in
//! constant time.

use rand::{RngCore, TryRngCore};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A SHA-256 digest of a token: what the database and the cache keep.
pub type TokenHash = [u8; 32];

/// A fresh token: 16 bytes from the operating system's generator, as 32 lower-case hex digits.
#[must_use]
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    if rand::rngs::OsRng.try_fill_bytes(&mut bytes).is_err() {
        // The thread generator is a CSPRNG seeded from the operating system too.
        rand::rng().fill_bytes(&mut bytes);
    }
    to_hex(&bytes)
}

/// The digest of `token`.
#[must_use]
pub fn hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `presented` is the token whose digest is `stored`. The digests are compared in
/// constant time, so the time taken says nothing about how much of the token was right.
#[must_use]
pub fn matches(presented: &str, stored: &TokenHash) -> bool {
    hash(presented).ct_eq(stored).into()
}

/// Lower-case hex.
#[must_use]
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// The secret (32 hex digits, as [`new_token`] makes) that a request's cookie `name` carries.
#[must_use]
pub fn secret_cookie(headers: &axum::http::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_string())
        .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A digest read back from its hex form (`None` if the text is not 64 hex digits).
#[must_use]
pub fn hash_from_hex(text: &str) -> Option<TokenHash> {
    let b = text.as_bytes();
    if b.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let hi = (pair[0] as char).to_digit(16)?;
        let lo = (pair[1] as char).to_digit(16)?;
        out[i] = u8::try_from(hi * 16 + lo).ok()?;
    }
    Some(out)
}

/// A game's id: 16 lower-case hex digits from the operating system's generator.
#[must_use]
pub fn new_game_id() -> String {
    let t = new_token();
    t[..16].to_string()
}

/// Whether `id` could be a game id (anything else is answered 404 without a lookup).
#[must_use]
pub fn valid_game_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_distinct() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 32);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }

    #[test]
    fn digests_match_only_the_right_token() {
        let t = new_token();
        let h = hash(&t);
        assert!(matches(&t, &h));
        assert!(!matches(&t[..31], &h));
        assert!(!matches("", &h));
        assert!(!matches(&t.to_uppercase(), &h));
        assert_eq!(hash_from_hex(&to_hex(&h)), Some(h));
        assert_eq!(hash_from_hex("zz"), None);
    }
}

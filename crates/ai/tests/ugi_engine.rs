//! The UGI engine served on any reader and writer.

use boardlab_ai::ugi::engine::serve;
use boardlab_games::GameKind;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// An output the test reads back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_engine_serves_any_reader_and_writer() {
    let out = Shared::default();
    let script = "ugi\nisready\nbogus\nuginewgame\ngo nodes 200\nquit\n";
    let kind: GameKind = "sight-reduction".parse().unwrap();
    let games: Vec<_> = GameKind::all().iter().map(|k| k.ugi()).collect();
    serve(
        &games,
        Some(kind.ugi()),
        &mut script.as_bytes(),
        Box::new(out.clone()),
    )
    .unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"ugiok"), "{text}");
    assert!(lines.contains(&"readyok"), "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: unknown command 'bogus'")),
        "{text}"
    );
    assert!(
        lines
            .last()
            .is_some_and(|l| l.starts_with("bestmove ") && *l != "bestmove none"),
        "{text}"
    );
}

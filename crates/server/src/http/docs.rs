//! The reference pages: each game's rules and the findings pages, Markdown embedded at compile
//! time (or read from the source tree with `--dev`), rendered to HTML with their figures
//! drawn as boards.

use std::borrow::Cow;
use std::path::PathBuf;

mod rules {
    include!(concat!(env!("OUT_DIR"), "/rules_files.rs"));
}

mod analysis {
    include!(concat!(env!("OUT_DIR"), "/analysis_files.rs"));
}

/// The rules page of `game` (Markdown), if there is one.
#[must_use]
pub fn rules_page(game: &str) -> Option<&'static [u8]> {
    embedded_rules_file(&format!("{game}.md"))
}

/// A figure of the rules pages (`docs/rules/figures/NAME.svg`), by file name.
#[must_use]
pub fn rules_figure(name: &str) -> Option<&'static [u8]> {
    embedded_rules_file(&format!("figures/{name}"))
}

/// The paths of the rules files built into the binary (`GAME.md`, `figures/NAME.svg`).
pub fn rules_paths() -> impl Iterator<Item = &'static str> {
    rules::FILES.iter().map(|(p, _)| *p)
}

/// The paths of the findings files built into the binary (`GAME.md`, `DIR/report.md`, charts).
pub fn analysis_paths() -> impl Iterator<Item = &'static str> {
    analysis::FILES.iter().map(|(p, _)| *p)
}

/// The copy built into the binary of `docs/rules/PATH`.
fn embedded_rules_file(path: &str) -> Option<&'static [u8]> {
    rules::FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, b)| *b)
}

/// A file of the rules pages (`GAME.md`, `figures/NAME.svg`): with `web_dir` (`--dev`, the
/// source tree's `web/`) read from the source tree's `docs/rules/` on every request, else the
/// copy built into the binary.
#[must_use]
pub fn rules_file(web_dir: Option<&PathBuf>, path: &str) -> Option<Cow<'static, [u8]>> {
    if path
        .split('/')
        .any(|seg| seg.is_empty() || seg.starts_with('.'))
    {
        return None;
    }
    match web_dir {
        Some(dir) => std::fs::read(dir.join("../docs/rules").join(path))
            .ok()
            .map(Cow::Owned),
        None => embedded_rules_file(path).map(Cow::Borrowed),
    }
}

/// A file of the designer findings (`PAGE.md`, `GAME/charts/NAME.svg`, `NAME.svg`): with
/// `web_dir` (`--dev`) read from the source tree's `docs/analysis/`, else the copy built into
/// the binary.
#[must_use]
pub fn analysis_file(web_dir: Option<&PathBuf>, path: &str) -> Option<Cow<'static, [u8]>> {
    if path
        .split('/')
        .any(|seg| seg.is_empty() || seg.starts_with('.') || seg.contains('\\'))
    {
        return None;
    }
    match web_dir {
        Some(dir) => std::fs::read(dir.join("../docs/analysis").join(path))
            .ok()
            .map(Cow::Owned),
        None => analysis::FILES
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, b)| Cow::Borrowed(*b)),
    }
}

/// The rules page of `game` as HTML (tables, footnotes and strikethrough as on GitHub). A link
/// to a sibling rules page goes to the app's page for it; other relative links, which lead into
/// the source tree, keep only their text. Each figure — a `boardlab-figure` block with the image
/// line before it — becomes one `<figure>` (see [`figure`]).
#[must_use]
pub fn rules_html(game: &str) -> Option<String> {
    markdown_html(std::str::from_utf8(rules_page(game)?).ok()?).into()
}

/// A rules page's Markdown as HTML (see [`rules_html`]).
#[must_use]
pub fn markdown_html(text: &str) -> String {
    markdown_html_in(text, "/rules")
}

/// Markdown of the pages under `pages` (`/rules`, `/findings`) as HTML: a link to a sibling
/// page `NAME.md` goes to `{pages}/NAME`; see [`rules_html`].
#[must_use]
pub fn markdown_html_in(text: &str, pages: &str) -> String {
    use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut dropped = 0usize;
    let events = Parser::new_ext(text, options).filter_map(|event| match event {
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest: &str = &dest_url;
            let outside = dest.starts_with("http://")
                || dest.starts_with("https://")
                || dest.starts_with('/')
                || dest.starts_with('#');
            if outside {
                return Some(Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }));
            }
            let (path, anchor) = dest.split_once('#').unwrap_or((dest, ""));
            if let Some(to) = report_link(path, pages) {
                return Some(Event::Start(Tag::Link {
                    link_type,
                    dest_url: CowStr::from(to),
                    title,
                    id,
                }));
            }
            match path.strip_suffix(".md").filter(|p| !p.contains('/')) {
                Some(page) => {
                    let to = if anchor.is_empty() {
                        format!("{pages}/{page}")
                    } else {
                        format!("{pages}/{page}#{anchor}")
                    };
                    Some(Event::Start(Tag::Link {
                        link_type,
                        dest_url: CowStr::from(to),
                        title,
                        id,
                    }))
                }
                None => {
                    dropped += 1;
                    None
                }
            }
        }
        Event::End(TagEnd::Link) if dropped > 0 => {
            dropped -= 1;
            None
        }
        other => Some(other),
    });
    let events = figure::merge(events.collect());
    let mut out = String::with_capacity(text.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    out
}

/// Where a findings page's link to a full report goes: `DIR/report.md` to the app's page of
/// it, `/findings/DIR/report`, and `DIR/report.json` to the numbers, served at
/// `/findings/DIR/report.json`. None for any other link, and on pages other than the findings.
fn report_link(path: &str, pages: &str) -> Option<String> {
    if pages != "/findings" {
        return None;
    }
    let (dir, file) = path.split_once('/')?;
    let dir_ok = !dir.is_empty()
        && dir
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    match file {
        "report.md" if dir_ok => Some(format!("{pages}/{dir}/report")),
        "report.json" if dir_ok => Some(format!("{pages}/{dir}/report.json")),
        _ => None,
    }
}

pub mod figure {
    //! The figures of the rules pages. In the Markdown a figure is an image line naming its
    //! picture, `![words](figures/NAME.svg)`, followed by a fenced block with the info string
    //! `boardlab-figure` that says what the picture shows, one `key: value` a line (a line that
    //! starts with a space continues the one before):
    //!
    //! - `game`: the game (required); `options` (`key=value,…`), `seed`, `position`, `moves`
    //!   (in notation, as `boardlab --moves` takes them): the position, as
    //!   `POST /api/positions` takes it;
    //! - `focus`: cells to highlight; `yes`: cells marked as allowed (a ring on a piece, a dot
    //!   on an empty cell); `no`: cells crossed out; `arrows`: `FROM-TO` pairs; `numbers`:
    //!   `CELL=TEXT` badges; `zones`: flight zones to show (`white`, `black`, `both`, or a
    //!   colour and a Portal's square: `white b5`); `last`: `true` to mark the last move;
    //! - `caption`: the caption (Markdown).
    //!
    //! On GitHub the image shows the committed picture (made from the block by
    //! `web/tests/figures.mjs`) and the block shows as text; the app merges both into one
    //! `<figure>` whose `data-figure` the rules page draws live with the board renderer, keeping
    //! the picture (served at `/rules/figures/NAME.svg`) as its fallback.

    use boardlab_games::GameKind;
    use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};
    use serde::Serialize;
    use std::collections::BTreeMap;

    /// The info string of a figure block.
    pub const INFO: &str = "boardlab-figure";

    /// What a figure shows.
    #[derive(Clone, Debug, Default, PartialEq, Serialize)]
    pub struct Figure {
        pub game: String,
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        pub options: BTreeMap<String, String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub seed: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub position: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub moves: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub focus: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub yes: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub no: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub arrows: Vec<[String; 2]>,
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        pub numbers: BTreeMap<String, String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub zones: Option<FlightZones>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        pub last: bool,
        #[serde(skip)]
        pub caption: String,
    }

    /// Flight zones to show: all of a colour's (or both colours'), or one Portal's own zone.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    #[serde(untagged)]
    pub enum FlightZones {
        All(String),
        Portal { colour: String, portal: String },
    }

    impl Figure {
        /// Every cell the figure marks.
        #[must_use]
        pub fn marked_cells(&self) -> Vec<&str> {
            let mut out: Vec<&str> = Vec::new();
            for list in [&self.focus, &self.yes, &self.no] {
                out.extend(list.iter().map(String::as_str));
            }
            out.extend(self.arrows.iter().flatten().map(String::as_str));
            out.extend(self.numbers.keys().map(String::as_str));
            if let Some(FlightZones::Portal { portal, .. }) = &self.zones {
                out.push(portal);
            }
            out
        }
    }

    fn cells(value: &str) -> Vec<String> {
        value
            .split([' ', ','])
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    }

    /// Reads a figure block.
    ///
    /// # Errors
    /// What is wrong with it, in words.
    pub fn parse(text: &str) -> Result<Figure, String> {
        let mut lines: Vec<(String, String)> = Vec::new();
        for line in text.lines() {
            if line.trim().is_empty() {
                continue;
            }
            if line.starts_with([' ', '\t']) {
                let Some(last) = lines.last_mut() else {
                    return Err(format!("'{}' continues no line", line.trim()));
                };
                last.1.push(' ');
                last.1.push_str(line.trim());
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(format!("'{line}' is not 'key: value'"));
            };
            lines.push((key.trim().to_string(), value.trim().to_string()));
        }
        let mut f = Figure::default();
        let mut moves = None;
        for (key, value) in lines {
            match key.as_str() {
                "game" => f.game = value,
                "options" => {
                    // `key=value,…`; a part without `=` belongs to the value before it
                    // (`keep=b2,c7`).
                    let mut last: Option<String> = None;
                    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                        if let Some((k, v)) = part.split_once('=') {
                            let k = k.trim().to_string();
                            f.options.insert(k.clone(), v.trim().to_string());
                            last = Some(k);
                        } else if let Some(v) = last.as_ref().and_then(|k| f.options.get_mut(k)) {
                            v.push(',');
                            v.push_str(part);
                        } else {
                            return Err(format!("option '{part}' is not key=value"));
                        }
                    }
                }
                "seed" => {
                    f.seed = Some(
                        value
                            .parse()
                            .map_err(|_| format!("seed '{value}' is not a whole number"))?,
                    );
                }
                "position" => f.position = Some(value),
                "moves" => moves = Some(value),
                "focus" => f.focus = cells(&value),
                "yes" => f.yes = cells(&value),
                "no" => f.no = cells(&value),
                "arrows" => {
                    for pair in cells(&value) {
                        let Some((a, b)) = pair.split_once('-') else {
                            return Err(format!("arrow '{pair}' is not FROM-TO"));
                        };
                        f.arrows.push([a.to_string(), b.to_string()]);
                    }
                }
                "numbers" => {
                    for pair in value.split([' ', ',']).filter(|p| !p.is_empty()) {
                        let Some((cell, label)) = pair.split_once('=') else {
                            return Err(format!("number '{pair}' is not CELL=TEXT"));
                        };
                        f.numbers
                            .insert(cell.to_ascii_lowercase(), label.to_string());
                    }
                }
                "zones" => {
                    let words: Vec<&str> = value.split_whitespace().collect();
                    f.zones = Some(match words.as_slice() {
                        [w @ ("white" | "black" | "both")] => FlightZones::All((*w).to_string()),
                        [c @ ("white" | "black"), portal] => FlightZones::Portal {
                            colour: (*c).to_string(),
                            portal: portal.to_ascii_lowercase(),
                        },
                        _ => {
                            return Err(format!(
                                "zones '{value}': accepted: white, black, both, or a colour \
                                 and a Portal's square"
                            ))
                        }
                    });
                }
                "last" => {
                    f.last = match value.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => return Err(format!("last '{value}': accepted: true, false")),
                    }
                }
                "caption" => f.caption = value,
                _ => {
                    return Err(format!(
                        "unknown key '{key}'; accepted: game, options, seed, position, moves, \
                         focus, yes, no, arrows, numbers, zones, last, caption"
                    ))
                }
            }
        }
        let kind: GameKind = f.game.parse().map_err(|e| format!("{e}"))?;
        if let Some(m) = moves {
            f.moves = boardlab_core::split_moves(&m, kind.info().multi_word_moves);
        }
        if f.caption.is_empty() {
            return Err("a figure needs a caption".to_string());
        }
        Ok(f)
    }

    /// The picture named by a figure's image line: `figures/NAME.svg` gives `NAME.svg`.
    #[must_use]
    pub fn picture_name(src: &str) -> Option<&str> {
        src.strip_prefix("figures/")
            .filter(|n| n.ends_with(".svg") && !n.contains('/') && n.len() > 4)
    }

    fn escape(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\'' => out.push_str("&#39;"),
                c => out.push(c),
            }
        }
        out
    }

    /// A caption's Markdown as inline HTML.
    fn caption_html(caption: &str) -> String {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, pulldown_cmark::Parser::new(caption));
        let out = out.trim();
        out.strip_prefix("<p>")
            .and_then(|o| o.strip_suffix("</p>"))
            .unwrap_or(out)
            .to_string()
    }

    /// The HTML of a figure with its picture (`name`, `alt`) if it has one.
    #[must_use]
    pub fn html(figure: &Figure, picture: Option<(&str, &str)>) -> String {
        let data = serde_json::to_string(figure).expect("a figure serialises");
        let mut out = String::from("<figure class=\"board-figure\"");
        if let Some((name, _)) = picture {
            let stem = name.strip_suffix(".svg").unwrap_or(name);
            out.push_str(&format!(
                " id=\"figure-{}\" data-name=\"{}\"",
                escape(stem),
                escape(stem)
            ));
        }
        out.push_str(&format!(
            " data-game=\"{}\" data-figure=\"{}\">",
            escape(&figure.game),
            escape(&data)
        ));
        if let Some((name, alt)) = picture {
            out.push_str(&format!(
                "<img class=\"figure-picture\" src=\"/rules/figures/{}\" alt=\"{}\" loading=\"lazy\">",
                escape(name),
                escape(alt)
            ));
        }
        out.push_str(&format!(
            "<figcaption>{}</figcaption></figure>\n",
            caption_html(&figure.caption)
        ));
        out
    }

    /// An image alone in a paragraph at `i`: its `src`, alt text and the index after it.
    fn lone_image(events: &[Event<'_>], i: usize) -> Option<(String, String, usize)> {
        let (Event::Start(Tag::Paragraph), Event::Start(Tag::Image { dest_url, .. })) =
            (events.get(i)?, events.get(i + 1)?)
        else {
            return None;
        };
        let mut alt = String::new();
        let mut j = i + 2;
        loop {
            match events.get(j)? {
                Event::End(TagEnd::Image) => break,
                Event::Text(t) | Event::Code(t) => alt.push_str(t),
                _ => {}
            }
            j += 1;
        }
        matches!(events.get(j + 1)?, Event::End(TagEnd::Paragraph))
            .then(|| (dest_url.to_string(), alt, j + 2))
    }

    /// A figure block at `i`: its text and the index after it.
    fn block(events: &[Event<'_>], i: usize) -> Option<(String, usize)> {
        let Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) = events.get(i)? else {
            return None;
        };
        if info.trim() != INFO {
            return None;
        }
        let mut text = String::new();
        let mut j = i + 1;
        loop {
            match events.get(j)? {
                Event::End(TagEnd::CodeBlock) => return Some((text, j + 1)),
                Event::Text(t) => text.push_str(t),
                _ => {}
            }
            j += 1;
        }
    }

    /// Every figure of a page's Markdown: its picture's name (from the image line before the
    /// block, if any) and what the block says.
    #[must_use]
    pub fn all(markdown: &str) -> Vec<(Option<String>, Result<Figure, String>)> {
        let events: Vec<Event<'_>> = pulldown_cmark::Parser::new(markdown).collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < events.len() {
            if let Some((src, _, next)) = lone_image(&events, i) {
                if let Some((text, after)) = block(&events, next) {
                    out.push((picture_name(&src).map(str::to_string), parse(&text)));
                    i = after;
                    continue;
                }
            }
            if let Some((text, after)) = block(&events, i) {
                out.push((None, parse(&text)));
                i = after;
                continue;
            }
            i += 1;
        }
        out
    }

    /// Replaces each figure (an image line of `figures/NAME.svg` followed by a figure block,
    /// or a figure block alone) by its `<figure>`. A block that cannot be read is shown as it
    /// is, with what is wrong.
    #[must_use]
    pub fn merge(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
        let mut out = Vec::with_capacity(events.len());
        let mut i = 0;
        while i < events.len() {
            let image = lone_image(&events, i)
                .and_then(|(src, alt, next)| {
                    picture_name(&src).map(|name| (name.to_string(), alt, next))
                })
                .and_then(|(name, alt, next)| {
                    block(&events, next).map(|(text, after)| (Some((name, alt)), text, after))
                });
            let found = image.or_else(|| block(&events, i).map(|(t, after)| (None, t, after)));
            let Some((picture, text, after)) = found else {
                out.push(events[i].clone());
                i += 1;
                continue;
            };
            let html = match parse(&text) {
                Ok(f) => html(&f, picture.as_ref().map(|(n, a)| (n.as_str(), a.as_str()))),
                Err(e) => format!(
                    "<pre class=\"figure-error\">figure: {}\n{}</pre>\n",
                    escape(&e),
                    escape(&text)
                ),
            };
            out.push(Event::Html(html.into()));
            i = after;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::rules_html;

    #[test]
    fn rules_pages_render_tables_and_keep_no_links_into_the_source_tree() {
        for game in ["sight-reduction", "obsidio", "opprimo", "assideum"] {
            let html = rules_html(game).expect("a rules page");
            assert!(html.contains("<h1"), "{game}");
            assert!(html.contains("<table>"), "{game}: no table rendered");
            assert!(
                !html.contains(".md\""),
                "{game}: a link into the source tree"
            );
        }
        assert!(rules_html("chess").is_none());
    }

    /// Every figure of every rules page: it has its picture, under a name no other figure
    /// uses, in `docs/rules/figures/`; it shows a position of its page's game that the rules
    /// allow; every cell it marks is on that board; and the app's page draws it as one figure
    /// without the picture line or the block text besides.
    #[test]
    fn rules_figures_show_legal_positions_with_their_pictures() {
        use super::figure::{all, FlightZones};
        use boardlab_games::{AnyGame, GameKind};
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules/figures");
        let mut names = std::collections::BTreeSet::new();
        for kind in GameKind::all() {
            let game = kind.name();
            let md = std::str::from_utf8(super::rules_page(game).unwrap()).unwrap();
            let figures = all(md);
            assert!(figures.len() >= 4, "{game}: only {} figures", figures.len());
            for (i, (picture, figure)) in figures.into_iter().enumerate() {
                let f = figure.unwrap_or_else(|e| panic!("{game} figure {}: {e}", i + 1));
                let picture = picture.unwrap_or_else(|| {
                    panic!(
                        "{game} figure {}: no image line figures/NAME.svg before it",
                        i + 1
                    )
                });
                assert!(names.insert(picture.clone()), "{picture} is used twice");
                assert_eq!(f.game, game, "{picture}: a figure of another game");
                let options = kind
                    .info()
                    .options_from_pairs(f.options.iter())
                    .unwrap_or_else(|e| panic!("{picture}: {e}"));
                let mut g = match &f.position {
                    Some(p) => AnyGame::from_position(*kind, &options, p),
                    None => AnyGame::new(*kind, &options, f.seed.unwrap_or(0)),
                }
                .unwrap_or_else(|e| panic!("{picture}: {e}"));
                for m in &f.moves {
                    g.play_text(m).unwrap_or_else(|e| panic!("{picture}: {e}"));
                }
                let board = g.board();
                for cell in f.marked_cells() {
                    assert!(board.cell(cell).is_some(), "{picture}: no cell {cell}");
                }
                if let Some(FlightZones::All(z)) = &f.zones {
                    assert!(
                        ["white", "black", "both"].contains(&z.as_str()),
                        "{picture}"
                    );
                }
                assert!(
                    dir.join(&picture).is_file(),
                    "{picture} is missing: run node web/tests/figures.mjs"
                );
            }
            let html = rules_html(game).unwrap();
            assert!(
                !html.contains("boardlab-figure"),
                "{game}: a block shown as text"
            );
            assert!(
                !html.contains("src=\"figures/"),
                "{game}: a picture outside its figure"
            );
            assert!(
                !html.contains("figure-error"),
                "{game}: a figure that cannot be read"
            );
        }
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                names.contains(&name),
                "docs/rules/figures/{name} belongs to no figure"
            );
        }
    }

    #[test]
    fn a_figure_block_becomes_one_figure_with_its_picture_and_caption() {
        let md = "Text.\n\n![Line of sight](figures/x.svg)\n\n```boardlab-figure\ngame: sight-reduction\nseed: 4\nmoves: a1 b1\nyes: B2 d4\nno: b8\narrows: b2-b4\nnumbers: a1=1\ncaption: White may remove `b2`:\n  it sees *b4*.\n```\n\nAfter.\n";
        let events = super::figure::merge(pulldown_cmark::Parser::new(md).collect());
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, events.into_iter());
        assert_eq!(html.matches("<figure").count(), 1, "{html}");
        assert!(html.contains("id=\"figure-x\" data-name=\"x\""), "{html}");
        assert!(
            html.contains("src=\"/rules/figures/x.svg\" alt=\"Line of sight\""),
            "{html}"
        );
        assert!(
            html.contains(
                "<figcaption>White may remove <code>b2</code>: it sees <em>b4</em>.</figcaption>"
            ),
            "{html}"
        );
        assert!(
            html.contains("&quot;moves&quot;:[&quot;a1&quot;,&quot;b1&quot;]"),
            "{html}"
        );
        assert!(
            html.contains("&quot;yes&quot;:[&quot;b2&quot;,&quot;d4&quot;]"),
            "{html}"
        );
        assert!(
            html.contains("&quot;arrows&quot;:[[&quot;b2&quot;,&quot;b4&quot;]]"),
            "{html}"
        );
        assert!(!html.contains("<pre"), "{html}");
        assert!(html.starts_with("<p>Text.</p>") && html.trim_end().ends_with("<p>After.</p>"));
        let bad = "```boardlab-figure\ngame: chess\ncaption: x\n```\n";
        let events = super::figure::merge(pulldown_cmark::Parser::new(bad).collect());
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, events.into_iter());
        assert!(
            html.contains("figure-error") && html.contains("chess"),
            "{html}"
        );
    }
}

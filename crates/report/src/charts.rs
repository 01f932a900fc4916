//! The charts of a report, drawn as SVG by `plotters`.

use crate::metrics::PlyBand;
use crate::summary::{Histogram, SetReport, SkillStep};
use plotters::prelude::*;

/// Chart size in pixels.
const SIZE: (u32, u32) = (640, 360);
const FONT: &str = "sans-serif";

/// The report's colours: the Okabe–Ito palette, distinguishable with the common colour-vision
/// deficiencies.
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
];
const GREY: RGBColor = RGBColor(120, 120, 120);

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

type Drawn = Result<(), String>;

/// The label of category `x` on an axis whose categories sit at 0, 1, 2, …; none between them.
fn category(labels: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 {
        labels.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

fn fail<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// Draws with `f` onto an SVG of [`SIZE`] and returns its text.
fn svg(f: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Drawn) -> String {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(fail)
            .and_then(|()| f(&root))
            .and_then(|()| root.present().map_err(fail));
        if let Err(e) = drawn {
            return format!("<!-- chart not drawn: {e} -->");
        }
    }
    text
}

/// One value per category with its interval, as bars with error bars.
#[derive(Clone, Debug)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// Bars for `bars` (one per category), `y_label` on the axis, from 0 to the largest high end
/// (or `y_max`).
#[must_use]
pub fn bars(title: &str, y_label: &str, bars: &[Bar], y_max: Option<f64>) -> String {
    svg(|root| {
        let top = y_max.unwrap_or_else(|| {
            bars.iter()
                .map(|b| b.high.max(b.value))
                .fold(0.0, f64::max)
                .max(1e-9)
                * 1.1
        });
        let n = bars.len().max(1) as f64;
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 18))
            .margin(12)
            .x_label_area_size(if n > 4.0 { 70 } else { 36 })
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5..n - 0.5, 0.0..top)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(bars.len().max(1))
            .x_label_formatter(&|x| category(&labels, *x))
            .y_desc(y_label)
            .draw()
            .map_err(fail)?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let x = i as f64;
                Rectangle::new([(x - 0.3, 0.0), (x + 0.3, b.value)], colour(i).filled())
            }))
            .map_err(fail)?;
        chart
            .draw_series(
                bars.iter()
                    .enumerate()
                    .filter(|(_, b)| b.high > b.low)
                    .map(|(i, b)| {
                        ErrorBar::new_vertical(i as f64, b.low, b.value, b.high, BLACK, 10)
                    }),
            )
            .map_err(fail)?;
        Ok(())
    })
}

/// Who wins, per option set: the first seat's wins, draws and the second seat's wins as
/// shares of finished games, with 95% intervals.
#[must_use]
pub fn outcomes(sets: &[SetReport]) -> String {
    svg(|root| {
        let n = sets.len().max(1) as f64;
        let labels: Vec<String> = sets.iter().map(|s| s.label.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption("Who wins (share of finished games)", (FONT, 18))
            .margin(12)
            .x_label_area_size(if n > 4.0 { 70 } else { 36 })
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5..n - 0.5, 0.0..1.0)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(sets.len().max(1))
            .x_label_formatter(&|x| category(&labels, *x))
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .y_desc("share")
            .draw()
            .map_err(fail)?;
        let kinds = [
            ("first player wins", 0),
            ("draw", 1),
            ("second player wins", 2),
        ];
        for (name, k) in kinds {
            let c = [colour(0), GREY, colour(1)][k];
            let off = (k as f64 - 1.0) * 0.26;
            let share = |s: &SetReport| [s.first_wins, s.draws, s.second_wins][k];
            chart
                .draw_series(sets.iter().enumerate().map(|(i, s)| {
                    let x = i as f64 + off;
                    Rectangle::new([(x - 0.12, 0.0), (x + 0.12, share(s).share)], c.filled())
                }))
                .map_err(fail)?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled()));
            chart
                .draw_series(sets.iter().enumerate().map(|(i, s)| {
                    let v = share(s);
                    ErrorBar::new_vertical(i as f64 + off, v.low, v.share, v.high, BLACK, 6)
                }))
                .map_err(fail)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(fail)?;
        Ok(())
    })
}

/// Game lengths of one option set as a histogram.
#[must_use]
pub fn lengths(label: &str, h: &Histogram) -> String {
    svg(|root| {
        let top = f64::from(h.counts.iter().copied().max().unwrap_or(0)).max(1.0) * 1.1;
        let hi = h.low + h.width * h.counts.len() as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(format!("Game length, {label}"), (FONT, 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(h.low..hi.max(h.low + 1.0), 0.0..top)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .x_desc("plies")
            .y_desc("games")
            .draw()
            .map_err(fail)?;
        chart
            .draw_series(h.counts.iter().enumerate().map(|(i, &c)| {
                let x = h.low + h.width * i as f64;
                Rectangle::new([(x, 0.0), (x + h.width, f64::from(c))], colour(0).filled())
            }))
            .map_err(fail)?;
        Ok(())
    })
}

/// The number of legal moves by ply: median line and 10–90% band, per option set.
#[must_use]
pub fn branching(series: &[(&str, &[PlyBand])]) -> String {
    svg(|root| {
        let last = series
            .iter()
            .filter_map(|(_, b)| b.last().map(|p| p.ply))
            .max()
            .unwrap_or(1)
            .max(1);
        let top = series
            .iter()
            .flat_map(|(_, b)| b.iter().map(|p| p.p90))
            .fold(1.0, f64::max)
            * 1.1;
        let mut chart = ChartBuilder::on(root)
            .caption("Moves to choose from, by ply (median, 10–90%)", (FONT, 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..f64::from(last), 0.0..top)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .x_desc("ply")
            .y_desc("legal moves")
            .draw()
            .map_err(fail)?;
        for (i, (label, bands)) in series.iter().enumerate() {
            let c = colour(i);
            let mut outline: Vec<(f64, f64)> =
                bands.iter().map(|p| (f64::from(p.ply), p.p90)).collect();
            outline.extend(bands.iter().rev().map(|p| (f64::from(p.ply), p.p10)));
            chart
                .draw_series(std::iter::once(Polygon::new(outline, c.mix(0.18).filled())))
                .map_err(fail)?;
            chart
                .draw_series(LineSeries::new(
                    bands.iter().map(|p| (f64::from(p.ply), p.median)),
                    c.stroke_width(2),
                ))
                .map_err(fail)?
                .label(*label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                });
        }
        if series.len() > 1 {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()
                .map_err(fail)?;
        }
        Ok(())
    })
}

/// The skill trace: per option set, the stronger bot's score at each step, with intervals;
/// 50% means the doubled budget no longer helps.
#[must_use]
pub fn skill(series: &[(&str, &[SkillStep])]) -> String {
    svg(|root| {
        let steps = series
            .iter()
            .map(|(_, s)| s.len())
            .max()
            .unwrap_or(1)
            .max(1);
        let labels: Vec<String> = series
            .iter()
            .find(|(_, s)| s.len() == steps)
            .map(|(_, s)| s.iter().map(|p| p.stronger.clone()).collect())
            .unwrap_or_default();
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Does thinking twice as long pay? (score of the double budget)",
                (FONT, 17),
            )
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.3..steps as f64 - 0.7, 0.0..1.0)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .x_labels(steps)
            .x_label_formatter(&|x| category(&labels, *x))
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .x_desc("the stronger bot (against half its budget)")
            .y_desc("score")
            .draw()
            .map_err(fail)?;
        chart
            .draw_series(LineSeries::new(
                [(-0.3, 0.5), (steps as f64 - 0.7, 0.5)],
                GREY.stroke_width(1),
            ))
            .map_err(fail)?;
        for (i, (label, points)) in series.iter().enumerate() {
            let c = colour(i);
            let off = (i as f64 - (series.len() as f64 - 1.0) / 2.0) * 0.06;
            chart
                .draw_series(LineSeries::new(
                    points
                        .iter()
                        .enumerate()
                        .map(|(k, p)| (k as f64 + off, p.stronger_score.share)),
                    c.stroke_width(2),
                ))
                .map_err(fail)?
                .label(*label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                });
            chart
                .draw_series(points.iter().enumerate().map(|(k, p)| {
                    let s = p.stronger_score;
                    ErrorBar::new_vertical(k as f64 + off, s.low, s.share, s.high, c, 8)
                }))
                .map_err(fail)?;
        }
        if series.len() > 1 {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()
                .map_err(fail)?;
        }
        Ok(())
    })
}

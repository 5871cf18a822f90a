#![forbid(unsafe_code)]
//! The part of a source that a diagnostic shows. Rendering hands miette an excerpt, not the
//! whole file: the lines the labels touch with a little context, each long line cut down to the
//! stretches around its labels (joined by `…`), and each label at most [`MAX_LABEL`] bytes. What
//! is rendered is then bounded by the number of labels, never by the size of the file (a 16 MiB
//! rule file, a one-line generated file, a 100 KB SFEN), and no column passes what the renderer
//! can count. Line and column numbers stay those of the file.

use super::floor_char_boundary;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Lines of context kept before the first label and after the last.
const CONTEXT: usize = 2;
/// A line longer than this is cut to the stretches around its labels.
const MAX_LINE: usize = 240;
/// Bytes kept on each side of a label on a long line.
const MARGIN: usize = 40;
/// The longest label shown, in bytes; a longer one is shown by its beginning.
const MAX_LABEL: usize = 160;
/// Lines shown at most between the first label and the last; past them each label keeps to its
/// own first line.
const MAX_LINES: usize = 100;
const CUT: &str = "…";

/// An excerpt of a source with the positions of the labels in it.
pub struct Excerpt {
    name: String,
    text: String,
    /// For each line of the excerpt, its 0-based line in the file.
    line_map: Vec<usize>,
    /// For each line of the excerpt, what its columns are short of the file's: the bytes cut
    /// from its start less the mark that stands for them (the renderer counts columns in bytes).
    cut_before: Vec<isize>,
}

/// Where a label of the file stands in the excerpt.
pub struct Placed {
    pub offset: usize,
    pub len: usize,
}

fn ceil(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl Excerpt {
    /// The excerpt of `text` (named `name`) for labels given as byte ranges, and the place of
    /// each label in it, in the same order.
    pub fn new(name: &str, text: &str, labels: &[(usize, usize)]) -> (Excerpt, Vec<Placed>) {
        // labels clamped to the text, to char boundaries and to MAX_LABEL
        let mut spans: Vec<(usize, usize)> = labels
            .iter()
            .map(|&(s, e)| {
                let s = floor_char_boundary(text, s);
                let e = ceil(text, e.max(s)).min(ceil(text, s + MAX_LABEL));
                (s, e)
            })
            .collect();
        let line_of = |i: usize| text[..i].bytes().filter(|&b| b == b'\n').count();
        // a label across many lines keeps to its first line
        for s in spans.iter_mut() {
            if line_of(s.1) - line_of(s.0) > MAX_LINES {
                let eol = text[s.0..]
                    .find('\n')
                    .map(|k| s.0 + k)
                    .unwrap_or(text.len());
                s.1 = s.1.min(eol);
            }
        }
        // the byte ranges of the lines shown: each label's lines with CONTEXT lines around
        // them, merged where they touch
        let line_start = |i: usize| text[..i].rfind('\n').map(|k| k + 1).unwrap_or(0);
        let line_end = |i: usize| text[i..].find('\n').map(|k| i + k).unwrap_or(text.len());
        let mut ranges: Vec<(usize, usize)> = spans
            .iter()
            .map(|&(a, b)| {
                let mut start = line_start(a);
                for _ in 0..CONTEXT {
                    if start == 0 {
                        break;
                    }
                    start = line_start(start - 1);
                }
                let mut end = line_end(b);
                for _ in 0..CONTEXT {
                    if end >= text.len() {
                        break;
                    }
                    end = line_end(end + 1);
                }
                (start, end)
            })
            .collect();
        ranges.sort();
        let mut groups: Vec<(usize, usize)> = vec![];
        for r in ranges {
            match groups.last_mut() {
                Some(g) if r.0 <= g.1 + 1 => g.1 = g.1.max(r.1),
                _ => groups.push(r),
            }
        }
        if groups.is_empty() {
            groups.push((0, line_end(0)));
        }
        let mut out = String::new();
        let mut line_map = vec![];
        let mut cut_before = vec![];
        let mut placed: Vec<Option<Placed>> = spans.iter().map(|_| None).collect();
        for (gi, &(start, end)) in groups.iter().enumerate() {
            if gi > 0 {
                // the lines between two groups are one line `…`
                out.push_str(CUT);
                out.push('\n');
                line_map.push(line_of(start).saturating_sub(1));
                cut_before.push(0);
            }
            let mut ls = start;
            let mut file_line = line_of(start);
            loop {
                let le = text[ls..end].find('\n').map(|k| ls + k).unwrap_or(end);
                self::cut_line(text, ls, le, &spans, &mut placed, &mut out, &mut cut_before);
                line_map.push(file_line);
                file_line += 1;
                if le >= end {
                    break;
                }
                out.push('\n');
                ls = le + 1;
            }
            if gi + 1 < groups.len() {
                out.push('\n');
            }
        }
        let placed = placed
            .into_iter()
            .map(|p| {
                p.unwrap_or(Placed {
                    offset: out.len(),
                    len: 0,
                })
            })
            .collect();
        (
            Excerpt {
                name: name.to_string(),
                text: out,
                line_map,
                cut_before,
            },
            placed,
        )
    }
}

/// Append the line `text[ls..le]` to `out`, cut to the stretches around the labels that start on
/// it when it is long, and place those labels.
fn cut_line(
    text: &str,
    ls: usize,
    le: usize,
    spans: &[(usize, usize)],
    placed: &mut [Option<Placed>],
    out: &mut String,
    cut_before: &mut Vec<isize>,
) {
    let line = &text[ls..le];
    if line.len() <= MAX_LINE {
        for (i, s) in spans.iter().enumerate() {
            if placed[i].is_none() && s.0 >= ls && s.0 <= le {
                placed[i] = Some(Placed {
                    offset: out.len() + (s.0 - ls),
                    len: s.1 - s.0,
                });
            }
        }
        out.push_str(line);
        cut_before.push(0);
        return;
    }
    // the stretches around the labels that start on this line, merged
    let mut segs: Vec<(usize, usize)> = spans
        .iter()
        .filter(|s| s.0 >= ls && s.0 <= le)
        .map(|s| {
            (
                floor_char_boundary(text, s.0.saturating_sub(MARGIN).max(ls)),
                ceil(text, s.1.min(le) + MARGIN).min(le),
            )
        })
        .collect();
    segs.sort();
    let mut merged: Vec<(usize, usize)> = vec![];
    for s in segs {
        match merged.last_mut() {
            Some(m) if s.0 <= m.1 => m.1 = m.1.max(s.1),
            _ => merged.push(s),
        }
    }
    if merged.is_empty() {
        // a line of context: its beginning
        merged.push((ls, ceil(text, ls + MAX_LINE).min(le)));
    }
    cut_before.push(if merged[0].0 > ls {
        (merged[0].0 - ls) as isize - CUT.len() as isize
    } else {
        0
    });
    let mut pos = ls;
    for (a, b) in merged {
        if a > pos {
            out.push_str(CUT);
        }
        for (i, s) in spans.iter().enumerate() {
            if placed[i].is_none() && s.0 >= a && s.0 <= b {
                placed[i] = Some(Placed {
                    offset: out.len() + (s.0 - a),
                    len: s.1.min(b) - s.0,
                });
            }
        }
        out.push_str(&text[a..b]);
        pos = b;
    }
    if pos < le {
        out.push_str(CUT);
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self.text.read_span(span, before, after)?;
        let line = c.line();
        let shift = self.cut_before.get(line).copied().unwrap_or(0);
        let column = (c.column() as isize + shift).max(0) as usize;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            *c.span(),
            self.line_map.get(line).copied().unwrap_or(line),
            column,
            c.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_files_are_shown_as_they_are() {
        let text = "a\nb\nc\nd\ne\nf\ng";
        let (x, p) = Excerpt::new("f", text, &[(6, 7)]);
        assert_eq!(x.text, "b\nc\nd\ne\nf");
        assert_eq!(x.line_map, vec![1, 2, 3, 4, 5]);
        assert_eq!(&x.text[p[0].offset..p[0].offset + p[0].len], "d");
    }

    #[test]
    fn a_long_line_is_cut_around_its_labels() {
        let text = format!(
            "{}XY{}Z{}",
            "a".repeat(70_000),
            "b".repeat(50_000),
            "c".repeat(9)
        );
        let (x, p) = Excerpt::new("f", &text, &[(70_000, 70_002), (120_002, 120_003)]);
        assert!(x.text.len() < 400, "{} bytes", x.text.len());
        assert_eq!(&x.text[p[0].offset..p[0].offset + p[0].len], "XY");
        assert_eq!(&x.text[p[1].offset..p[1].offset + p[1].len], "Z");
        assert_eq!(x.cut_before[0], (70_000 - MARGIN - CUT.len()) as isize);
    }

    #[test]
    fn long_labels_are_shown_by_their_beginning() {
        let text = "x".repeat(100_000);
        let (x, p) = Excerpt::new("f", &text, &[(0, 100_000)]);
        assert!(p[0].len <= MAX_LABEL);
        assert!(x.text.len() < 400);
    }

    #[test]
    fn labels_far_apart_in_a_big_file_keep_the_excerpt_small() {
        let text = "line\n".repeat(200_000);
        let (x, p) = Excerpt::new("f", &text, &[(5, 9), (999_990, 999_994)]);
        // two groups of lines, the lines between them one `…`
        assert!(x.text.len() < 100, "{}", x.text);
        assert_eq!(&x.text[p[0].offset..p[0].offset + 4], "line");
        assert_eq!(&x.text[p[1].offset..p[1].offset + 4], "line");
        assert!(
            x.line_map.last().is_some_and(|&l| l >= 199_998),
            "{:?}",
            x.line_map
        );
        assert_eq!(x.line_map[0], 0);
    }
}

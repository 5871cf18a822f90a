#![forbid(unsafe_code)]
//! Board variants from their rule tables: a program that states the tables of
//! `rules/variants/board.rule` (the core; a variant is a reading that overrides some of them) is
//! evaluated under a reading, and the values are compiled into the native variant engine
//! ([`crate::shogi::variant`]).
//!
//! The engine stands for the core's tables as the reading gives them: every table it runs on is
//! read from the rules, never written again in Rust. A program that does not state the tables
//! (a rule file about something else) is refused with a diagnostic that names what is missing.

use crate::check::load::{load, load_from, Shipped};
use crate::check::Program;
use crate::diagnostics::code;
use crate::diagnostics::{Diag, SourceMap};
use crate::eval::Evaluator;
use crate::ir::ReadingId;
use crate::ir::Value;
use crate::natives::Natives;
use crate::shogi::variant::{
    FaceSpec, KifNames, KindSpec, Promotion, Repetition, RepetitionResult, RoyalRule, Spec, VPos,
    Variant, MAX_FACES, MAX_RAY, MAX_RAYS, MAX_SIDE,
};
use std::path::{Path, PathBuf};

/// The diagnostic code of a variant whose tables cannot be compiled.
pub const BAD_VARIANT: &str = code::BAD_VARIANT;

/// The tables every variant states (the core's names), for messages.
pub const TABLES: &[&str] = &[
    "variant_name",
    "columns",
    "rows",
    "kinds",
    "faces",
    "promotes",
    "moves",
    "zone",
    "promotion",
    "immobile_forbidden",
    "royal",
    "droppable",
    "dropped_as",
    "max_per_file",
    "drop_mate_forbidden",
    "royal_rule",
    "try_rows",
    "start_sfen",
];

/// A loaded variant: its program, the reading, and the engine compiled from them.
pub struct LoadedVariant {
    pub program: Program,
    pub reading: ReadingId,
    pub reading_name: String,
    pub variant: Variant,
    /// The files the program was read from (shown in notices).
    pub files: Vec<PathBuf>,
}

fn bad(msg: impl Into<String>) -> Diag {
    Diag::error(BAD_VARIANT, msg).help(format!(
        "a variant is a reading of rules/variants/board.rule that states its tables ({}); \
         `okite rules export DIR` writes the shipped ones to copy from",
        TABLES.join(", ")
    ))
}

/// Load a shipped variant by name (`minishogi`): `rules/variants/NAME.rule`, its reading NAME.
pub fn shipped(name: &str) -> Result<LoadedVariant, (SourceMap, Vec<Diag>)> {
    shipped_name(name).map_err(|d| (SourceMap::default(), vec![d]))?;
    shipped_file(&format!("{name}.rule"), Some(name))
}

/// `name` is a shipped variant's, or the diagnostic that lists them.
pub fn shipped_name(name: &str) -> Result<(), Diag> {
    let names = crate::shipped::variant_names();
    if names.contains(&name) {
        return Ok(());
    }
    Err(
        Diag::error(BAD_VARIANT, format!("no shipped variant `{name}`"))
            .help(format!("the shipped variants are {}", names.join(", "))),
    )
}

/// Load a file of the shipped `rules/variants/` (`minishogi.rule`, or `board.rule` for the core)
/// under `reading`.
pub fn shipped_file(
    file: &str,
    reading: Option<&str>,
) -> Result<LoadedVariant, (SourceMap, Vec<Diag>)> {
    let path = Path::new(crate::shipped::FOLDER)
        .join("variants")
        .join(file);
    let loaded = load_from(
        &Shipped,
        &[path],
        &Natives::standard(),
        SourceMap::default(),
    );
    let files = loaded.files.clone();
    match loaded.program {
        Ok(p) => from_program(p, reading, files),
        Err(ds) => Err((loaded.sources, ds)),
    }
}

/// Load a variant from rule files on disk, under `reading` (by default the one reading the
/// files declare, when there is one).
pub fn from_files(
    paths: &[PathBuf],
    reading: Option<&str>,
) -> Result<LoadedVariant, (SourceMap, Vec<Diag>)> {
    let loaded = load(paths, &Natives::standard());
    let files = loaded.files.clone();
    match loaded.program {
        Ok(p) => from_program(p, reading, files),
        Err(ds) => Err((loaded.sources, ds)),
    }
}

/// Compile the variant a checked program states under `reading`.
pub fn from_program(
    mut program: Program,
    reading: Option<&str>,
    files: Vec<PathBuf>,
) -> Result<LoadedVariant, (SourceMap, Vec<Diag>)> {
    let rid = match reading {
        Some(r) => program.reading_or_error(r),
        None => Ok(crate::check::BASE),
    };
    let rid = match rid {
        Ok(r) => r,
        Err(d) => return Err((program.sources.clone(), vec![d])),
    };
    let reading_name = reading.unwrap_or("base").to_string();
    match compile(&mut program, rid) {
        Ok(spec) => match Variant::new(spec) {
            Ok(variant) => Ok(LoadedVariant {
                program,
                reading: rid,
                reading_name,
                variant,
                files,
            }),
            Err(e) => Err((program.sources.clone(), vec![bad(e.0)])),
        },
        Err(d) => Err((program.sources.clone(), vec![d])),
    }
}

/// Does a program state the variant tables (the core's names)?
pub fn states_tables(program: &Program) -> bool {
    ["columns", "rows", "faces", "moves", "start_sfen"]
        .iter()
        .all(|n| program.key_of(n).is_some())
}

/// Evaluate the tables under `reading` and read them into a [`Spec`].
pub fn compile(program: &mut Program, reading: ReadingId) -> Result<Spec, Diag> {
    let missing: Vec<&str> = TABLES
        .iter()
        .copied()
        .filter(|n| program.key_of(n).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(bad(format!(
            "the rules loaded state no variant: {} not defined",
            missing.join(", ")
        )));
    }
    let mut q = Queries::new(program, reading);
    let name = q.string("variant_name")?;
    let width = q.int("columns")?;
    let height = q.int("rows")?;
    for (what, n) in [("columns", width), ("rows", height)] {
        if n < 1 || n > MAX_SIDE as i64 {
            return Err(bad(format!(
                "`{what}` is {n}; a board has 1 to {MAX_SIDE} {what}"
            )));
        }
    }
    let kinds = q.strings("kinds")?;
    let faces = q.strings("faces")?;
    if faces.len() > MAX_FACES {
        return Err(bad(format!(
            "{} faces; a variant has at most {MAX_FACES}",
            faces.len()
        )));
    }
    for f in faces.iter().chain(&kinds) {
        let ok = matches!(f.as_bytes(), [c] | [b'+', c] if c.is_ascii_uppercase());
        if !ok {
            return Err(bad(format!(
                "`{f}` is no face: a face is an uppercase letter, or `+` and one"
            )));
        }
    }
    let kind_index = |f: &str| kinds.iter().position(|k| f.trim_start_matches('+') == k);
    let mut face_specs = vec![];
    for f in &faces {
        let Some(kind) = kind_index(f) else {
            return Err(bad(format!("face `{f}` is of no kind in `kinds`")));
        };
        let p = q.string(&format!("promotes(\"{f}\")"))?;
        let promotes_to = if p.is_empty() {
            None
        } else {
            match faces.iter().position(|g| *g == p) {
                Some(i) => Some(i),
                None => {
                    return Err(bad(format!(
                        "`promotes(\"{f}\")` is `{p}`, which is not in `faces`"
                    )))
                }
            }
        };
        let rays = [
            q.rays(&format!("moves(\"{f}\", 先手)"))?,
            q.rays(&format!("moves(\"{f}\", 後手)"))?,
        ];
        face_specs.push(FaceSpec {
            text: f.clone(),
            kind,
            promotes_to,
            rays,
        });
    }
    let mut kind_specs = vec![];
    for k in &kinds {
        let Some(base) = faces.iter().position(|f| f == k) else {
            return Err(bad(format!("kind `{k}` has no face `{k}` in `faces`")));
        };
        let mut also = vec![];
        for d in q.strings(&format!("dropped_as(\"{k}\")"))? {
            match faces.iter().position(|f| *f == d) {
                Some(i) if i != base => also.push(i),
                Some(_) => {}
                None => {
                    return Err(bad(format!(
                        "`dropped_as(\"{k}\")` names `{d}`, which is not in `faces`"
                    )))
                }
            }
        }
        let max = q.int(&format!("max_per_file(\"{k}\")"))?;
        kind_specs.push(KindSpec {
            letter: k.chars().next().unwrap_or('?'),
            base,
            also_dropped_as: also,
            royal: q.bool(&format!("royal(\"{k}\")"))?,
            droppable: q.bool(&format!("droppable(\"{k}\")"))?,
            max_per_file: if max > 0 {
                Some(max.min(u32::MAX as i64) as u32)
            } else {
                None
            },
            drop_mate_forbidden: q.bool(&format!("drop_mate_forbidden(\"{k}\")"))?,
        });
    }
    let promotion = match q.string("promotion")?.as_str() {
        "optional" => Promotion::Optional,
        "forced" => Promotion::Forced,
        other => {
            return Err(bad(format!(
                "`promotion` is \"{other}\"; write \"optional\" or \"forced\""
            )))
        }
    };
    let royal = match q.string("royal_rule")?.as_str() {
        "check" => RoyalRule::Check,
        "capture" => RoyalRule::Capture,
        other => {
            return Err(bad(format!(
                "`royal_rule` is \"{other}\"; write \"check\" or \"capture\""
            )))
        }
    };
    let try_rows = [q.ints("try_rows(先手)")?, q.ints("try_rows(後手)")?];
    let flag = if try_rows.iter().all(|r| r.is_empty()) {
        None
    } else {
        Some(try_rows)
    };
    Ok(Spec {
        name,
        width: width as usize,
        height: height as usize,
        faces: face_specs,
        kinds: kind_specs,
        zone: [q.ints("zone(先手)")?, q.ints("zone(後手)")?],
        promotion,
        immobility_illegal: q.bool("immobile_forbidden")?,
        royal,
        flag,
        start: q.string("start_sfen")?,
        repetition: repetition_rule(&mut q)?,
        kif: kif_names(&mut q, &faces)?,
    })
}

/// How KIF records write the variant (`kif_game`, `kif_names`): none where the program does not
/// state them or `kif_game` is empty (no KIF is defined for it). Two faces may not share a name.
fn kif_names(q: &mut Queries, faces: &[String]) -> Result<Option<KifNames>, Diag> {
    if q.program.key_of("kif_game").is_none() || q.program.key_of("kif_names").is_none() {
        return Ok(None);
    }
    let game = q.string("kif_game")?;
    if game.is_empty() {
        return Ok(None);
    }
    let mut names: Vec<Vec<String>> = vec![];
    for f in faces {
        let ns = q.strings(&format!("kif_names(\"{f}\")"))?;
        if ns.is_empty() {
            return Err(bad(format!(
                "`kif_names(\"{f}\")` is empty, though `kif_game` is \"{game}\": each face needs a name in KIF"
            )));
        }
        for n in &ns {
            let len = n.chars().count();
            if !(1..=2).contains(&len)
                || n.chars()
                    .any(|c| c.is_ascii() || c == '・' || c == '打' || c == '同')
                || n == "成"
            {
                return Err(bad(format!(
                    "`kif_names(\"{f}\")` holds \"{n}\": a KIF name is one or two characters, not ASCII, `・`, `打`, `同` or `成` alone"
                )));
            }
            if let Some(g) = names.iter().position(|m| m.contains(n)) {
                return Err(bad(format!(
                    "the faces `{}` and `{f}` are both named \"{n}\" in KIF",
                    faces[g]
                )));
            }
        }
        names.push(ns);
    }
    Ok(Some(KifNames { game, faces: names }))
}

/// The repetition rule of the tables (`repetitions`, `repetition_result`,
/// `perpetual_check_loses`); none where the program does not state it.
fn repetition_rule(q: &mut Queries) -> Result<Repetition, Diag> {
    if q.program.key_of("repetitions").is_none() {
        return Ok(Repetition::default());
    }
    let count = q.int("repetitions")?;
    if !(0..=1000).contains(&count) {
        return Err(bad(format!(
            "`repetitions` is {count}; write 0 (none) to 1000"
        )));
    }
    let result = match q.string("repetition_result")?.as_str() {
        "draw" => RepetitionResult::Draw,
        "first_loses" => RepetitionResult::FirstLoses,
        "mover_loses" => RepetitionResult::MoverLoses,
        other => {
            return Err(bad(format!(
                "`repetition_result` is \"{other}\"; write \"draw\", \"first_loses\" or \"mover_loses\""
            )))
        }
    };
    Ok(Repetition {
        count: count as u32,
        result,
        perpetual_check_loses: q.bool("perpetual_check_loses")?,
    })
}

/// Queries against the program under one reading, each evaluated on its own.
struct Queries<'a> {
    program: &'a mut Program,
    reading: ReadingId,
}

impl<'a> Queries<'a> {
    fn new(program: &'a mut Program, reading: ReadingId) -> Self {
        Queries { program, reading }
    }

    fn value(&mut self, text: &str) -> Result<Value, Diag> {
        let fid = self
            .program
            .sources
            .add("<variant table>", None, text.to_string());
        let e = crate::syntax::parse_expr(text, fid).map_err(|ds| {
            ds.into_iter()
                .next()
                .unwrap_or_else(|| bad(text.to_string()))
        })?;
        let q = self.program.compile_query(&e, &[]).map_err(|ds| {
            ds.into_iter()
                .next()
                .unwrap_or_else(|| bad(text.to_string()))
        })?;
        let binder = crate::bindings::Sound::standard();
        let mut ev = Evaluator::new(self.program, &binder);
        ev.set_reading(self.reading);
        ev.eval_query(&q).map_err(|e| *e.diag)
    }

    fn wrong(text: &str, want: &str, v: &Value) -> Diag {
        bad(format!(
            "`{text}` is {}; the table wants {want}",
            crate::ir::short(v, 80)
        ))
    }

    fn int(&mut self, text: &str) -> Result<i64, Diag> {
        match self.value(text)? {
            Value::Int(n) => Ok(n),
            v => Err(Self::wrong(text, "a whole number", &v)),
        }
    }

    fn bool(&mut self, text: &str) -> Result<bool, Diag> {
        match self.value(text)? {
            Value::Bool(b) => Ok(b),
            v => Err(Self::wrong(text, "true or false", &v)),
        }
    }

    fn string(&mut self, text: &str) -> Result<String, Diag> {
        match self.value(text)? {
            Value::Str(s) => Ok(s.to_string()),
            v => Err(Self::wrong(text, "a string", &v)),
        }
    }

    fn elements(v: &Value) -> Option<Vec<Value>> {
        match v {
            Value::Seq(s) => Some(s.iter().cloned().collect()),
            Value::Set(s) => Some(s.iter().cloned().collect()),
            _ => None,
        }
    }

    fn strings(&mut self, text: &str) -> Result<Vec<String>, Diag> {
        let v = self.value(text)?;
        let els = Self::elements(&v).ok_or_else(|| Self::wrong(text, "strings", &v))?;
        if els.len() > MAX_FACES {
            return Err(Self::wrong(
                text,
                &format!("at most {MAX_FACES} strings"),
                &v,
            ));
        }
        els.iter()
            .map(|e| match e {
                Value::Str(s) => Ok(s.to_string()),
                _ => Err(Self::wrong(text, "strings", &v)),
            })
            .collect()
    }

    fn ints(&mut self, text: &str) -> Result<Vec<i32>, Diag> {
        let v = self.value(text)?;
        let els = Self::elements(&v).ok_or_else(|| Self::wrong(text, "whole numbers", &v))?;
        els.iter()
            .map(|e| match e {
                Value::Int(n) if n.unsigned_abs() <= 1 << 16 => Ok(*n as i32),
                _ => Err(Self::wrong(text, "small whole numbers", &v)),
            })
            .collect()
    }

    fn rays(&mut self, text: &str) -> Result<Vec<Vec<(i32, i32)>>, Diag> {
        let v = self.value(text)?;
        let want = "a set of rays, each a sequence of (column, row) offsets";
        let rays = Self::elements(&v).ok_or_else(|| Self::wrong(text, want, &v))?;
        if rays.len() > MAX_RAYS {
            return Err(Self::wrong(text, &format!("at most {MAX_RAYS} rays"), &v));
        }
        let mut out = vec![];
        for r in &rays {
            let steps = Self::elements(r).ok_or_else(|| Self::wrong(text, want, &v))?;
            if steps.len() > MAX_RAY {
                return Err(Self::wrong(
                    text,
                    &format!("rays of at most {MAX_RAY} squares"),
                    &v,
                ));
            }
            let mut ray = vec![];
            for s in &steps {
                match s {
                    Value::Tuple(t) => match &t[..] {
                        [Value::Int(dc), Value::Int(dr)]
                            if dc.unsigned_abs() <= 64 && dr.unsigned_abs() <= 64 =>
                        {
                            ray.push((*dc as i32, *dr as i32))
                        }
                        _ => return Err(Self::wrong(text, want, &v)),
                    },
                    _ => return Err(Self::wrong(text, want, &v)),
                }
            }
            out.push(ray);
        }
        Ok(out)
    }
}

/// A position as the core's rules hold it (rules/variants/board.rule `State`): the board as
/// a map from squares to (face, owner), the hands as a map from (kind, owner) to a count (kinds
/// held only), and the side to move.
pub fn state_value(prog: &Program, p: &VPos) -> Result<Value, Diag> {
    let (Some(sente), Some(gote)) = (
        prog.enum_constant("Turn", "先手"),
        prog.enum_constant("Turn", "後手"),
    ) else {
        return Err(bad(
            "the rules loaded declare no `Turn` (先手, 後手) to hold a position",
        ));
    };
    let turn = |s: usize| if s == 0 { sente.clone() } else { gote.clone() };
    let t = &p.t;
    let mut board = vec![];
    for sq in 0..t.n {
        if p.board[sq] != 0 {
            let (f, s) = crate::shogi::variant::piece_of_cell(p.board[sq]);
            let (c, r) = t.coords(sq);
            board.push((
                Value::Tuple(vec![Value::Int(c as i64), Value::Int(r as i64)].into()),
                Value::Tuple(
                    vec![Value::Str(t.spec.faces[f].text.as_str().into()), turn(s)].into(),
                ),
            ));
        }
    }
    let mut hands = vec![];
    for s in 0..2 {
        for (k, kind) in t.spec.kinds.iter().enumerate() {
            if p.hands[s][k] > 0 {
                hands.push((
                    Value::Tuple(
                        vec![Value::Str(kind.letter.to_string().as_str().into()), turn(s)].into(),
                    ),
                    Value::Int(p.hands[s][k] as i64),
                ));
            }
        }
    }
    Ok(Value::Tuple(
        vec![
            Value::map(board.into_iter().collect()),
            Value::map(hands.into_iter().collect()),
            turn(p.side),
        ]
        .into(),
    ))
}

#[cfg(test)]
mod tests;

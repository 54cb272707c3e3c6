//! The context bundle: a task in words in, what to read for it out, under a
//! token budget (`cg context`, `codegraph_context`).
//!
//! Candidates, strongest first: the hints (paths or symbols the caller names),
//! identifiers and paths written in the task (`Store.add`, `getUserById`,
//! `src/store.ts`), then symbol search over the task's words (a word many
//! hits hold counting less with each) and the files whose paths hold them (a
//! file the task names by its name, `runserver` → runserver.py, as strong as
//! the best hits). The best
//! functions among them are expanded through the graph: what they call and
//! what calls them (one level), and the files their files import. Each
//! candidate keeps the best score it was reached with and the reason. Snippets
//! are definition extents (at most [`SNIPPET_LINES`] lines), taken best first
//! while they fit the budget: one inside another already taken, or the same text
//! already taken elsewhere (generated or vendored copies), is left out. Same
//! index and task, same bundle.

use std::path::Path;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use super::{DefCat, DefId, DefView, Graph, GraphError};
use crate::extract::words::subwords;
use crate::query::text::SnippetReader;

/// Lines of one snippet at most (a longer definition shows its head).
pub const SNIPPET_LINES: u32 = 80;
/// Snippets shown up to [`SNIPPET_LINES`]; the others show their first
/// [`HEAD_LINES`] (`codegraph_snippet` reads on).
const FULL_SNIPPETS: usize = 3;
const HEAD_LINES: u32 = 30;
/// The default budget, in tokens.
pub const DEFAULT_BUDGET: usize = 8000;
/// Bytes per token, as budgets are estimated.
const BYTES_PER_TOKEN: usize = 4;
/// Search results taken as candidates.
const SEARCH_RESULTS: usize = 24;
/// Candidates expanded through the graph.
const EXPANDED: usize = 4;
/// Candidates in a row that do not fit the budget before the rest are only
/// counted.
const MAX_MISFITS: usize = 12;
/// Callers are looked up for names with at most this many definitions.
const CALLER_NAME_DEFS: usize = 8;
/// Files named as holding a copy of a snippet taken.
const MAX_COPIES: usize = 4;
/// Files found by their paths.
const PATH_FILES: usize = 5;
/// The score of a file the task names ([`named_by`]), shared among them.
const NAMED_FILE_SCORE: f64 = 16.0;
/// Files the task may name: words naming more name none.
const NAMED_FILES: usize = 4;
/// A word in at most this many paths may name a file by itself.
const RARE_IN_PATHS: usize = 25;

/// Words of a task that say nothing about the code.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "add",
    "all",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "bug",
    "but",
    "by",
    "can",
    "change",
    "code",
    "do",
    "does",
    "doesn",
    "fix",
    "for",
    "from",
    "how",
    "i",
    "if",
    "implement",
    "in",
    "into",
    "is",
    "it",
    "its",
    "make",
    "makes",
    "need",
    "needs",
    "new",
    "not",
    "of",
    "on",
    "or",
    "should",
    "so",
    "some",
    "support",
    "that",
    "the",
    "their",
    "then",
    "there",
    "this",
    "to",
    "up",
    "use",
    "we",
    "what",
    "when",
    "where",
    "which",
    "while",
    "why",
    "will",
    "with",
    "without",
    "work",
    "works",
    "wrong",
];

#[derive(Clone, Debug, Serialize)]
pub struct Bundle {
    pub repo: Repo,
    pub intent: String,
    pub focus: Vec<Focus>,
    pub snippets: Vec<BundleSnippet>,
    pub subgraph: Subgraph,
    pub notes: Vec<String>,
    pub limits: Limits,
}

#[derive(Clone, Debug, Serialize)]
pub struct Repo {
    pub root: String,
    /// The checked-out commit, when the project is a git work tree.
    pub rev: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Focus {
    /// `symbol` or `file`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualified_name: Option<String>,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct BundleSnippet {
    pub path: String,
    pub start: u32,
    pub end: u32,
    /// Of `text`.
    pub sha256: String,
    pub text: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Subgraph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Node {
    pub id: usize,
    pub kind: String,
    pub name: String,
    pub file: String,
    pub line: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// `calls`.
    pub kind: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct Limits {
    /// Tokens asked for.
    pub budget: usize,
    /// Tokens the bundle takes (its JSON's bytes / 4).
    pub used_estimate: usize,
}

/// A definition reached, with the best score and reason it was reached by.
struct Cand {
    view: DefView,
    /// Its graph id, when known without reading its file.
    id: Option<DefId>,
    score: f64,
    reason: String,
    order: usize,
}

/// Each further search hit holding the same task words counts for this much
/// less than the one before it ([`diversified`]).
const SAME_REASON_DECAY: f64 = 0.7;
/// The reason of a search hit, before the task words it holds.
const MATCHES: &str = "matches ";
/// The reasons of a file's definitions found by its path, after the path.
const NAMED_FILE: &str = "a file the task names";
const PATH_MATCHES: &str = "whose path matches the task";
const CALLS: &str = "calls ";
const CALLED_BY: &str = "called by ";
const WORDS_IN_FILE: &str = "whose code holds the task's words";
/// Files taken by their words' evidence ([`super::evidence`]).
const EVIDENCE_FILES: usize = 12;
/// Definitions taken from each of those files.
const EVIDENCE_DEFS: usize = 3;
/// The score of the best of those files' best definition (search hits: up to 20).
const EVIDENCE_SCORE: f64 = 18.0;
/// The focus names the files ranking's best files (`cg search --files`),
/// whether or not a snippet of theirs fits: what to open next when the
/// snippets do not hold the answer. An entry costs about 40 tokens; past
/// [`MIN_LISTED_FILES`], one file for each this many tokens of the budget
/// keeps the list to a tenth of it (20 files in 8,000 tokens).
const TOKENS_PER_LISTED_FILE: usize = 400;
/// Files listed however small the budget.
const MIN_LISTED_FILES: usize = 12;
/// At most this many files listed, however large the budget.
const MAX_LISTED_FILES: usize = 40;
/// Definitions a listed file's entry names.
const LISTED_DEFS: usize = 2;
/// The reason of a listed file, before its rank.
const FILE_RANK: &str = "file rank ";

/// `cands` best first, each search hit holding the same task words as others
/// (`matches python`), and each definition of a file found by its path after
/// the first, counting [`SAME_REASON_DECAY`] less than the one before it: a
/// word many definitions hold (`to_python` in every form field) or one file
/// does not fill the bundle before the task's other words are heard. (Hits
/// holding all `words` the search looked for, and what the task names, keep
/// their scores.)
fn diversified<'c>(mut cands: Vec<&'c Cand>, words: usize, aside: &super::evidence::Aside) -> Vec<&'c Cand> {
    let by_score = |a: &(f64, &Cand), b: &(f64, &Cand)| b.0.total_cmp(&a.0).then(a.1.order.cmp(&b.1.order));
    // Tests count less unless the task is about them (a fix's tests name its
    // feature many times and would fill the bundle), vendored and minified
    // code unless the task names it.
    let mut scored: Vec<(f64, &Cand)> = cands
        .drain(..)
        .map(|c| (if c.score > 0.0 { c.score * aside.factor(&c.view.file) } else { c.score }, c))
        .collect();
    scored.sort_by(by_score);
    // (reason, the file for a file's reasons): the entry's path is beside its
    // reason, which need not spell it again.
    let mut seen: FxHashMap<(&str, &str), i32> = FxHashMap::default();
    for (score, c) in scored.iter_mut() {
        let of_file = [NAMED_FILE, PATH_MATCHES, WORDS_IN_FILE].contains(&c.reason.as_str());
        // Hits holding every word are what the task describes
        // (`TestGetImageUser` and `TestGetUserFromImageUser` for "get user
        // from image user test").
        match c.reason.strip_prefix(MATCHES) {
            Some(held) if held.split(", ").count() >= words => continue,
            Some(_) => {}
            // A file's definitions found by its path: one file does not fill
            // the bundle either.
            None if of_file => {}
            // The callers and callees of one function: a few, then others.
            None if c.reason.starts_with(CALLS) || c.reason.starts_with(CALLED_BY) => {}
            None => continue,
        }
        let file = if of_file { c.view.file.as_str() } else { "" };
        let n = seen.entry((c.reason.as_str(), file)).or_insert(0);
        if *score > 0.0 {
            *score *= SAME_REASON_DECAY.powi(*n);
        }
        *n += 1;
    }
    scored.sort_by(by_score);
    scored.into_iter().map(|(_, c)| c).collect()
}

/// Whether `path` (lower-cased) is a file the task's `words` name: each part
/// of its file name before the extension (`_` or `-` between parts) is one of
/// the words, or two of them written together, and one part has four letters
/// or more (`endpoints controller` names endpoints_controller.go and
/// EndpointsController.cs). A name of one word names a file only when the
/// word is `rare` in paths (`runserver` names runserver.py; `file`, in many
/// paths, names no file.py).
fn named_by(path: &str, words: &[&String], rare: &dyn Fn(&str) -> bool) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split_once('.').map_or(file, |(s, _)| s);
    let parts: Vec<&str> = stem.split(['_', '-']).collect();
    let one = |p: &str| words.iter().any(|w| w.as_str() == p);
    let two = |p: &str| {
        words
            .windows(2)
            .any(|w| p.len() == w[0].len() + w[1].len() && p.starts_with(w[0].as_str()) && p.ends_with(w[1].as_str()))
    };
    if !parts.iter().any(|p| p.len() >= 4) || !parts.iter().all(|p| !p.is_empty() && (one(p) || two(p))) {
        return false;
    }
    match parts.as_slice() {
        [p] => two(p) || rare(p),
        _ => true,
    }
}

/// The files whose paths match a task's words, with their share of the
/// words' weight, and those of them the task names
/// ([`Graph::paths_matching`]).
type PathsMatching = (Vec<(String, f64)>, Vec<String>);

/// A candidate's key: file, line, name (what every answer shows of a
/// definition, so that none is read to find its id).
type CandKey = (String, u32, String);

fn key_of(v: &DefView) -> CandKey {
    (v.file.clone(), v.line, v.name.clone())
}

fn search_view(h: &super::SymbolHit) -> DefView {
    DefView {
        file: h.file.clone(),
        line: h.line,
        end_line: h.end_line,
        kind: h.kind.clone(),
        name: h.name.clone(),
        qualified_name: h.qualified_name.clone(),
    }
}

impl Graph<'_> {
    /// The bundle for `task` within `budget` tokens; `hints` are paths or
    /// symbols to start from.
    pub fn context(&self, task: &str, budget: usize, hints: &[String]) -> Result<Bundle, GraphError> {
        let root = self.index.root.display().to_string();
        let mut notes = Vec::new();
        let intent = intent_of(task);
        let mut cands: FxHashMap<CandKey, Cand> = FxHashMap::default();
        let mut files: Vec<(String, String)> = Vec::new(); // (path, reason)
        let mut next = 0usize;
        let mut add =
            |cands: &mut FxHashMap<CandKey, Cand>, view: DefView, id: Option<DefId>, score: f64, reason: String| {
                let c = cands.entry(key_of(&view)).or_insert_with(|| {
                    next += 1;
                    Cand { view, id: None, score: f64::MIN, reason: String::new(), order: next }
                });
                c.id = c.id.or(id);
                if score > c.score {
                    c.score = score;
                    c.reason = reason;
                }
            };

        // 1. Hints, then what the task names.
        let mut named: Vec<(String, f64, &str)> = hints.iter().map(|h| (h.clone(), 100.0, "hint")).collect();
        named.extend(mentions(task).into_iter().map(|m| (m, 50.0, "named in the task")));
        for (name, score, why) in &named {
            if let Some(path) = self.file_named(name)? {
                if !files.iter().any(|(p, _)| *p == path) {
                    files.push((path.clone(), why.to_string()));
                }
                for (i, (id, view)) in self.file_defs(&path)?.into_iter().enumerate() {
                    add(&mut cands, view, Some(id), score * 0.3 - i as f64 * 0.01, format!("in {path}, {why}"));
                }
                continue;
            }
            match self.find(name) {
                Ok(defs) if !defs.is_empty() => {
                    let share = (defs.len() as f64).sqrt();
                    for id in defs.into_iter().take(8) {
                        add(&mut cands, self.view(id)?, Some(id), score / share, format!("{why}: {name}"));
                    }
                }
                // `Iterators.emptyIterator` when the method is gone (the task
                // may bring it back): its qualifier, a little less strongly.
                _ => {
                    let Some((qualifier, _)) = name.rsplit_once(['.', ':']) else { continue };
                    let qualifier = qualifier.trim_end_matches(':');
                    if qualifier.len() < 3 {
                        continue;
                    }
                    let defs = self.missing_member_home(qualifier)?;
                    let share = (defs.len().max(1) as f64).sqrt();
                    for id in defs.into_iter().take(4) {
                        let reason = format!("{why}: {name} (its qualifier)");
                        add(&mut cands, self.view(id)?, Some(id), 0.6 * score / share, reason);
                    }
                }
            }
        }

        // 2. Symbol search over the task's words, by meaning too when the
        //    index's vectors came from the graph's model.
        let words: Vec<String> = search_words(task);
        let hybrid = self
            .model
            .as_deref()
            .filter(|&m| super::SearchMode::default_for(self.index, Some(m)) == super::SearchMode::Hybrid);
        // How many words the search looked for.
        let mut searched = 0;
        if !words.is_empty() {
            let found = match hybrid {
                Some(m) => self.search_by(&words.join(" "), SEARCH_RESULTS, super::SearchMode::Hybrid, Some(m))?,
                None => self.search(&words.join(" "), SEARCH_RESULTS)?,
            };
            searched = found.subwords.len();
            let top = found.hits.first().map_or(1.0, |h| h.score.max(1e-9));
            // A whole file's hit (a file the words name) is not a definition:
            // the files the task names are read in step 1.
            for h in found.hits.iter().filter(|h| !h.is_whole_file()) {
                let id = ((h.segment as usize, h.slot), h.index);
                let held: Vec<String> = subwords(&h.name)
                    .map(crate::snapshot::fold)
                    .filter(|p| found.subwords.contains(p))
                    .collect::<FxHashSet<_>>()
                    .into_iter()
                    .collect();
                let mut held = held;
                held.sort();
                let why = if held.is_empty() {
                    "close in meaning to the task".to_string()
                } else {
                    format!("{MATCHES}{}", held.join(", "))
                };
                add(&mut cands, search_view(h), Some(id), 20.0 * h.score / top, why);
            }
        }
        // Files whose paths hold the task's words (`endpoints controller` →
        // `endpoints_controller.go`): their definitions holding the words, or
        // their first ones.
        let (matching, named) = self.paths_matching(&words, intent == "tests")?;
        for (path, share) in matching {
            let g = match self.index.locate(&path)? {
                Some(f) => self.file((f.segment, f.slot_id))?,
                None => continue,
            };
            // A file the task names by its name (`runserver` → runserver.py)
            // is read first, as a careful reader would: as strong as the best
            // search hits, shared among the files so named.
            let base = match named.contains(&path) {
                true => NAMED_FILE_SCORE / (named.len() as f64).sqrt(),
                false => 0.0,
            };
            let why = match base > 0.0 {
                true => NAMED_FILE.to_string(),
                false => PATH_MATCHES.to_string(),
            };
            let mut any = false;
            let nested = g.nested();
            for (i, d) in g.defs.iter().enumerate() {
                if nested[i] {
                    continue;
                }
                let held = subwords(&d.name).map(crate::snapshot::fold).filter(|p| words.contains(p)).count();
                if held > 0 {
                    any = true;
                    let score = base + 12.0 * share + 2.0 * held as f64;
                    add(&mut cands, file_view(&g, d), Some((g.key, i as u32)), score, why.clone());
                }
            }
            if !any {
                for (i, d) in g.defs.iter().enumerate().filter(|&(i, _)| !nested[i]).take(3) {
                    add(&mut cands, file_view(&g, d), Some((g.key, i as u32)), base + 8.0 * share, why.clone());
                }
            }
        }
        // Files whose own words hold the task's rare words (BM25 over the
        // index's postings): their definitions where those words are.
        let aside = super::evidence::Aside::of(task);
        let identifiers = super::evidence::identifiers_of(task);
        let evidence = self.file_evidence(&words, &identifiers, &aside, EVIDENCE_FILES)?;
        let best_file = evidence.first().map_or(1.0, |e| e.score.max(1e-9));
        for e in &evidence {
            let g = self.file(e.key)?;
            let nested = g.nested();
            let held = e.definitions(&g);
            let why = WORDS_IN_FILE.to_string();
            let base = EVIDENCE_SCORE * e.score / best_file;
            if held.is_empty() {
                if let Some(i) = (0..g.defs.len()).find(|&i| !nested[i]) {
                    add(&mut cands, file_view(&g, &g.defs[i]), Some((g.key, i as u32)), base * 0.5, why.clone());
                }
            }
            let top = held.first().map_or(1.0, |h| h.0);
            for &(s, i) in held.iter().take(EVIDENCE_DEFS) {
                let d = &g.defs[i];
                add(&mut cands, file_view(&g, d), Some((g.key, i as u32)), base * (0.6 + 0.4 * s / top), why.clone());
            }
        }
        // (path, reason) of the files ranking's best files, for the focus.
        let mut listed: Vec<(String, String)> = Vec::new();
        let room = (budget / TOKENS_PER_LISTED_FILE).clamp(MIN_LISTED_FILES, MAX_LISTED_FILES);
        if !words.is_empty() {
            let mode = match hybrid {
                Some(_) => super::SearchMode::Hybrid,
                None => super::SearchMode::Lexical,
            };
            for (rank, f) in self.search_files(task, room, mode, hybrid)?.into_iter().enumerate() {
                let names: Vec<&str> = f.definitions.iter().take(LISTED_DEFS).map(|d| d.name.as_str()).collect();
                let reason = match names.is_empty() {
                    true => format!("{FILE_RANK}{}", rank + 1),
                    false => format!("{FILE_RANK}{}: {}", rank + 1, names.join(", ")),
                };
                listed.push((f.file, reason));
            }
        }
        if cands.is_empty() && files.is_empty() {
            notes.push("nothing in the index matches the task's words or names: give hints (paths or symbols), or check `cg status` that the files are indexed".to_string());
        }

        // 3. The best functions expanded: callees, callers (one level), and
        //    tests of them when the task is about tests.
        let ranked: Vec<&Cand> = diversified(cands.values().collect(), searched, &aside);
        let seeds: Vec<(Option<DefId>, DefView, f64)> =
            ranked.iter().take(EXPANDED).map(|c| (c.id, c.view.clone(), c.score)).collect();
        let mut edges: Vec<(CandKey, CandKey)> = Vec::new();
        for (id, view, score) in seeds.iter().cloned() {
            if self.out_of_time() {
                break;
            }
            let Some(id) = id.or_else(|| self.id_of(&view)) else { continue };
            let (_, d) = self.def(id)?;
            let me = key_of(&view);
            if d.cat == DefCat::Method {
                // An ambiguous call is a guess among candidates: not followed.
                for e in self.callees(id, 1)?.into_iter().filter(|e| !e.ambiguous) {
                    if let Some(callee) = e.symbol {
                        edges.push((me.clone(), key_of(&callee)));
                        add(&mut cands, callee, None, score * 0.5, format!("{CALLED_BY}{}", view.qualified_name));
                    }
                }
            }
            // Callers of a name many types define are costly to resolve and
            // mostly another type's: only for names defined a few times.
            let callers = if self.name_defs(&d.name)?.items.len() <= CALLER_NAME_DEFS {
                self.callers(&[id], 1)?
            } else {
                Vec::new()
            };
            for e in callers.into_iter().filter(|e| !e.ambiguous).take(16) {
                if let Some(caller) = e.symbol {
                    edges.push((key_of(&caller), me.clone()));
                    add(&mut cands, caller, None, score * 0.4, format!("{CALLS}{}", view.qualified_name));
                }
            }
            if intent == "tests" {
                for h in self.search(&d.name, 20)?.hits {
                    if super::is_test_file(&h.file) && h.name != d.name {
                        let id = ((h.segment as usize, h.slot), h.index);
                        add(
                            &mut cands,
                            search_view(&h),
                            Some(id),
                            score * 0.6,
                            format!("tests {}", view.qualified_name),
                        );
                    }
                }
            }
        }
        // The files the best candidate's file imports, where an import names one
        // file (a Go import names a whole package folder: not listed).
        if let Some((_, view, _)) = seeds.first() {
            let file = view.file.clone();
            let mut listed = 0;
            for imp in self.imports(&file, 1).unwrap_or_default() {
                if let [path] = imp.resolved.as_slice() {
                    if listed < 6 && !super::is_test_file(path) && !files.iter().any(|(p, _)| p == path) {
                        files.push((path.clone(), format!("imported by {file}")));
                        listed += 1;
                    }
                }
            }
        }

        // 4. Snippets, best first, while they fit.
        let ranked: Vec<&Cand> = diversified(cands.values().collect(), searched, &aside);
        let limit_bytes = budget.saturating_mul(BYTES_PER_TOKEN);
        // What the bundle takes without snippets: its skeleton with the file
        // focus entries, and room for the notes.
        let skeleton = Bundle {
            repo: Repo { root: root.clone(), rev: git_rev(&self.index.root) },
            intent: intent.to_string(),
            focus: files.iter().chain(&listed).map(|(path, reason)| file_focus(path, reason)).collect(),
            snippets: Vec::new(),
            subgraph: Subgraph::default(),
            notes: Vec::new(),
            limits: Limits { budget, used_estimate: budget },
        };
        let mut used = json_len(&skeleton) + NOTES_ROOM;
        let mut taken: Vec<(CandKey, DefView, BundleSnippet, String)> = Vec::new();
        let mut hashes: FxHashSet<String> = FxHashSet::default();
        let mut left_out = Vec::new();
        let mut misfits = 0;
        let mut copies = 0;
        let mut reader = SnippetReader::new(self.index);
        for (k, c) in ranked.iter().enumerate() {
            // Past a run of candidates that did not fit, the budget is spent:
            // the rest are counted, not read.
            if misfits >= MAX_MISFITS || limit_bytes.saturating_sub(used) < 300 {
                left_out.extend(
                    ranked[k..].iter().map(|c| format!("{} ({}:{})", c.view.qualified_name, c.view.file, c.view.line)),
                );
                break;
            }
            let view = c.view.clone();
            // The best few in full (up to SNIPPET_LINES), the others' heads.
            let lines = if taken.len() < FULL_SNIPPETS { SNIPPET_LINES } else { HEAD_LINES };
            let end = view.end_line.min(view.line + lines - 1);
            let inside = taken.iter().any(|(_, v, s, _)| v.file == view.file && s.start <= view.line && end <= s.end);
            if inside {
                continue;
            }
            let Ok(s) = reader.snippet(&view.file, view.line, end) else { continue };
            let sha = sha256_hex(s.text.as_bytes());
            if !hashes.insert(sha.clone()) {
                // The same text elsewhere (a copy): its file is named, not
                // shown again.
                if let Some((_, first, _, _)) = taken.iter().find(|(_, _, s, _)| s.sha256 == sha) {
                    if !files.iter().any(|(p, _)| *p == view.file) && copies < MAX_COPIES {
                        files.push((
                            view.file.clone(),
                            format!("{} has the same text as {}:{}", view.qualified_name, first.file, first.line),
                        ));
                        copies += 1;
                    }
                }
                continue;
            }
            let mut snip =
                BundleSnippet { path: view.file.clone(), start: view.line, end: s.end, sha256: sha, text: s.text };
            let mut cost = item_cost(&view, &c.reason, &snip);
            if used + cost > limit_bytes {
                if !taken.is_empty() {
                    left_out.push(format!("{} ({}:{})", view.qualified_name, view.file, view.line));
                    misfits += 1;
                    continue;
                }
                // Not even the best fits: its head, as much as fits.
                while used + cost > limit_bytes && snip.end > snip.start {
                    let lines = snip.end - snip.start;
                    let (cut, _) = head(&snip.text, usize::MAX, lines);
                    snip.text.truncate(cut);
                    snip.end -= 1;
                    cost = item_cost(&view, &c.reason, &snip);
                }
                if used + cost > limit_bytes {
                    left_out.push(format!("{} ({}:{})", view.qualified_name, view.file, view.line));
                    continue;
                }
                snip.sha256 = sha256_hex(snip.text.as_bytes());
                notes.push(format!(
                    "the budget ({budget} tokens) holds only lines {}-{} of the best match: raise it for more",
                    snip.start, snip.end
                ));
            }
            used += cost;
            misfits = 0;
            taken.push((key_of(&view), view, snip, c.reason.clone()));
        }
        if !left_out.is_empty() {
            notes.push(format!(
                "{} more candidates left out at the budget (next: {}); raise the budget or ask codegraph_symbol",
                left_out.len(),
                left_out.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
            ));
        }

        // 5. Focus, subgraph.
        let mut focus: Vec<Focus> = Vec::new();
        let mut nodes = Vec::new();
        let mut node_of: FxHashMap<CandKey, usize> = FxHashMap::default();
        for (i, (key, view, _, reason)) in taken.iter().enumerate() {
            focus.push(Focus {
                kind: "symbol",
                qualified_name: Some(view.qualified_name.clone()),
                path: view.file.clone(),
                line: Some(view.line),
                reason: reason.clone(),
            });
            node_of.insert(key.clone(), i);
            nodes.push(Node {
                id: i,
                kind: view.kind.clone(),
                name: view.qualified_name.clone(),
                file: view.file.clone(),
                line: view.line,
            });
        }
        for (path, reason) in &files {
            focus.push(file_focus(path, reason));
        }
        // The files ranking's first files that no entry above names.
        for (path, reason) in &listed {
            if !focus.iter().any(|f| f.path == *path) {
                focus.push(file_focus(path, reason));
            }
        }
        let mut edge_set: Vec<Edge> = Vec::new();
        for (a, b) in edges {
            if let (Some(&from), Some(&to)) = (node_of.get(&a), node_of.get(&b)) {
                if from != to && !edge_set.iter().any(|e| e.from == from && e.to == to) {
                    edge_set.push(Edge { from, to, kind: "calls" });
                }
            }
        }
        let snippets = taken.into_iter().map(|(_, _, s, _)| s).collect();
        let mut bundle = Bundle {
            repo: skeleton.repo,
            intent: intent.to_string(),
            focus,
            snippets,
            subgraph: Subgraph { nodes, edges: edge_set },
            notes,
            limits: Limits { budget, used_estimate: 0 },
        };
        // The estimate above holds the bundle; should the notes run long, the
        // last snippets go.
        while json_len(&bundle) > limit_bytes && bundle.snippets.len() > 1 {
            let last = bundle.snippets.len() - 1;
            bundle.snippets.pop();
            bundle.focus.remove(last);
            bundle.subgraph.nodes.pop();
            bundle.subgraph.edges.retain(|e| e.from != last && e.to != last);
        }
        // The estimate counts its own digits.
        for _ in 0..3 {
            bundle.limits.used_estimate = json_len(&bundle).div_ceil(BYTES_PER_TOKEN);
        }
        Ok(bundle)
    }

    /// The indexed file a task word names: its exact path, or the one path
    /// ending with it (`store.ts`, `pkg/store.go`).
    pub(crate) fn file_named(&self, word: &str) -> Result<Option<String>, GraphError> {
        let word = word.trim_start_matches("./");
        if !word.contains('/') && !word.contains('.') {
            return Ok(None);
        }
        if let Some(f) = self.index.locate(word)? {
            return Ok(Some(f.path.to_string()));
        }
        if !looks_like_file(word) {
            return Ok(None);
        }
        let suffix = format!("/{word}");
        let found: Vec<String> = self
            .index
            .files()?
            .iter()
            .filter(|f| f.path.ends_with(&suffix))
            .map(|f| f.path.to_string())
            .take(2)
            .collect();
        Ok(if found.len() == 1 { found.into_iter().next() } else { None })
    }

    /// The files whose paths hold most of `words` (a word of 4+ letters inside
    /// a folder or file name, a shorter one as a whole part; twice the weight in
    /// the file's own name), with the share of the words' weight they hold: at
    /// most [`PATH_FILES`], holding at least two words or one in the file name.
    /// And of those, the ones the task names ([`named_by`]; up to
    /// [`NAMED_FILES`], not vendored, not tests unless `tests`: `get_test.go`
    /// is no file "get test user from image" names), which are listed even
    /// when not among the best by share.
    fn paths_matching(&self, words: &[String], tests: bool) -> Result<PathsMatching, GraphError> {
        let words: Vec<&String> = words.iter().filter(|w| w.len() >= 3).collect();
        if words.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        // One scan of all paths (lower-cased) per word; per file, the best
        // place of each word: its file name (2) or a folder (1).
        let table = self.index.path_table()?;
        let mut scores: FxHashMap<usize, f64> = FxHashMap::default();
        // How many paths hold each word.
        let mut held: FxHashMap<&str, usize> = FxHashMap::default();
        for w in &words {
            let w = w.as_bytes();
            let mut best: FxHashMap<usize, f64> = FxHashMap::default();
            for at in memchr::memmem::find_iter(&table.text, w) {
                let i = table.path_at(at);
                let start = table.starts[i] as usize;
                let path = table.path(i);
                let (from, to) = (at - start, at - start + w.len());
                // A word shorter than 4 letters counts only as a whole part
                // (`api`, not inside `capital`).
                let alnum = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric());
                if w.len() < 4 && (alnum(from.checked_sub(1).and_then(|j| path.get(j))) || alnum(path.get(to))) {
                    continue;
                }
                let stem_at = path.iter().rposition(|&b| b == b'/').map_or(0, |j| j + 1);
                let place = if from >= stem_at { 2.0 } else { 1.0 };
                let b = best.entry(i).or_insert(0.0);
                *b = f64::max(*b, place);
            }
            held.insert(std::str::from_utf8(w).unwrap_or(""), best.len());
            for (i, place) in best {
                *scores.entry(i).or_insert(0.0) += place;
            }
        }
        // Paths in path order, so a tie goes to the first path.
        let mut found: Vec<(f64, usize)> = scores.into_iter().filter(|&(_, s)| s >= 2.0).map(|(i, s)| (s, i)).collect();
        found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let most = 2.0 * words.len() as f64;
        let rare = |w: &str| held.get(w).is_some_and(|&n| n <= RARE_IN_PATHS);
        let named: Vec<usize> = found
            .iter()
            .map(|&(_, i)| i)
            .filter(|&i| {
                let path = std::str::from_utf8(table.path(i)).unwrap_or("");
                named_by(path, &words, &rare)
                    && !crate::project::is_vendored(path)
                    && (tests || !super::is_test_file(path))
            })
            .collect();
        // More files named than that: the words name none.
        let named: FxHashSet<usize> =
            if named.len() <= NAMED_FILES { named.into_iter().collect() } else { FxHashSet::default() };
        let (mut out, mut named_paths) = (Vec::new(), Vec::new());
        for (k, &(s, i)) in found.iter().enumerate() {
            if k < PATH_FILES || named.contains(&i) {
                let path = self.path_of(table.keys[i])?;
                if named.contains(&i) {
                    named_paths.push(path.clone());
                }
                out.push((path, s / most));
            }
        }
        Ok((out, named_paths))
    }

    /// The top-level definitions of a file, in source order.
    fn file_defs(&self, path: &str) -> Result<Vec<(DefId, DefView)>, GraphError> {
        let Some(f) = self.index.locate(path)? else { return Ok(Vec::new()) };
        let g = self.file((f.segment, f.slot_id))?;
        let nested = g.nested();
        Ok(g.defs
            .iter()
            .enumerate()
            .filter(|&(i, _)| !nested[i])
            .map(|(i, d)| ((g.key, i as u32), file_view(&g, d)))
            .collect())
    }

    /// The definition a view shows.
    fn id_of(&self, v: &DefView) -> Option<DefId> {
        let f = self.index.locate(&v.file).ok()??;
        let g = self.file((f.segment, f.slot_id)).ok()?;
        let i = g.defs.iter().position(|d| d.line == v.line && d.name == v.name)?;
        Some((g.key, i as u32))
    }
}

/// A definition of a file read already, as answers show it.
fn file_view(g: &super::FileGraph, d: &super::Def) -> DefView {
    DefView {
        file: g.path.clone(),
        line: d.line,
        end_line: d.end_line,
        kind: d.kind.to_string(),
        name: d.name.clone(),
        qualified_name: g.qualified_name(d),
    }
}

/// What the task is about: `tests`, `fix`, `feature`, `refactor` or `explore`.
pub fn intent_of(task: &str) -> &'static str {
    let words: Vec<String> = task.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if has(&["test", "tests", "testing", "spec", "specs", "coverage"]) {
        "tests"
    } else if has(&["fix", "bug", "crash", "error", "fails", "failing", "broken", "wrong", "panic", "regression"]) {
        "fix"
    } else if has(&["refactor", "rename", "move", "extract", "split", "cleanup", "simplify"]) {
        "refactor"
    } else if has(&["add", "implement", "support", "feature", "new", "introduce", "allow"]) {
        "feature"
    } else {
        "explore"
    }
}

/// Identifiers and paths written in a task: words with a case change inside,
/// `_`, `::`, `.`, `/` or backticks around them.
pub fn mentions(task: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in task.split_whitespace() {
        let quoted = raw.contains('`');
        let w = raw.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '/' || c == '.' || c == ':'));
        let w = w.trim_end_matches(['.', ':']).trim_end_matches("()");
        if w.len() < 3 {
            continue;
        }
        let inner_upper = w.chars().skip(1).any(|c| c.is_uppercase()) && w.chars().any(|c| c.is_lowercase());
        let marked = w.contains('_') || w.contains("::") || w.contains('/') || w.contains('.');
        if (quoted || inner_upper || marked) && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

/// The task's words for symbol search: its subwords without the words that
/// say nothing about the code.
pub fn search_words(task: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in subwords(task) {
        let part = crate::snapshot::fold(part);
        if part.len() < 2 || STOP_WORDS.contains(&part.as_str()) || out.contains(&part) {
            continue;
        }
        out.push(part);
    }
    out
}

fn looks_like_file(word: &str) -> bool {
    let ext = word.rsplit_once('.').map_or("", |(_, e)| e);
    !ext.is_empty() && ext.len() <= 5 && ext.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The byte length of the first lines of `text` fitting in `room` bytes, at
/// most `max_lines` of them, and how many lines that is.
fn head(text: &str, room: usize, max_lines: u32) -> (usize, u32) {
    let (mut cut, mut lines) = (0, 0);
    for (i, _) in text.match_indices('\n') {
        if i + 1 > room || lines == max_lines {
            break;
        }
        cut = i + 1;
        lines += 1;
    }
    (cut, lines)
}

/// Room kept for the notes.
const NOTES_ROOM: usize = 700;

fn json_len<T: Serialize>(v: &T) -> usize {
    serde_json::to_vec(v).map_or(0, |b| b.len())
}

fn file_focus(path: &str, reason: &str) -> Focus {
    Focus { kind: "file", qualified_name: None, path: path.to_string(), line: None, reason: reason.to_string() }
}

/// The bytes a snippet adds to the bundle: itself, its focus entry and its
/// node (as JSON), and room for two edges.
fn item_cost(view: &super::DefView, reason: &str, snip: &BundleSnippet) -> usize {
    let focus = Focus {
        kind: "symbol",
        qualified_name: Some(view.qualified_name.clone()),
        path: view.file.clone(),
        line: Some(view.line),
        reason: reason.to_string(),
    };
    let node = Node {
        id: 999,
        kind: view.kind.clone(),
        name: view.qualified_name.clone(),
        file: view.file.clone(),
        line: view.line,
    };
    json_len(snip) + json_len(&focus) + json_len(&node) + 3 + 2 * 40
}

/// The commit checked out in `root`, read from `.git` (a `HEAD` naming a ref, a
/// loose ref or `packed-refs`); `None` when it is not a git work tree.
fn git_rev(root: &Path) -> Option<String> {
    let git = root.join(".git");
    let head = std::fs::read_to_string(git.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref: ") else {
        return is_hash(head).then(|| head.to_string());
    };
    if let Ok(rev) = std::fs::read_to_string(git.join(name)) {
        let rev = rev.trim();
        return is_hash(rev).then(|| rev.to_string());
    }
    let packed = std::fs::read_to_string(git.join("packed-refs")).ok()?;
    packed.lines().find_map(|l| {
        let (rev, r) = l.split_once(' ')?;
        (r == name && is_hash(rev)).then(|| rev.to_string())
    })
}

fn is_hash(s: &str) -> bool {
    s.len() >= 40 && s.chars().all(|c| c.is_ascii_hexdigit())
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_name_identifiers_and_paths() {
        assert_eq!(
            mentions("Fix `Store.add` when getUserById returns nil in src/store.ts, see parse_config()."),
            ["Store.add", "getUserById", "src/store.ts", "parse_config"]
        );
        assert!(mentions("make the cache faster").is_empty());
    }

    #[test]
    fn files_the_task_names() {
        let words: Vec<String> = ["endpoints", "controller", "keeps", "runserver", "file", "api", "client", "ab", "cd"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let words: Vec<&String> = words.iter().collect();
        let rare = |w: &str| w == "runserver";
        let named = |path: &str| named_by(path, &words, &rare);
        // Every part a word, or two written together.
        assert!(named("pkg/controller/endpoint/endpoints_controller.go"));
        assert!(named("src/endpointscontroller.cs"), "EndpointsController.cs, lower-cased");
        assert!(named("lib/endpoints-controller.test.ts"));
        assert!(named("a/api_client.go"));
        // One word names a file only when few paths hold it.
        assert!(named("django/core/management/commands/runserver.py"));
        assert!(!named("sessions/backends/file.py"));
        assert!(!named("pkg/endpoints.go"), "`endpoints` is not rare here");
        // Not every part a word; no part of four letters; no name.
        assert!(!named("pkg/controller/replica_calculator.go"));
        assert!(!named("x/ab_cd.go"));
        assert!(!named("x/api.go"));
        assert!(!named("x/.gitignore"));
    }

    #[test]
    fn a_word_many_hits_hold_does_not_crowd_out_the_others() {
        let cand = |name: &str, score: f64, reason: &str, order: usize| Cand {
            view: DefView {
                file: format!("{name}.py"),
                line: 1,
                end_line: 2,
                kind: "function".into(),
                name: name.into(),
                qualified_name: name.into(),
            },
            id: None,
            score,
            reason: reason.into(),
            order,
        };
        let mut cands = [
            cand("to_python_a", 20.0, "matches python", 0),
            cand("to_python_b", 19.0, "matches python", 1),
            cand("to_python_c", 18.0, "matches python", 2),
            cand("runserver", 15.0, "matches runserver", 3),
            cand("Store", 14.0, "named in the task: Store", 4),
            cand("Store2", 13.5, "named in the task: Store", 5),
            cand("TestGetImageUser", 13.2, "matches get, image, user", 6),
            cand("TestGetUserFromImageUser", 13.1, "matches get, image, user", 7),
            cand("GetImage", 12.0, "matches get, image", 8),
            cand("GetImage2", 11.9, "matches get, image", 9),
            cand("TestGetA", 12.5, NAMED_FILE, 10),
            cand("TestGetB", 12.4, NAMED_FILE, 11),
            cand("TestOther", 12.3, NAMED_FILE, 12),
        ];
        // Two definitions of one file the task names, one of another.
        cands[10].view.file = "get.go".into();
        cands[11].view.file = "get.go".into();
        let order: Vec<&str> = diversified(cands.iter().collect(), 3, &crate::evidence::Aside::default())
            .iter()
            .map(|c| c.view.name.as_str())
            .collect();
        // python: 20, 13.3, 8.8; get, image: 12, 8.3; one file's: 12.5, 8.7,
        // the other file's 12.3; what the task names, and hits holding every word searched for
        // (three), keep their scores.
        assert_eq!(
            order,
            [
                "to_python_a",
                "runserver",
                "Store",
                "Store2",
                "to_python_b",
                "TestGetImageUser",
                "TestGetUserFromImageUser",
                "TestGetA",
                "TestOther",
                "GetImage",
                "to_python_c",
                "TestGetB",
                "GetImage2"
            ]
        );
    }

    #[test]
    fn intent_and_search_words() {
        assert_eq!(intent_of("Add tests for the tokenizer"), "tests");
        assert_eq!(intent_of("fix crash when the config is empty"), "fix");
        assert_eq!(intent_of("rename Store to Shop"), "refactor");
        assert_eq!(intent_of("how does the scheduler pick a node"), "explore");
        assert_eq!(
            search_words("Fix the crash when parseConfig gets an empty file"),
            ["crash", "parse", "config", "gets", "empty", "file"]
        );
    }
}

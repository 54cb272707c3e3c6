//! Tool parameters: names and shapes of the CodeGraph spec (section 8), with the
//! descriptions agents see in each tool's JSON schema.

use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryParams {
    #[schemars(description = "The search term: a name, a prefix, a substring, a regex or a subword, per `mode`.")]
    pub term: String,
    #[schemars(
        description = "exact (default), starts_with, contains, regex (unanchored unless the pattern anchors itself) or subword (user finds getUserById, UserRepository, user_service; user_id finds getUserId)."
    )]
    pub mode: Option<String>,
    #[schemars(description = "Match case exactly (default false).")]
    pub case_sensitive: Option<bool>,
    #[schemars(description = "Also search linked projects (codegraph_link); matches name their project.")]
    pub include_dependencies: Option<bool>,
    #[schemars(
        description = "Only files matching this glob, as ripgrep's -g: *.go matches at any depth, src/Core/** below a folder, !*_test.go leaves files out."
    )]
    pub file_filter: Option<String>,
    #[schemars(description = "Only these line types: code, comment, struct, method, property, string.")]
    pub type_filter: Option<Vec<String>>,
    #[schemars(description = "Most matches to return (default 100, max 1000); total_matches always counts all.")]
    pub limit: Option<u64>,
    #[schemars(
        description = "Size the answer to about this many tokens (4 bytes each); without it and without limit, about 1,000 tokens. truncated and hint say when matches were left out."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "rank (default: an exact term's definitions first, then other definition lines, then the rest) or path (definition lines, then the rest, in path order)."
    )]
    pub sort: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SignatureParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The file, relative to the project root.")]
    pub file: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnippetParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The file, relative to the project root.")]
    pub file: String,
    #[schemars(description = "The first line (1-based).")]
    pub start: u32,
    #[schemars(
        description = "The last line (default: start). At most 400 lines and 64 KiB are returned; `truncated` says when cut."
    )]
    pub end: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SignaturesParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "A glob over project paths (src/Core/**) or a folder.")]
    pub path: Option<String>,
    #[schemars(description = "Explicit files, relative to the project root (instead of path).")]
    pub files: Option<Vec<String>>,
    #[schemars(description = "Most files to return (default 20, max 200).")]
    pub limit: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "purpose, architecture, concepts, patterns or custom.")]
    pub section: String,
    #[schemars(description = "Markdown text to add.")]
    pub content: String,
    #[schemars(description = "Replace the section's text instead of appending (default false).")]
    pub replace: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreeParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "A folder relative to the project root (default: the root).")]
    pub path: Option<String>,
    #[schemars(description = "Levels below path to list (default 2; 0 for all).")]
    pub depth: Option<u64>,
    #[schemars(description = "Include item and method counts per file (default false).")]
    pub include_stats: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InitParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The project directory (default: the folder the server runs in).")]
    pub path: Option<String>,
    #[schemars(description = "A display name for the project.")]
    pub name: Option<String>,
    #[schemars(
        description = "Only these languages: csharp, typescript, javascript, rust, go, python, java, c, cpp, php, ruby."
    )]
    pub languages: Option<Vec<String>>,
    #[schemars(description = "Globs of files to leave out, e.g. **/generated/**.")]
    pub exclude: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct UpdateParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The file, relative to the project root.")]
    pub file: String,
    #[schemars(description = "First changed line (a hint).")]
    pub from_line: Option<u64>,
    #[schemars(description = "Last changed line (a hint).")]
    pub to_line: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct UpdateBatchParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The files to re-index, as {file, from_line?, to_line?}.")]
    pub files: Vec<UpdateParams>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RemoveParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The file, relative to the project root.")]
    pub file: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "Another indexed project: its root or its .codegraph folder.")]
    pub path: String,
    #[schemars(description = "Display name (default: the linked project's name).")]
    pub name: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnlinkParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The link's name or path.")]
    pub name: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScanParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The folder to search (default: the server's folder).")]
    pub path: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocsParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "Only sections whose title or source contains this text.")]
    pub section: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefsParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "The symbol: a name, Type.member, a qualified name (pkg.Type.member, a::b::f) or path:line of a definition."
    )]
    pub symbol: String,
    #[schemars(description = "Only these roles: call, type, import, inherit, other (default: all).")]
    pub kind: Option<Vec<String>>,
    #[schemars(description = "Most references to return (default 100, 0: all); total always counts all.")]
    pub limit: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CallsParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "The function or method: a name, Type.member, a qualified name or path:line of its definition."
    )]
    pub symbol: String,
    #[schemars(description = "Levels to follow, 1 to 3 (default 1).")]
    pub depth: Option<u64>,
    #[schemars(description = "Most entries to return (default 100, 0: all); total always counts all.")]
    pub limit: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportsParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The file, relative to the project root.")]
    pub file: String,
    #[schemars(description = "true: the files importing it; false (default): what it imports.")]
    pub importers: Option<bool>,
    #[schemars(description = "Levels to follow, 1 to 3 (default 1).")]
    pub depth: Option<u64>,
    #[schemars(description = "Most entries to return (default 100, 0: all); total always counts all.")]
    pub limit: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HierarchyParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "A type, or a method of one: name, Type.member, qualified name or path:line.")]
    pub symbol: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "What to find, in words or as an identifier: \"hex string to color\", \"parse config\", \"UserRepository\"."
    )]
    pub query: String,
    #[schemars(description = "Most results (default 10, at most 100).")]
    pub limit: Option<u64>,
    #[schemars(
        description = "lexical (BM25 over name subwords), semantic (by meaning: the static vectors of the model the index was built with) or hybrid (both). Default: hybrid when the index has vectors, else lexical."
    )]
    pub mode: Option<String>,
    #[schemars(
        description = "Files instead of definitions: the hits grouped by file (a hit's copies' files too), each with its best definitions, plus files whose own words hold the task's rare ones; a file the task names by its name first; answers {query, mode, files:[{file, score, definitions:[{name, kind, line}]}]}."
    )]
    pub files: Option<bool>,
    #[schemars(
        description = "As a symbol picker: names starting with the query or abbreviated by it (\"NewRecon\" finds NewReconciler, \"hdlReq\" handleRequest) first, then the words search; for a half-remembered name."
    )]
    pub names: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "The task in words, as you would give it to an engineer (names and paths in it are looked up)."
    )]
    pub task: String,
    #[schemars(description = "Tokens the bundle may take (about 4 bytes each; default 8000).")]
    pub budget: Option<u64>,
    #[schemars(description = "Paths (relative to the project root) or symbols to start from.")]
    pub hints: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "A symbol (name, Type.member, qualified name, path:line) or a file relative to the project root."
    )]
    pub seed: String,
    #[schemars(description = "Levels to follow, 1 to 3 (default 1).")]
    pub depth: Option<u64>,
    #[schemars(description = "Which relations: calls, imports, inherits (default all).")]
    pub relations: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SymbolParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "A definition: name, Type.member, qualified name or path:line (the first match when several; the others are listed under same_name)."
    )]
    pub symbol: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpactParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(
        description = "A symbol (name, Type.member, qualified name, path:line) or a file relative to the project root."
    )]
    pub target: String,
    #[schemars(description = "Levels to follow, 1 to 3 (default 2).")]
    pub depth: Option<u64>,
    #[schemars(description = "Most callers and importers to return (default 100, 0: all).")]
    pub limit: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OnlyMaxTokens {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SyncGitParams {
    #[schemars(
        description = "Answer at most about this many tokens (4 bytes each): the longest lists are cut (and long texts shortened), and the answer says truncated."
    )]
    pub max_tokens: Option<u64>,
    #[schemars(description = "The commit to sync from (default: the one the index records).")]
    pub from_commit: Option<String>,
    #[schemars(
        description = "The commit to sync to: HEAD, with the work tree's changes (the default; files are read as they are on disk)."
    )]
    pub to_commit: Option<String>,
}

//! The `cg` subcommands. Output goes to stdout; logs, progress and errors to stderr.

mod bench;
mod extract;
mod graph;
mod index;
mod links;
mod lsp;
mod mcp;
mod model;
mod query;
mod signature;
mod summary;
mod tree;
mod ui;
mod update;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cg", version, about = "codegraph: a code index for AI coding agents")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Measure indexing throughput and query latency on a tree (into a temporary
    /// index; the tree's own .codegraph is not touched).
    Bench(bench::Args),
    /// Serve the project to an AI agent over MCP (stdio).
    Mcp(mcp::Args),
    /// Serve the project to an editor over the Language Server Protocol (stdio).
    Lsp(lsp::Args),
    /// Serve a read-only web dashboard of the project on 127.0.0.1.
    Ui(ui::Args),
    /// Index a project: walk, extract and write `.codegraph/`.
    Init(index::InitArgs),
    /// Make shards built by `cg init --shard K/N --out DIR` the project's index
    /// (one new generation, after checking they are whole and of this tree).
    Publish(index::PublishArgs),
    /// Bring files or folders up to date in the index; no path: rescan the tree.
    Update(update::UpdateArgs),
    /// Take files or folders out of the index.
    Remove(update::RemoveArgs),
    /// Rewrite the index into fresh segments, dropping superseded file versions.
    Compact(update::CompactArgs),
    /// Follow file system changes and keep the index up to date until stopped.
    Watch(update::WatchArgs),
    /// Bring the index to HEAD and the work tree: only the files git reports
    /// changed since the index's commit are looked at.
    SyncGit(update::SyncGitArgs),
    /// Install or uninstall git hooks that run `cg sync-git` after commits,
    /// merges, checkouts and rewrites.
    Hooks(update::HooksArgs),
    /// Find where a term occurs.
    Query(query::Args),
    /// What one file declares: header comments, types, methods, properties.
    Signature(signature::OneArgs),
    /// What many files declare (a glob or a folder, in path order).
    Signatures(signature::ManyArgs),
    /// Lines START..END of an indexed file, numbered (at most 400 lines, 64 KiB).
    Snippet(signature::SnippetArgs),
    /// The project summary: people's sections, then entry points, main types,
    /// dependencies and structure (detected by `cg init`).
    Summary(summary::SummaryArgs),
    /// Add to (or --replace) a summary section: purpose, architecture, concepts,
    /// patterns, custom.
    Describe(summary::DescribeArgs),
    /// The project's CLAUDE.md files, as imported (all, or the sections matching).
    Docs(summary::DocsArgs),
    /// Re-import every CLAUDE.md into the docs.
    UpdateDocs(summary::UpdateDocsArgs),
    /// Link another indexed project, to search it with --include-dependencies.
    Link(links::LinkArgs),
    /// Remove a link, by name or path.
    Unlink(links::UnlinkArgs),
    /// The linked projects, and whether each can be reached.
    Links(links::LinksArgs),
    /// Every indexed project under a folder.
    Scan(links::ScanArgs),
    /// The indexed files as a tree, with counts.
    Tree(tree::Args),
    /// Counts and state of the index.
    Status(index::StatusArgs),
    /// The models that embed definitions for search by meaning: `cg model add
    /// PATH`, `cg model list`.
    Model(model::Args),
    /// Run the model's transformer over the definitions (most used names
    /// first; resumable, incremental): search by meaning then uses these
    /// vectors where they exist.
    Embed(model::EmbedArgs),
    /// Check every checksum and record of the index.
    Verify(index::VerifyArgs),
    /// Resolve every reference of the index once and keep the answers beside
    /// it (.codegraph/resolved.cgr): refs, callers and impact then read them
    /// instead of resolving at question time, until the next update.
    Resolve(index::ResolveArgs),
    /// Print the facts extracted from one file, or extract a whole tree and report.
    Extract(extract::Args),
    /// Definitions found by words ("hex string to color" finds hexStringToColor),
    /// ranked: BM25 over the subwords of their names, then path, kind and tests.
    Search(graph::SearchArgs),
    /// What to read for a task, under a token budget: the definitions the task
    /// names or its words match, what they call and what calls them, as
    /// snippets, with the reasons and the call graph between them.
    Context(graph::ContextArgs),
    /// The nodes and edges around a symbol or a file: calls, imports,
    /// inheritance, to a depth.
    Graph(graph::GraphArgs),
    /// Every reference to a symbol: its definitions, then each use with its role
    /// (call, type, import, inherit, other) and the definition it occurs in.
    Refs(graph::RefsArgs),
    /// The functions that call a symbol (--depth: and their callers).
    Callers(graph::CallArgs),
    /// A symbol card: its code, what it calls, who calls it, its file's imports,
    /// the other symbols of its file, other definitions with its name.
    Symbol(graph::SymbolArgs),
    /// What a function calls (--depth: and what those call); calls outside the
    /// project are listed as external.
    Callees(graph::CallArgs),
    /// What a file imports: each import resolved to project files, or external.
    Imports(graph::FileArgs),
    /// The files that import a file.
    Importers(graph::FileArgs),
    /// Supertypes and subtypes of a type; for a method, what it overrides and what
    /// overrides it.
    Hierarchy(graph::HierarchyArgs),
    /// What a change to a symbol or file can reach: referencing functions and
    /// their callers, importing files, and the tests among them.
    Impact(graph::ImpactArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // Commands that answer questions run without transparent huge pages
    // ([`crate::no_huge_pages`]); those that build an index keep them (`cg
    // bench` turns them off after its build).
    let builds = matches!(
        cli.command,
        Command::Bench(_)
            | Command::Init(_)
            | Command::Publish(_)
            | Command::Update(_)
            | Command::Compact(_)
            | Command::Watch(_)
            | Command::SyncGit(_)
            | Command::Embed(_)
            | Command::Extract(_)
    );
    if !builds {
        crate::no_huge_pages();
    }
    let result = match cli.command {
        Command::Bench(args) => bench::run(args),
        Command::Mcp(args) => mcp::run(args),
        Command::Init(args) => index::init(args),
        Command::Publish(args) => index::publish(args),
        Command::Update(args) => update::update(args),
        Command::Remove(args) => update::remove(args),
        Command::Compact(args) => update::compact(args),
        Command::Watch(args) => update::watch(args),
        Command::SyncGit(args) => update::sync_git(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Ui(args) => ui::run(args),
        Command::Hooks(args) => update::hooks(args),
        Command::Query(args) => query::run(args),
        Command::Signature(args) => signature::one(args),
        Command::Snippet(args) => signature::snippet(args),
        Command::Signatures(args) => signature::many(args),
        Command::Tree(args) => tree::run(args),
        Command::Link(args) => links::link(args),
        Command::Unlink(args) => links::unlink(args),
        Command::Links(args) => links::list(args),
        Command::Scan(args) => links::scan(args),
        Command::Summary(args) => summary::show(args),
        Command::Describe(args) => summary::describe(args),
        Command::Docs(args) => summary::show_docs(args),
        Command::UpdateDocs(args) => summary::update_docs(args),
        Command::Status(args) => index::status(args),
        Command::Model(args) => model::run(args),
        Command::Embed(args) => model::embed(args),
        Command::Verify(args) => index::verify(args),
        Command::Resolve(args) => index::resolve(args),
        Command::Extract(args) => extract::run(args),
        Command::Search(args) => graph::search(args),
        Command::Context(args) => graph::context(args),
        Command::Graph(args) => graph::neighborhood(args),
        Command::Refs(args) => graph::refs(args),
        Command::Callers(args) => graph::callers(args, false),
        Command::Symbol(args) => graph::symbol(args),
        Command::Callees(args) => graph::callers(args, true),
        Command::Imports(args) => graph::imports(args, false),
        Command::Importers(args) => graph::imports(args, true),
        Command::Hierarchy(args) => graph::hierarchy(args),
        Command::Impact(args) => graph::impact(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.is::<NothingMatched>() => ExitCode::from(1),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(io::stderr(), "cg: error: {}", message(&err));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes, each cause only when its text is not already said
/// (a library error that names its cause would otherwise repeat it:
/// `… No space left on device: No space left on device`).
fn message(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// A search that matched nothing: exit status 1, as grep and rg (2 is an error).
#[derive(Debug)]
pub struct NothingMatched;

impl std::fmt::Display for NothingMatched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("nothing matched")
    }
}

impl std::error::Error for NothingMatched {}

/// Which files a walk takes: shared by `cg init` and `cg extract DIR`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct WalkFlags {
    /// Only these languages (comma-separated: csharp,typescript,javascript,rust,go,python,java,c,cpp,php,ruby).
    #[arg(long, value_delimiter = ',')]
    pub languages: Vec<String>,
    /// Leave out files matching this glob, e.g. '**/generated/**' (repeatable).
    #[arg(long)]
    pub exclude: Vec<String>,
    /// Only files matching this glob (repeatable).
    #[arg(long)]
    pub include: Vec<String>,
    /// Walk a folder a default rule leaves out (node_modules; target/ beside
    /// Cargo.toml or pom.xml; bin/ and obj/ beside a .csproj; dist/ beside
    /// package.json): a folder name, a path relative to the root, or `all`
    /// (repeatable; kept in .codegraph/config.json).
    #[arg(long = "keep-dir", value_name = "NAME_OR_PATH")]
    pub keep_dirs: Vec<String>,
}

/// Text for a terminal: control characters (a newline, an ANSI escape) written as
/// escapes (`\n`, `\u{1b}`), so a file name or a line cannot forge output or drive
/// the terminal. Tabs stay.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| if c.is_control() && c != '\t' { c.escape_default().to_string() } else { c.to_string() })
            .collect(),
    )
}

/// Several lines for a terminal: [`shown`] line by line, the line ends kept.
pub fn shown_lines(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|l| {
            let (body, end) = match (l.strip_suffix("\r\n"), l.strip_suffix('\n')) {
                (Some(b), _) => (b, "\r\n"),
                (None, Some(b)) => (b, "\n"),
                (None, None) => (l, ""),
            };
            format!("{}{end}", shown(body))
        })
        .collect()
}

/// A path at the start of a `path:line: type: text` line: quoted as a JSON string
/// when it holds a `:`, a quote or a control character, so a file named
/// `a.rs:1: method: x` cannot pass for a hit of another file.
pub fn shown_path(path: &str) -> std::borrow::Cow<'_, str> {
    if path.contains([':', '"']) || path.chars().any(char::is_control) {
        return std::borrow::Cow::Owned(serde_json::to_string(path).unwrap_or_default());
    }
    std::borrow::Cow::Borrowed(path)
}

/// How long a command that writes the index waits for another writer.
#[derive(clap::Args, Clone, Debug)]
pub struct WaitFlag {
    /// Seconds to wait for another cg process writing the index, then give up.
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    pub wait: u64,
}

impl WaitFlag {
    /// The write lock of the project at `root`, waiting as long as asked.
    pub fn lock(&self, root: &std::path::Path) -> anyhow::Result<codegraph::project::WriteLock> {
        let dir = root.join(codegraph::project::DIR);
        Ok(codegraph::project::WriteLock::acquire_waiting(&dir, std::time::Duration::from_secs(self.wait))?)
    }
}

/// `cg ... | head` closes the pipe early: that is not an error.
/// (JSON output fails inside serde_json, which wraps the io::Error.)
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || e.downcast_ref::<serde_json::Error>().and_then(|e| e.io_error_kind()) == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Regression: a file named `a.rs\n` or `x:1: method: y`, or a project name with
    /// ANSI escapes, forged output lines or drove the terminal.
    #[test]
    fn names_and_text_cannot_forge_lines_or_drive_the_terminal() {
        assert_eq!(super::shown("plain\ttext"), "plain\ttext");
        assert_eq!(super::shown("red\u{1b}[31m"), "red\\u{1b}[31m");
        assert_eq!(super::shown("a\nb"), "a\\nb");
        assert_eq!(super::shown_path("src/a.rs"), "src/a.rs");
        assert_eq!(super::shown_path("x.rs:1: method: y"), "\"x.rs:1: method: y\"");
        assert_eq!(super::shown_path("a\nb.rs"), "\"a\\nb.rs\"");
        assert_eq!(super::shown_lines("# t\u{1b}]0;x\u{7}\r\nok\n"), "# t\\u{1b}]0;x\\u{7}\r\nok\n");
    }

    /// Regression: `--json`, `--project` and others showed in `--help` without a word
    /// of what they do.
    #[test]
    fn every_flag_of_every_command_is_documented() {
        let cli = super::Cli::command();
        let mut undocumented = Vec::new();
        for sub in cli.get_subcommands() {
            if sub.get_about().is_none() {
                undocumented.push(format!("cg {}", sub.get_name()));
            }
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if arg.is_hide_set() || id == "help" || id == "version" {
                    continue;
                }
                if arg.get_help().is_none_or(|h| h.to_string().trim().is_empty()) {
                    undocumented.push(format!("cg {} {}", sub.get_name(), id));
                }
            }
        }
        assert!(undocumented.is_empty(), "without help text: {undocumented:?}");
    }
}

//! File filters with ripgrep's `-g` semantics.
//!
//! Each glob is matched against the path relative to the project root:
//! - a glob without `/` matches a file name, or a folder name, at any depth
//!   (`*.go`, `vendor`);
//! - a glob with `/` matches the whole relative path (`src/*.go`, `src/core/**`); a
//!   leading `/` only anchors it (`/main.go`), a trailing `/` means the folder and
//!   everything under it (`pkg/`);
//! - `*` and `?` stay inside one path part, `**` crosses folders;
//! - a glob starting with `!` excludes what it matches.
//!
//! A file passes when it matches at least one include glob (or there is none) and
//! no exclude glob.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use super::QueryError;

/// Compiled file filters.
#[derive(Clone, Debug)]
pub struct PathFilter {
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
}

impl PathFilter {
    /// `None` when no glob is given (every file passes).
    pub fn new(globs: &[String]) -> Result<Option<PathFilter>, QueryError> {
        let mut include = GlobSetBuilder::new();
        let mut exclude = GlobSetBuilder::new();
        let (mut any_include, mut any_exclude) = (false, false);
        for raw in globs {
            let g = raw.trim();
            if g.is_empty() {
                continue;
            }
            let (negated, g) = match g.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, g),
            };
            let bad = |message: String| QueryError::BadGlob { glob: raw.clone(), message };
            if g.is_empty() {
                return Err(bad("nothing after `!`".into()));
            }
            let set = if negated { &mut exclude } else { &mut include };
            for pattern in expand(g) {
                set.add(compile(&pattern).map_err(|e| bad(e.kind().to_string()))?);
            }
            if negated {
                any_exclude = true;
            } else {
                any_include = true;
            }
        }
        if !any_include && !any_exclude {
            return Ok(None);
        }
        let build = |b: GlobSetBuilder, any: bool| -> Result<Option<GlobSet>, QueryError> {
            if !any {
                return Ok(None);
            }
            b.build().map(Some).map_err(|e| QueryError::BadGlob { glob: globs.join(" "), message: e.to_string() })
        };
        Ok(Some(PathFilter { include: build(include, any_include)?, exclude: build(exclude, any_exclude)? }))
    }

    pub fn is_match(&self, path: &str) -> bool {
        self.include.as_ref().is_none_or(|g| g.is_match(path))
            && !self.exclude.as_ref().is_some_and(|g| g.is_match(path))
    }
}

/// The full-path patterns one user glob stands for.
fn expand(g: &str) -> Vec<String> {
    let folder = g.ends_with('/');
    let g = g.trim_end_matches('/');
    let anchored = g.starts_with('/');
    let g = g.trim_start_matches('/');
    let mut out = Vec::new();
    if anchored || g.contains('/') {
        out.push(g.to_string());
        out.push(format!("{g}/**"));
    } else {
        // A name: the file itself, or a folder of that name, at any depth.
        out.push(format!("**/{g}"));
        out.push(format!("**/{g}/**"));
    }
    if folder {
        // Only what lies under the folder.
        out.retain(|p| p.ends_with("/**"));
    }
    out
}

fn compile(pattern: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern).literal_separator(true).build()
}

#[cfg(test)]
mod tests {
    use super::PathFilter;

    fn passes(globs: &[&str], path: &str) -> bool {
        let globs: Vec<String> = globs.iter().map(|g| g.to_string()).collect();
        PathFilter::new(&globs).unwrap().is_none_or(|f| f.is_match(path))
    }

    #[test]
    fn globs_follow_ripgrep() {
        // A name matches at any depth.
        assert!(passes(&["*.go"], "main.go"));
        assert!(passes(&["*.go"], "src/build/build.go"));
        assert!(!passes(&["*.go"], "src/lib.rs"));
        // A folder name matches everything under it.
        assert!(passes(&["vendor"], "a/vendor/x/y.go"));
        assert!(!passes(&["vendor"], "a/vendors/y.go"));
        // A path is matched whole; `*` stays in one folder, `**` crosses.
        assert!(passes(&["src/*.go"], "src/main.go"));
        assert!(!passes(&["src/*.go"], "src/a/main.go"));
        assert!(!passes(&["src/*.go"], "x/src/main.go"));
        assert!(passes(&["src/**/*.go"], "src/a/b/main.go"));
        assert!(passes(&["src/core"], "src/core/engine.rs"));
        assert!(passes(&["pkg/"], "pkg/a.go"));
        assert!(passes(&["/main.go"], "main.go"));
        assert!(!passes(&["/main.go"], "cmd/main.go"));
        // `!` excludes; several globs combine.
        assert!(!passes(&["!*_test.go"], "a/b_test.go"));
        assert!(passes(&["!*_test.go"], "a/b.go"));
        assert!(passes(&["*.go", "!vendor"], "a/b.go"));
        assert!(!passes(&["*.go", "!vendor"], "vendor/b.go"));
        assert!(passes(&["*.go", "*.rs"], "x/lib.rs"));
        assert!(PathFilter::new(&["!".to_string()]).is_err());
        assert!(PathFilter::new(&["src/[".to_string()]).is_err());
        assert!(PathFilter::new(&[" ".to_string()]).unwrap().is_none());
    }
}

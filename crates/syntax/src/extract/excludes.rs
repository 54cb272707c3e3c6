//! Which folders the walk leaves out by default, and why.
//!
//! Beyond the ignore files (`.gitignore`, `.ignore`, `.git/info/exclude`, hidden
//! names: what ripgrep honours), a folder is left out only where it is what its
//! ecosystem builds or installs into, decided from its siblings, never from its
//! name alone: `src/build/` or Go's `go/build/` are source and are indexed.
//!
//! | folder | left out when | reason |
//! |---|---|---|
//! | `.git`, `.codegraph` | always | version control / this index |
//! | `node_modules` | always | installed npm packages |
//! | `target` | beside `Cargo.toml` or `pom.xml` | Rust / Maven build output |
//! | `bin`, `obj` | beside a `*.csproj`, `*.fsproj` or `*.vbproj` | .NET build output |
//! | `dist` | beside `package.json` | JavaScript build output |
//!
//! [`KeepDirs`] brings any of them back (`cg init --keep-dir PATH_OR_NAME`, or
//! `--keep-dir all`), except `.git` and `.codegraph`.

use std::path::Path;

/// Folders the user asked to walk although a default rule leaves them out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeepDirs {
    /// Folder names (`target`) or paths relative to the root (`crates/x/target`);
    /// `all` keeps every folder a default rule would leave out.
    pub dirs: Vec<String>,
}

impl KeepDirs {
    fn keeps(&self, name: &str, rel: &str) -> bool {
        self.dirs.iter().any(|d| {
            let d = d.trim_matches('/');
            d == "all" || d == name || d == rel
        })
    }
}

/// The folder names a default rule may leave out: the walk asks [`excluded_dir`]
/// only about these, so other folders cost nothing.
pub fn may_exclude(name: &str) -> bool {
    matches!(name, ".git" | ".codegraph" | "node_modules" | "target" | "bin" | "obj" | "dist")
}

/// Why the folder `rel` (relative to the root; its absolute path is `abs`) is left
/// out of the walk, or `None` when it is walked. Only folders with one of the
/// names in the table above cost a look at their siblings.
pub fn excluded_dir(abs: &Path, rel: &str, keep: &KeepDirs) -> Option<&'static str> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let reason = match name {
        ".git" => return Some("version control"),
        ".codegraph" => return Some("codegraph index"),
        "node_modules" => "installed npm packages",
        "target" | "bin" | "obj" | "dist" => {
            let parent = abs.parent()?;
            match name {
                "target" if parent.join("Cargo.toml").is_file() => "Rust build output (beside Cargo.toml)",
                "target" if parent.join("pom.xml").is_file() => "Maven build output (beside pom.xml)",
                "bin" | "obj" if has_dotnet_project(parent) => ".NET build output (beside a project file)",
                "dist" if parent.join("package.json").is_file() => "JavaScript build output (beside package.json)",
                _ => return None,
            }
        }
        _ => return None,
    };
    (!keep.keeps(name, rel)).then_some(reason)
}

fn has_dotnet_project(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        [".csproj", ".fsproj", ".vbproj"].iter().any(|ext| name.ends_with(ext))
    })
}

/// A walk of `root` that leaves out what the default rules leave out (the summary's
/// and docs' searches for project files; indexing has its own, with [`KeepDirs`]).
pub fn walk_builder(root: &Path) -> ignore::WalkBuilder {
    let owned_root = root.to_path_buf();
    let mut builder = ignore::WalkBuilder::new(root);
    builder.require_git(false).filter_entry(move |e| {
        let candidate = e.depth() > 0
            && e.file_type().is_some_and(|t| t.is_dir())
            && e.file_name().to_str().is_some_and(may_exclude);
        !(candidate
            && super::rel_path(&owned_root, e.path())
                .is_some_and(|rel| excluded_dir(e.path(), &rel, &KeepDirs::default()).is_some()))
    });
    builder
}

/// A folder the walk left out, and why (reported by `cg init` and `cg status`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExcludedDir {
    pub path: String,
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_folders_are_excluded_only_beside_their_ecosystem_file() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for d in ["rs/target", "go/build", "go/target", "cs/bin", "cs/obj", "web/dist", "lib/dist", "a/node_modules"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(root.join("rs/Cargo.toml"), "").unwrap();
        std::fs::write(root.join("cs/app.csproj"), "").unwrap();
        std::fs::write(root.join("web/package.json"), "{}").unwrap();
        let none = KeepDirs::default();
        let check = |rel: &str, keep: &KeepDirs| excluded_dir(&root.join(rel), rel, keep);
        assert!(check("rs/target", &none).is_some());
        assert!(check("cs/bin", &none).is_some());
        assert!(check("cs/obj", &none).is_some());
        assert!(check("web/dist", &none).is_some());
        assert!(check("a/node_modules", &none).is_some());
        assert_eq!(check("go/build", &none), None);
        assert_eq!(check("go/target", &none), None);
        assert_eq!(check("lib/dist", &none), None);
        let by_name = KeepDirs { dirs: vec!["target".into()] };
        assert_eq!(check("rs/target", &by_name), None);
        assert!(check("cs/bin", &by_name).is_some());
        let by_path = KeepDirs { dirs: vec!["web/dist/".into()] };
        assert_eq!(check("web/dist", &by_path), None);
        let all = KeepDirs { dirs: vec!["all".into()] };
        assert_eq!(check("a/node_modules", &all), None);
        assert!(check(".git", &all).is_some());
    }
}

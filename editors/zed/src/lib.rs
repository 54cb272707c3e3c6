//! Zed extension: starts `cg lsp` (codegraph's language server) for the languages
//! cg indexes. The `cg` binary comes from `PATH` as the worktree's shell sees it, or
//! from the settings:
//!
//! ```json
//! { "lsp": { "codegraph": { "binary": { "path": "/opt/cg/bin/cg", "arguments": ["lsp"] } } } }
//! ```

use zed_extension_api::{
    self as zed,
    settings::{CommandSettings, LspSettings},
};

struct Codegraph;

/// The command that starts the server: the configured binary (its arguments, or
/// `lsp`), else `cg` found on the worktree's `PATH`; an error that says what to do
/// when there is neither.
fn server_command(
    configured: Option<CommandSettings>,
    on_path: Option<String>,
    shell_env: Vec<(String, String)>,
) -> Result<zed::Command, String> {
    let (path, arguments, env) = match configured {
        Some(c) => (c.path, c.arguments, c.env.unwrap_or_default()),
        None => (None, None, Default::default()),
    };
    let command = path.or(on_path).ok_or_else(|| {
        "codegraph: `cg` is not on PATH; install it (cargo install --path . in the codegraph \
         repository) or set lsp.codegraph.binary.path in Zed's settings"
            .to_string()
    })?;
    let mut all_env = shell_env;
    let mut env: Vec<(String, String)> = env.into_iter().collect();
    env.sort();
    all_env.extend(env);
    Ok(zed::Command { command, args: arguments.unwrap_or_else(|| vec!["lsp".into()]), env: all_env })
}

impl zed::Extension for Codegraph {
    fn new() -> Self {
        Codegraph
    }

    fn language_server_command(
        &mut self,
        _id: &zed::LanguageServerId,
        worktree: &zed::Worktree,
    ) -> zed::Result<zed::Command> {
        let configured = LspSettings::for_worktree("codegraph", worktree).ok().and_then(|s| s.binary);
        server_command(configured, worktree.which("cg"), worktree.shell_env())
    }
}

zed::register_extension!(Codegraph);

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(path: Option<&str>, arguments: Option<&[&str]>, env: &[(&str, &str)]) -> Option<CommandSettings> {
        Some(CommandSettings {
            path: path.map(str::to_string),
            arguments: arguments.map(|a| a.iter().map(|s| s.to_string()).collect()),
            env: Some(env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()),
        })
    }

    #[test]
    fn cg_on_path_is_started_as_lsp() {
        let c = server_command(None, Some("/usr/bin/cg".into()), vec![("HOME".into(), "/h".into())]).unwrap();
        assert_eq!(c.command, "/usr/bin/cg");
        assert_eq!(c.args, vec!["lsp".to_string()]);
        assert_eq!(c.env, vec![("HOME".to_string(), "/h".to_string())]);
    }

    #[test]
    fn settings_name_the_binary_and_its_arguments() {
        let configured = settings(Some("/opt/cg"), Some(&["lsp", "--project", "/p"]), &[]);
        let c = server_command(configured, Some("/usr/bin/cg".into()), vec![]).unwrap();
        assert_eq!(c.command, "/opt/cg");
        assert_eq!(c.args, vec!["lsp", "--project", "/p"]);
        // A path alone keeps the default arguments.
        let c = server_command(settings(Some("/opt/cg"), None, &[]), None, vec![]).unwrap();
        assert_eq!(c.args, vec!["lsp"]);
    }

    #[test]
    fn settings_env_overrides_the_shell_env() {
        let configured = settings(None, None, &[("CG_LOG", "1")]);
        let c = server_command(configured, Some("cg".into()), vec![("CG_LOG".into(), "0".into())]).unwrap();
        assert_eq!(c.env.last().unwrap(), &("CG_LOG".to_string(), "1".to_string()));
    }

    #[test]
    fn no_cg_anywhere_says_what_to_do() {
        let e = server_command(None, None, vec![]).unwrap_err();
        assert!(e.contains("not on PATH") && e.contains("lsp.codegraph.binary.path"), "{e}");
    }
}

//! Signatures served from the index, for the fixture of every language, against a
//! golden file read and checked by hand (`fixtures/signatures.golden`). Regenerate
//! with `UPDATE_GOLDEN=1 cargo test --test signatures_golden` and read the diff.

use std::fs;
use std::path::Path;
use std::process::Command;

#[test]
fn signatures_of_every_fixture_match_the_golden_file() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract");
    for lang in fs::read_dir(&src).unwrap().flatten() {
        for file in fs::read_dir(lang.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().to_string();
            if name.ends_with(".golden") {
                continue;
            }
            let to = dir.path().join(lang.file_name()).join(&name);
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::copy(file.path(), to).unwrap();
        }
    }
    let cg =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_cg")).args(args).current_dir(dir.path()).output().unwrap();
    assert!(cg(&["init"]).status.success());
    let out = cg(&["signatures", "--limit", "0"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let actual = String::from_utf8(out.stdout).unwrap();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/signatures.golden");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&golden, &actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&golden).unwrap_or_default();
    if expected != actual {
        fs::write(golden.with_extension("golden.actual"), &actual).unwrap();
        panic!("signatures differ from {} (see the .actual file)", golden.display());
    }
}

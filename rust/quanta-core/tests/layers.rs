//! The core's layers, read from its `use` lines: the registry is the top (nothing below it
//! imports it), the erased layer is used only by the registry, and no bot or game module
//! imports either: the games, solvers and bots are typed and reach a game's knowledge through
//! its type (`quanta_core::knowledge::Knowledge`). Test code (`tests.rs` files, `#[cfg(test)]`
//! modules) may use anything and is not read.

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every source file of the core below `dir`, with its path from `src/`.
fn files(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // What comes before the file's test module is its code; comments are not.
            let code: String = text
                .split("#[cfg(test)]\nmod tests {")
                .next()
                .unwrap_or("")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let name = path.strip_prefix(src()).unwrap().to_string_lossy().replace('\\', "/");
            out.push((name, code));
        }
    }
}

/// The files whose code names `module` (`crate::module`, or `use crate::{..module..}`).
fn importers(module: &str) -> Vec<String> {
    let mut all = Vec::new();
    files(&src(), &mut all);
    let path = format!("crate::{module}");
    all.into_iter()
        .filter(|(_, code)| {
            code.contains(&path)
                || code
                    .lines()
                    .any(|l| l.trim_start().starts_with("use crate::{") && l.contains(module))
        })
        .map(|(name, _)| name)
        .collect()
}

/// The game modules: one folder a registered game.
fn game_folders() -> Vec<String> {
    quanta_core::registry::game_names()
        .into_iter()
        .map(|g| format!("{g}/"))
        .collect()
}

#[test]
fn nothing_below_the_registry_imports_it() {
    let importers = importers("registry");
    assert!(importers.is_empty(), "these import the registry: {importers:?}");
}

#[test]
fn only_the_registry_uses_the_erased_layer() {
    let importers = importers("erased");
    assert_eq!(importers, ["registry.rs"], "the erased layer's users");
}

#[test]
fn no_game_or_bot_module_imports_the_registry_or_the_erased_layer() {
    let mut typed = game_folders();
    typed.extend(["bots/".to_string(), "knowledge.rs".into(), "solver.rs".into()]);
    let mut all = Vec::new();
    files(&src(), &mut all);
    let mut checked = 0;
    for (name, code) in all {
        if typed.iter().any(|t| name.starts_with(t.as_str())) {
            checked += 1;
            for layer in ["registry", "erased"] {
                assert!(
                    !code.contains(&format!("crate::{layer}")),
                    "{name} imports the {layer} layer"
                );
            }
        }
    }
    assert!(checked > 20, "read only {checked} game and bot files");
}

#[test]
fn the_only_downcast_is_the_erased_layers() {
    let mut all = Vec::new();
    files(&src(), &mut all);
    let downcasting: Vec<String> = all
        .into_iter()
        .filter(|(_, code)| code.contains("downcast"))
        .map(|(name, _)| name)
        .collect();
    assert_eq!(downcasting, ["erased.rs"]);
}

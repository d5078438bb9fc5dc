use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .emit_rerun_directives(true)
        .process()
        .expect("LALRPOP grammar failed to build");
    link_libstdcxx_statically();
    record_git_hash();
}

/// `NVP4C_GIT_HASH` for `nvp4c --version`: the commit of a git checkout,
/// or empty where there is none (a crates.io package, a source tarball)
/// or no `git` to ask. A packager may set `NVP4C_GIT_HASH` itself.
fn record_git_hash() {
    println!("cargo:rerun-if-env-changed=NVP4C_GIT_HASH");
    let hash = env::var("NVP4C_GIT_HASH")
        .ok()
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_default();
    // Build again when HEAD moves: HEAD itself (a branch switch), the
    // branch's ref (a commit) and packed-refs. Only files that exist are
    // named: cargo reruns a build script on every build for a missing one.
    let git_path = |name: &str| git(&["rev-parse", "--git-path", name]).map(PathBuf::from);
    let mut watched = vec![git_path("HEAD"), git_path("packed-refs")];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git_path(&branch));
    }
    let here = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    for path in watched.into_iter().flatten() {
        let path = here.join(path);
        if path.is_file() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rustc-env=NVP4C_GIT_HASH={hash}");
}

/// `git ARGS` in the package's directory: its trimmed output, or `None`.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env::var_os("CARGO_MANIFEST_DIR")?)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// SPIRV-Tools (the validator and optimiser, C++) asks for `-lstdc++`.
/// Linked dynamically, the loader resolves ~2 000 libstdc++ symbols at every
/// start, which is most of a short `nvp4c` run (docs/performance.md,
/// "Start-up"). Putting a directory that holds only `libstdc++.a` ahead of
/// the system's on the search path makes that same `-lstdc++` pick the
/// archive, without rebuilding SPIRV-Tools. Set `NVP4C_DYNAMIC_LIBSTDCXX=1`
/// to keep the shared library (e.g. where no `libstdc++.a` is installed,
/// which is also detected).
fn link_libstdcxx_statically() {
    println!("cargo:rerun-if-env-changed=NVP4C_DYNAMIC_LIBSTDCXX");
    println!("cargo:rerun-if-env-changed=CXX");
    if env::var_os("NVP4C_DYNAMIC_LIBSTDCXX").is_some_and(|v| v != "0") {
        return;
    }
    let target = env::var("TARGET").unwrap_or_default();
    if !target.ends_with("-linux-gnu") || env::var("HOST").ok() != Some(target) {
        return;
    }
    let Some(archive) = find_libstdcxx_archive() else {
        return;
    };
    let dir =
        PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("static-libstdcxx");
    let link = dir.join("libstdc++.a");
    let _ = std::fs::remove_file(&link);
    if std::fs::create_dir_all(&dir).is_err()
        || std::os::unix::fs::symlink(&archive, &link).is_err()
    {
        return;
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
}

fn find_libstdcxx_archive() -> Option<PathBuf> {
    let compiler = env::var("CXX").unwrap_or_else(|_| "c++".to_owned());
    let out = Command::new(compiler)
        .arg("-print-file-name=libstdc++.a")
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // Without the archive the compiler echoes the bare name back.
    (path.is_absolute() && Path::new(&path).is_file()).then_some(path)
}

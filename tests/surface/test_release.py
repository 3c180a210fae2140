"""The release workflow (.github/workflows/release.yml) cannot run here, so its shape is checked:
a wheel for each platform users are on, each installed and smoke-tested on its own runner, the
sdist, and a publish job that only a version tag starts and that needs no stored token. The
checks that CI runs locally (.ci/run, .ci/wheel) are held to the same script."""

from __future__ import annotations

import os
import pathlib
import platform
import re
import subprocess
import sys
import zipfile

import pytest

yaml = pytest.importorskip("yaml")

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"

#: The wheels users need: (os, target) as the workflow's matrix names them.
PLATFORMS = {("linux", "x86_64"), ("linux", "aarch64"), ("macos", "x86_64"),
             ("macos", "aarch64"), ("windows", "x64")}


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def steps(job: dict) -> list[dict]:
    return job["steps"]


def uses(job: dict, action: str) -> list[int]:
    """The indices of ``job``'s steps that use ``action`` (any version)."""
    return [i for i, step in enumerate(steps(job)) if step.get("uses", "").split("@")[0] == action]


def runs(job: dict, text: str) -> list[int]:
    return [i for i, step in enumerate(steps(job)) if text in step.get("run", "")]


def test_a_wheel_for_every_platform():
    matrix = workflow()["jobs"]["wheels"]["strategy"]["matrix"]["include"]
    built = {(entry["os"], entry["target"]) for entry in matrix}
    assert PLATFORMS <= built, f"missing: {sorted(PLATFORMS - built)}"
    for entry in matrix:
        # The wheel is smoke-tested where it was built: the runner is the platform itself.
        assert entry["runner"].startswith({"linux": "ubuntu", "macos": "macos",
                                           "windows": "windows"}[entry["os"]]), entry
        if entry["os"] == "linux":
            assert entry["manylinux"] == "2014", entry   # glibc 2.17: the oldest Rust supports
            assert (entry["target"] == "aarch64") == entry["runner"].endswith("-arm"), entry


def test_each_wheel_is_built_by_maturin_then_installed_and_run():
    job = workflow()["jobs"]["wheels"]
    [build] = uses(job, "PyO3/maturin-action")
    assert "--release" in steps(job)[build]["with"]["args"]
    assert "${{ matrix.target }}" in steps(job)[build]["with"]["target"]
    [check] = runs(job, ".ci/wheel dist/")
    assert check > build
    [upload] = uses(job, "actions/upload-artifact")
    assert upload > check


def test_the_sdist_is_built_and_a_wheel_from_it_runs():
    job = workflow()["jobs"]["sdist"]
    [build] = uses(job, "PyO3/maturin-action")
    assert steps(job)[build]["with"]["command"] == "sdist"
    [check] = runs(job, ".ci/wheel ")
    assert check > build and "maturin build --release" in steps(job)[check]["run"]


def test_only_a_version_tag_publishes_and_no_token_is_stored():
    flow = workflow()
    triggers = flow.get("on", flow.get(True))   # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["tags"] == ["v*"]
    job = flow["jobs"]["publish"]
    assert job["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert set(job["needs"]) == {"wheels", "sdist"}
    assert job["permissions"]["id-token"] == "write"   # trusted publishing
    [publish] = uses(job, "pypa/gh-action-pypi-publish")
    assert not {"password", "user"} & set(steps(job)[publish].get("with", {}))
    assert "secrets." not in WORKFLOW.read_text()
    # The tag is checked against the version where it is kept, before anything is published.
    [version] = runs(job, '"Cargo.toml"')
    assert "GITHUB_REF_NAME#v" in steps(job)[version]["run"]
    [page] = runs(job, "gh release create")
    assert version < page < publish


def test_ci_runs_the_wheel_check_after_the_readme_test_command():
    run = (ROOT / ".ci" / "run").read_text().splitlines()
    readme = next(i for i, line in enumerate(run) if line.startswith("pip install '.[test]'"))
    assert ".ci/wheel" in run[readme + 1:]
    assert os.access(ROOT / ".ci" / "wheel", os.X_OK)


@pytest.mark.parametrize("failing", ["pip", "pytest", "cargo"])
def test_ci_stops_red_when_a_step_of_the_test_command_fails(tmp_path, failing):
    # .ci/run with the test command's tools standing in, one of them failing: CI must end with
    # that failure and never reach the wheel check (whose success would turn it green).
    ci = tmp_path / ".ci"
    ci.mkdir()
    (ci / "run").write_text((ROOT / ".ci" / "run").read_text())
    (ci / "wheel").write_text("#!/bin/sh\necho wheel >>log\n")
    fake = tmp_path / "bin"
    fake.mkdir()
    for tool in ("pip", "pytest", "cargo"):
        (fake / tool).write_text(f"#!/bin/sh\necho {tool} >>log\n"
                                 + ("exit 3\n" if tool == failing else ""))
    for script in [ci / "wheel", *fake.iterdir()]:
        script.chmod(0o755)
    done = subprocess.run(["bash", str(ci / "run")], cwd=tmp_path, capture_output=True,
                          env={"PATH": f"{fake}:/usr/bin:/bin"}, timeout=60)
    calls = (tmp_path / "log").read_text().split()
    assert done.returncode == 3 and calls[-1] == failing and "wheel" not in calls, (done, calls)


def test_the_sdist_holds_the_build_settings_outside_the_crates():
    # cargo reads .cargo/ from the directory it builds in; maturin's sdist packs only the
    # crates, python/ and the README unless pyproject.toml includes more.
    tomllib = pytest.importorskip("tomllib")   # Python 3.11
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["maturin"]
    included = {item["path"] for item in settings.get("include", [])
                if item.get("format") in ("sdist", None, ["sdist"])}
    needed = {p.relative_to(ROOT).as_posix() for p in (ROOT / ".cargo").rglob("*") if p.is_file()}
    assert needed and needed <= included, sorted(needed - included)


def wheel_check(wheel: pathlib.Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(sys.executable),
                                                 os.environ.get("PATH", "")]))
    return subprocess.run(["bash", str(ROOT / ".ci" / "wheel"), str(wheel)], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(platform.system() != "Linux", reason="the manylinux tag is Linux's")
def test_the_wheel_check_refuses_a_wheel_without_the_manylinux_tag(tmp_path):
    # What a build without maturin's compliance check gives (`pip wheel .`): a plain linux tag.
    wheel = tmp_path / f"quanta_games-0.1.0-cp310-abi3-linux_{platform.machine()}.whl"
    wheel.write_bytes(b"")
    done = wheel_check(wheel)
    assert done.returncode == 1 and "not a wheel of the form" in done.stderr, done


@pytest.mark.skipif(platform.system() != "Linux", reason="the manylinux tag is Linux's")
def test_the_wheel_check_refuses_a_wheel_that_needs_more_than_the_core(tmp_path):
    wheel = tmp_path / f"quanta_games-0.1.0-cp310-abi3-manylinux_2_17_{platform.machine()}.whl"
    requires = ["numpy>=1.24", "click>=8.1", "tqdm>=4.60", "pyarrow>=15",
                "pytest>=7 ; extra == 'test'"]
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("quanta_games-0.1.0.dist-info/METADATA", "".join(
            f"Requires-Dist: {r}\n" for r in requires))
    done = wheel_check(wheel)
    assert done.returncode == 1 and "the wheel requires ['click', 'numpy', 'pyarrow', 'tqdm']" \
        in done.stderr, done


@pytest.mark.skipif(platform.system() != "Linux", reason="the manylinux tag is Linux's")
def test_the_wheel_check_refuses_a_wheel_of_another_name(tmp_path):
    # `quanta` on PyPI is another project: a wheel still named so is refused.
    wheel = tmp_path / f"quanta-0.1.0-cp310-abi3-manylinux_2_17_{platform.machine()}.whl"
    wheel.write_bytes(b"")
    done = wheel_check(wheel)
    assert done.returncode == 1 and "not a wheel of the form quanta_games-" in done.stderr, done


# ---- the release's identity: one name, one version, the license, the changelog, the citation ----

tomllib = pytest.importorskip("tomllib")   # Python 3.11


def cargo_version() -> str:
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["version"]


def test_the_version_is_kept_in_cargo_toml_alone():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]
    for crate in (ROOT / "rust").glob("*/Cargo.toml"):
        package = tomllib.loads(crate.read_text())["package"]
        assert package["version"] == {"workspace": True}, crate
    assert "__version__ = \"" not in (ROOT / "python" / "quanta" / "__init__.py").read_text()


def test_quanta_knows_its_version_and_distribution():
    import importlib.metadata

    import quanta
    assert project_name() == quanta.DISTRIBUTION == "quanta-games"
    try:   # installed (CI): the metadata maturin wrote; else the checkout's Cargo.toml
        installed = importlib.metadata.version(quanta.DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        installed = cargo_version()
    assert quanta.__version__ == installed == cargo_version()


def project_name() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]


def test_the_changelog_and_the_citation_name_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", changelog, re.M)
    assert releases[0] == ("Unreleased", ""), releases   # Keep a Changelog: newest first
    version, date = releases[1]
    assert version == cargo_version() and date, releases
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors"} <= set(citation)
    assert citation["version"] == version and str(citation["date-released"]) == date
    assert citation["license"] == "MIT"


def notes_step() -> str:
    [step] = runs(workflow()["jobs"]["publish"], "CHANGELOG.md")
    return steps(workflow()["jobs"]["publish"])[step]["run"]


def test_the_release_notes_are_the_versions_changelog_entry(tmp_path):
    # The publish job's step, run on the real CHANGELOG: the entry of the version, and a
    # failure for a version the changelog has no entry for.
    (tmp_path / "CHANGELOG.md").write_text((ROOT / "CHANGELOG.md").read_text())
    script = notes_step()
    done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, text=True,
                          capture_output=True, env=dict(os.environ, GITHUB_REF_NAME="v" + cargo_version()))
    assert done.returncode == 0, done
    notes = (tmp_path / "notes.md").read_text()
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert notes.strip() and notes.strip() in changelog and "### " in notes
    assert not re.search(r"^## ", notes, re.M)   # the next version's entry is left out
    done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, text=True,
                          capture_output=True, env=dict(os.environ, GITHUB_REF_NAME="v9.9.9"))
    assert done.returncode != 0 and "no entry for 9.9.9" in done.stderr, done


def test_the_publish_job_uploads_only_quanta_games_files_of_the_tagged_version(tmp_path):
    job = workflow()["jobs"]["publish"]
    [check] = runs(job, "quanta_games-")
    [publish] = uses(job, "pypa/gh-action-pypi-publish")
    assert check < publish
    script = steps(job)[check]["run"]

    def passes(*files: str) -> bool:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        (folder / "dist").mkdir(parents=True)
        for name in files:
            (folder / "dist" / name).write_bytes(b"")
        return subprocess.run(["bash", "-e", "-c", script], cwd=folder, capture_output=True,
                              env=dict(os.environ, GITHUB_REF_NAME="v0.1.0")).returncode == 0

    wheel = "quanta_games-0.1.0-cp310-abi3-manylinux_2_17_x86_64.whl"
    assert passes(wheel, "quanta_games-0.1.0.tar.gz")
    assert not passes(wheel, "quanta-0.1.0.tar.gz")
    assert not passes("quanta_games-0.1.1-cp310-abi3-win_amd64.whl")
    assert job["environment"]["url"] == f"https://pypi.org/project/{project_name()}/"


def test_the_license_is_mit_and_credits_every_games_designer():
    import quanta
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License\n\nCopyright (c) ")
    assert "the quanta authors" in license_text.splitlines()[2]
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == {
        "text": "MIT"}
    for game in quanta.GAMES:
        page = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
        title = page.splitlines()[0].removeprefix("# ")
        assert f"- {title}:" in license_text, title
        # The designer the rules page names in its opening ("... by Mal Jones (2011)").
        opening = page.split("\n\n")[1]
        for designer in re.findall(r"\bby ((?:[A-ZÀ-Þ][\w-]+ ?){2,3})", opening):
            assert designer.strip() in license_text, (game, designer)


def test_no_file_of_the_repository_points_outside_it():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    shared = "shared"   # (spelt apart, so that this file does not match itself)
    outside = re.compile(rf"/work/{shared}|\.\./{shared}\b")
    hits = [name for name in tracked.stdout.splitlines()
            if (ROOT / name).is_file() and (ROOT / name).suffix not in {".so", ".parquet"}
            and outside.search((ROOT / name).read_text(errors="replace"))]
    assert hits == []

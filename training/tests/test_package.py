"""The package's shape: no import circle (config imports nothing of the package but its errors), no
sys.exit in its library code, errors as exceptions the commands turn into a message and status 1, and
requirements.txt the same as pyproject.toml's dependencies."""
import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from miccheck_train import cli
from miccheck_train.commands import fold_corpus, mix_probe
from miccheck_train.config import Config
from miccheck_train.dataset import checked
from miccheck_train.errors import ConfigError, DataError, TrainingError

TRAINING = Path(__file__).resolve().parents[1]
PACKAGE = TRAINING / "miccheck_train"


def package_imports(path):
    """The package's modules `path` imports (relative imports, by name)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            names |= {node.module} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("miccheck_train"):
            names.add(node.module.split(".")[1])
    return names


def test_config_imports_nothing_of_the_package_but_its_errors():
    assert package_imports(PACKAGE / "config.py") == {"errors"}
    assert package_imports(PACKAGE / "errors.py") == set()


def test_no_import_circle():
    modules = {p.stem: package_imports(p) for p in PACKAGE.glob("*.py")}

    def reaches(start, seen=()):
        for m in modules.get(start, ()):
            if m in seen:
                continue
            yield m
            yield from reaches(m, (*seen, m))
    for name in modules:
        assert name not in set(reaches(name)), f"{name} imports itself through others"


def test_library_code_never_exits():
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "exit" and getattr(node.value, "id", "") == "sys":
                # Only the commands' `if __name__ == "__main__": sys.exit(main())`.
                assert path.parent.name == "commands", f"{path.name}:{node.lineno} calls sys.exit"


def test_requirements_are_the_dependencies():
    project = tomllib.loads((TRAINING / "pyproject.toml").read_text())["project"]
    lines = [line.strip() for line in (TRAINING / "requirements.txt").read_text().splitlines()]
    assert [line for line in lines if line and not line.startswith("#")] == project["dependencies"]


def test_config_checks_ranges_without_reading_files():
    Config(corpus_voices=1, corpus_voices_from="/nonexistent", teachers=["/nonexistent.json"],
           more_speech="/nonexistent", init="/nonexistent.json").checked()
    with pytest.raises(ConfigError, match="--lookahead must be 0...3"):
        Config(lookahead=4).checked()
    with pytest.raises(ConfigError, match="--quiet-dbfs"):
        Config(quiet_dbfs=[-30, -40]).checked()


def test_dataset_checks_the_files(tmp_path):
    base = dict(more_speech="none", more_noise="none")
    with pytest.raises(DataError, match="--teachers: no such model file"):
        checked(Config(**base, teachers=[str(tmp_path / "no.json")]))
    with pytest.raises(DataError, match="--corpus-voices: no clean or quiet speech"):
        checked(Config(**base, corpus_voices=1, corpus_voices_from=str(tmp_path)))
    with pytest.raises(DataError, match="--more-speech: .* holds no speech/ folder"):
        checked(Config(more_speech=str(tmp_path), more_noise="none"))
    (tmp_path / "init.json").write_text("{}")
    with pytest.raises(DataError, match="is not a readable MicCheck voice model"):
        checked(Config(**base, init=str(tmp_path / "init.json")))
    assert checked(Config(**base)).lookahead == 3


def test_commands_turn_errors_into_a_message_and_status_1(capsys):
    def fails(argv):
        raise DataError(f"nothing in {argv}")
    assert cli.main(fails, "x") == 1 == TrainingError.status
    assert capsys.readouterr().err == "nothing in x\n"
    assert cli.main(lambda argv: None, []) == 0
    assert mix_probe.main(["/nonexistent/voice.wav", "/nonexistent/noise.wav"]) == 1
    assert "no labels" in capsys.readouterr().err
    assert fold_corpus.main(["--out-corpus", "/nonexistent", "--lookahead", "5"]) == 1
    assert "--lookahead must be 0...3" in capsys.readouterr().err


def test_the_wrappers_run_the_commands():
    for name in ("train_vad", "fold_corpus", "tune_events", "feature_auc", "mix_probe"):
        done = subprocess.run([sys.executable, str(TRAINING / f"{name}.py"), "--help"], capture_output=True, text=True)
        assert done.returncode == 0 and "usage:" in done.stdout, (name, done.stderr)
    done = subprocess.run([sys.executable, str(TRAINING / "mix_probe.py"), "/nonexistent.wav", "/nonexistent.wav"],
                          capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.strip() == "/nonexistent.wav: no labels (/nonexistent.json is missing)"

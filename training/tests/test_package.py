"""The package's shape: no import circle (config imports nothing of the package but its errors), no
sys.exit, print or __file__ in its library code (progress goes through logging), errors as exceptions the
commands turn into a message and status 1, and requirements.txt the same as pyproject.toml's dependencies."""
import argparse
import ast
import logging
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from miccheck_train import cli, progress
from miccheck_train.commands import fold_corpus, mix_probe
from miccheck_train.config import Config
from miccheck_train.dataset import checked, write_fold_corpus
from miccheck_train.errors import DataError, TrainingError
from miccheck_train.records import Group, Mixture

TRAINING = Path(__file__).resolve().parents[1]
PACKAGE = TRAINING / "miccheck_train"
# The library: every module but the commands and their shell, which alone may print.
LIBRARY = [p for p in PACKAGE.rglob("*.py") if p.parent.name != "commands" and p.name != "cli.py"]


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
    assert package_imports(PACKAGE / "records.py") == set() == package_imports(PACKAGE / "progress.py")


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


def calls(path, name):
    """The lines of `path` that call the function `name` (a bare name: print, not a method)."""
    return [node.lineno for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == name]


def test_library_code_never_prints():
    assert {p.name for p in LIBRARY} >= {"mixtures.py", "dataset.py", "train.py", "model.py", "progress.py"}
    for path in LIBRARY:
        assert not calls(path, "print"), f"{path.name} prints (lines {calls(path, 'print')}): log instead"
    assert calls(PACKAGE / "cli.py", "print")   # the check sees a print where there is one


def test_no_default_lies_where_the_code_is():
    for path in PACKAGE.rglob("*.py"):
        names = {node.id for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Name)}
        assert "__file__" not in names, f"{path.name} reads __file__"


def test_library_logs_progress_on_the_package_logger(tmp_path, caplog, capsys):
    mixes = [Mixture(np.zeros(1600), [], Group(noises=("held",)), scenario="noise_only"),
             Mixture(np.zeros(1600), [[0.0, 0.05]], Group("voice", ("kept",)), scenario="snr")]
    with caplog.at_level(logging.INFO, logger="miccheck_train"):
        write_fold_corpus(str(tmp_path), mixes, {"held"})
    assert [(r.name, r.levelno) for r in caplog.records] == [("miccheck_train.dataset", logging.INFO)]
    assert caplog.records[0].getMessage() == f"fold corpus: 1 mixtures of held-out sources in {tmp_path}"
    assert capsys.readouterr() == ("", "")   # nothing printed: the commands' logging shows it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["noise_only_00000_held.json", "noise_only_00000_held.wav"]


def test_commands_log_on_stderr_at_info_and_quiet_hides_progress(package_log, capsys, monkeypatch):
    ap = cli.logging_options(argparse.ArgumentParser())
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    cli.start_logging(ap.parse_args([]))
    logging.getLogger("miccheck_train.train").info("epoch 1")
    logging.getLogger("miccheck_train.train").debug("details")
    assert capsys.readouterr() == ("", "epoch 1\n")
    with progress.bar(total=3) as drawn:
        assert progress.shown() and not drawn.disable
    assert "0/3" in capsys.readouterr().err   # a bar on the "terminal"
    cli.start_logging(ap.parse_args(["-v"]))   # replaces its handler: each message once
    logging.getLogger("miccheck_train.model").debug("details")
    assert capsys.readouterr().err == "details\n"
    cli.start_logging(ap.parse_args(["--quiet"]))
    logging.getLogger("miccheck_train.train").info("epoch 2")
    logging.getLogger("miccheck_train.train").warning("careful")
    assert capsys.readouterr() == ("", "careful\n")
    assert not progress.shown() and progress.bar(range(3)).disable
    assert list(progress.bar(range(3))) == [0, 1, 2]


def test_no_bars_where_stderr_is_not_a_terminal(package_log, monkeypatch):
    cli.start_logging(cli.logging_options(argparse.ArgumentParser()).parse_args([]))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not progress.shown() and progress.bar(range(3)).disable


def requirement_names(requirements):
    return {re.split(r"[<>=!~\[ ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_requirements_are_the_dependencies():
    project = tomllib.loads((TRAINING / "pyproject.toml").read_text())["project"]
    lines = [line.strip() for line in (TRAINING / "requirements.txt").read_text().splitlines()]
    assert [line for line in lines if line and not line.startswith("#")] == project["dependencies"]
    assert "tqdm" in requirement_names(project["dependencies"])


def test_the_light_environment_has_the_test_extra():
    """scripts/training-tests.sh installs every package of the `test` extra (the modules import tqdm)."""
    test = requirement_names(tomllib.loads((TRAINING / "pyproject.toml").read_text())["project"]
                             ["optional-dependencies"]["test"])
    script = (TRAINING.parent / "scripts" / "training-tests.sh").read_text()
    installed = {w.lower() for line in script.splitlines() if "pip install -q " in line and "-e training" not in line
                 for w in line.split("pip install -q ", 1)[1].split() if not w.startswith("-")}
    assert "tqdm" in test and test <= installed, test - installed
    assert "tqdm" in script.split("import ", 1)[1].split('"', 1)[0]   # and checks for it before it runs


def test_dataset_checks_the_files(tmp_path):
    base = dict(more_speech="none", more_noise="none")
    with pytest.raises(DataError, match="--teachers: no such model file"):
        checked(Config.of(**base, teachers=[str(tmp_path / "no.json")]))
    with pytest.raises(DataError, match="--corpus-voices: no clean or quiet speech"):
        checked(Config.of(**base, corpus_voices=1, corpus_voices_from=str(tmp_path)))
    with pytest.raises(DataError, match="--more-speech: .* holds no speech/ folder: build it with python3 /s/train"):
        checked(Config.of(more_speech=str(tmp_path), more_noise="none", shared="/s"))
    (tmp_path / "init.json").write_text("{}")
    with pytest.raises(DataError, match="is not a readable MicCheck voice model"):
        checked(Config.of(**base, init=str(tmp_path / "init.json")))
    assert checked(Config.of(**base)).model.lookahead == 3


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

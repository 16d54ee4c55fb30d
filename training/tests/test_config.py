"""The run's settings: every option of train_vad.py in its group with the default it always had, --help in
argument groups, every range `Config.checked` refuses, and the paths' defaults taken at run time from the
MicCheck checkout (--checkout, $MICCHECK_CHECKOUT, or the nearest one at or above the current folder)."""
import argparse
import os
import re
import subprocess
import sys

import pytest

from miccheck_train.commands import feature_auc, fold_corpus, mix_probe, train_vad, tune_events
from miccheck_train.config import (CHECKOUT_ENV, RECIPES, Config, find_checkout, from_arguments, from_command_line,
                                   option_groups, parser)
from miccheck_train.errors import ConfigError

from conftest import REPO

# Every option of train_vad.py, by group, with the default it had before the groups (the paths that lie in
# the checkout are None until `Config.resolved`: OLD_PATHS below).
DEFAULTS = {
    "paths": {"checkout": None, "shared": None, "binary": None, "more_speech": os.path.join(RECIPES, "more_speech"),
              "more_noise": os.path.join(RECIPES, "more_noise"), "cache": None, "keep_epochs": None, "out": None},
    "material": {"espeak": 160, "espeak_short": 0, "textures": 0, "noisy_speech": 0, "raise_pitch": 0.0, "babble": 0,
                 "flite": 0, "formants": 0, "effort": 0, "corpus_voices": 0, "corpus_voices_from": None,
                 "corpus_hold": None, "more_speech_mixtures": 2, "more_noise_variants": 4, "nonverbal": False,
                 "telephone": 0.12, "lofi": 0.08, "long_sessions": 0, "redraw": 0, "quiet_dbfs": [-55, -38],
                 "noise_variants": 6, "voice_effects": 0.3},
    "validation": {"fold": "A", "split_seed": 7, "no_validation": False, "fold_corpus": None, "corpus": None},
    "teacher": {"distill": 0.5, "distill_speech": None, "distill_silence": None, "teachers": None,
                "teacher_share": 0.5, "teacher_hears": "level", "label_onsets": 0, "label_offsets": 0},
    "model": {"features": 50, "dense": 32, "hidden": 48, "lookahead": 3, "init": None},
    "training": {"seed": 8, "threads": 1, "epochs": 20, "lr": 3e-3, "noise_weight": 3.0, "hard_negatives": 0.0,
                 "floor_shrink": 0.0, "group_dropout": 0.0, "level_jitter": 0.0, "aux_snr": 0.0,
                 "stream_frames": 3000},
}
# --shared, --binary and --out as they were computed from where the code lay (in this checkout).
OLD_PATHS = {"shared": os.path.join(REPO, "..", "shared"),
             "binary": os.path.join(REPO, ".build", "release", "miccheck"),
             "out": os.path.join(REPO, "Sources", "MicCheck", "Resources", "VoiceActivityModel.json")}


def test_every_option_is_in_its_group_with_its_old_default():
    assert option_groups() == {name: group for group, options in DEFAULTS.items() for name in options}
    cfg = from_arguments(parser().parse_args([]))
    for group, options in DEFAULTS.items():
        for name, default in options.items():
            value = getattr(getattr(cfg, group), name)
            assert value == default and type(value) is type(default), (group, name, value)
    assert cfg == Config() and cfg.options() == {n: d for options in DEFAULTS.values() for n, d in options.items()}


def another_value(action):
    """Command-line words that set `action`'s option to something other than its default, and the value."""
    if isinstance(action, argparse._StoreTrueAction):
        return [], True
    if action.nargs == 2:
        return ["-60", "-30"], [-60.0, -30.0]
    if action.nargs == "+":
        return ["a", "b"], ["a", "b"]
    if action.choices:
        value = [c for c in action.choices if c != action.default][-1]
        return [value], value
    kind = action.type or str
    value = {int: 5, float: 0.25, str: "/somewhere"}[kind]
    assert value != action.default
    return [str(value)], value


def test_every_option_parses_into_its_group():
    argv, expected = [], {}
    for action in parser()._actions:
        if action.dest != "help":
            words, expected[action.dest] = another_value(action)
            argv += [action.option_strings[0], *words]
    assert len(expected) == sum(len(options) for options in DEFAULTS.values())
    cfg = from_arguments(parser().parse_args(argv))
    for group, options in DEFAULTS.items():
        for name in options:
            value = getattr(getattr(cfg, group), name)
            assert value == expected[name] and type(value) is type(expected[name]), (group, name, value)


def test_help_shows_the_options_in_their_groups(tmp_path):
    # From outside any checkout, as the installed package runs: --help needs none.
    env = {k: v for k, v in os.environ.items() if k != CHECKOUT_ENV}
    done = subprocess.run([sys.executable, str(REPO / "training" / "train_vad.py"), "--help"], cwd=tmp_path,
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    titles = re.findall(r"^(\w+):$", done.stdout, re.M)
    assert titles == ["options", *DEFAULTS, "output"]
    sections = dict(zip(titles, re.split(r"^\w+:$", done.stdout, flags=re.M)[1:]))
    for group, options in DEFAULTS.items():
        flags = re.findall(r"^  (--[a-z-]+)", sections[group], re.M)
        assert sorted(flags) == sorted("--" + name.replace("_", "-") for name in options), group
    assert re.findall(r"^  (-\w, --\w+)", sections["output"], re.M) == ["-q, --quiet", "-v, --verbose"]


# Each range `Config.checked` refuses: options by name, and the start of what it says.
OUT_OF_RANGE = [
    ({"distill": 1.5}, "--distill, --distill-speech and --distill-silence must be 0...1"),
    ({"distill_speech": -0.1}, "--distill, --distill-speech and --distill-silence must be 0...1"),
    ({"distill": 0.0, "distill_silence": 0.2}, "--distill-speech and --distill-silence need --distill above 0"),
    ({"teachers": ["a.json"], "distill": 0.0}, "--teachers needs --distill above 0"),
    ({"teachers": ["a.json"], "teacher_share": 1.5}, "--teachers needs --distill above 0"),
    ({"raise_pitch": 0.5}, "--raise-pitch is a share"),
    ({"raise_pitch": 1.5, "noisy_speech": 1}, "--raise-pitch is a share"),
    ({"corpus_hold": ["x"]}, "--corpus-hold names voices"),
    ({"label_onsets": -1}, "--label-onsets and --label-offsets must be 0 or more"),
    ({"label_offsets": -1}, "--label-onsets and --label-offsets must be 0 or more"),
    ({"effort": -1}, "--effort and --formants are counts"),
    ({"formants": -1}, "--effort and --formants are counts"),
    ({"level_jitter": 41.0}, "--level-jitter is in dB"),
    ({"group_dropout": 1.0}, "--group-dropout is a probability"),
    ({"aux_snr": -0.5}, "--aux-snr is a weight"),
    ({"flite": -1}, "--flite is a count"),
    ({"redraw": -1}, "--redraw is a count"),
    ({"long_sessions": -1}, "--long-sessions is a count"),
    ({"stream_frames": 0}, "--long-sessions is a count"),
    ({"floor_shrink": 1.5}, "--floor-shrink is a share"),
    ({"telephone": 0.6, "lofi": 0.5}, "--telephone and --lofi are shares"),
    ({"lofi": -0.1}, "--telephone and --lofi are shares"),
    ({"more_speech_mixtures": -1}, "--more-speech-mixtures and --more-noise-variants are counts"),
    ({"more_noise_variants": -1}, "--more-speech-mixtures and --more-noise-variants are counts"),
    ({"lr": 0.0}, "--lr must be above 0"),
    ({"features": 48}, "--features must be 50, or 47"),
    ({"quiet_dbfs": [-30.0, -40.0]}, "--quiet-dbfs: give LO < HI"),
    ({"quiet_dbfs": [-95.0, -40.0]}, "--quiet-dbfs: give LO < HI"),
    ({"lookahead": 4}, "--lookahead must be 0...3"),
]


@pytest.mark.parametrize("options, message", OUT_OF_RANGE)
def test_config_refuses_each_range(options, message):
    with pytest.raises(ConfigError, match="^" + re.escape(message)):
        Config.of(**options).checked()


def test_config_checks_ranges_without_reading_files():
    Config.of(corpus_voices=1, corpus_voices_from="/nonexistent", teachers=["/nonexistent.json"],
              more_speech="/nonexistent", init="/nonexistent.json").checked()
    edges = Config.of(group_dropout=0.99, level_jitter=40.0, telephone=0.5, lofi=0.5, features=47, lookahead=0,
                      quiet_dbfs=[-90.0, -20.0], distill=0.0, stream_frames=1, raise_pitch=1.0, noisy_speech=1)
    assert edges.checked() is edges
    with pytest.raises(ConfigError, match="--lookahead must be 0...3"):
        from_command_line(["--lookahead", "4", "--shared", "/s", "--binary", "/b", "--out", "/o.json"])


def test_config_of_names_the_options():
    cfg = Config.of(epochs=2, fold="B", teachers=["m.json"])
    assert (cfg.training.epochs, cfg.validation.fold, cfg.teacher.teachers) == (2, "B", ["m.json"])
    assert Config.of(**cfg.options()) == cfg
    with pytest.raises(TypeError, match="no option epoch"):
        Config.of(epoch=2)


@pytest.fixture
def outside(tmp_path, monkeypatch):
    """The current folder a temporary one, outside any checkout, and no $MICCHECK_CHECKOUT."""
    monkeypatch.delenv(CHECKOUT_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert find_checkout() is None
    return tmp_path


def not_given(option, where):
    return (f"^{option} was not given, and no MicCheck checkout is at or above {re.escape(str(where))} to take its "
            f"default from: give {option}, or name the checkout \\(--checkout DIR or \\$MICCHECK_CHECKOUT\\)$")


def test_paths_default_to_the_checkout_the_current_folder_is_in(monkeypatch):
    monkeypatch.delenv(CHECKOUT_ENV, raising=False)
    monkeypatch.chdir(REPO / "training" / "tests")
    paths = from_command_line([]).paths
    assert paths.checkout == str(REPO)
    assert {name: getattr(paths, name) for name in OLD_PATHS} == OLD_PATHS
    assert from_command_line(["--shared", "/s", "--out", "o.json"]).paths.shared == "/s"   # given: kept


def test_outside_a_checkout_the_paths_must_be_given(outside):
    with pytest.raises(ConfigError, match=not_given("--shared", outside)):
        from_command_line([])
    with pytest.raises(ConfigError, match=not_given("--out", outside)):
        from_command_line(["--shared", "/s", "--binary", "/b"])
    paths = from_command_line(["--shared", "/s", "--binary", "/b", "--out", "/o.json"]).paths
    assert (paths.checkout, paths.shared, paths.binary, paths.out) == (None, "/s", "/b", "/o.json")
    # Only the paths a command needs: fold_corpus.py's mixtures need --shared alone.
    paths = Config.of(shared="/s").resolved("shared").paths
    assert (paths.shared, paths.binary, paths.out) == ("/s", None, None)


def test_the_checkout_can_be_named(outside, monkeypatch):
    paths = from_command_line(["--checkout", str(REPO)]).paths
    assert paths.checkout == str(REPO) and {name: getattr(paths, name) for name in OLD_PATHS} == OLD_PATHS
    monkeypatch.setenv(CHECKOUT_ENV, str(REPO))
    paths = from_command_line([]).paths
    assert paths.checkout == str(REPO) and {name: getattr(paths, name) for name in OLD_PATHS} == OLD_PATHS
    monkeypatch.setenv(CHECKOUT_ENV, str(outside))
    with pytest.raises(ConfigError, match=r"^\$MICCHECK_CHECKOUT: .* holds no MicCheck Package.swift$"):
        from_command_line([])
    assert from_command_line(["--checkout", str(REPO)]).paths.checkout == str(REPO)   # --checkout first
    with pytest.raises(ConfigError, match=r"^--checkout: .* holds no MicCheck Package.swift$"):
        from_command_line(["--checkout", str(outside)])


def test_the_nearest_micchecks_package_swift_is_the_checkout(outside, monkeypatch):
    (outside / "co" / "a" / "b").mkdir(parents=True)
    (outside / "co" / "Package.swift").write_text('let package = Package(\n    name: "MicCheck",\n)\n')
    (outside / "co" / "a" / "Package.swift").write_text('let package = Package(name: "Other")\n')
    monkeypatch.chdir(outside / "co" / "a" / "b")
    assert find_checkout() == str(outside / "co")
    assert from_command_line([]).paths.shared == os.path.join(outside / "co", "..", "shared")
    assert find_checkout(start=str(outside)) is None


@pytest.mark.parametrize("command, argv, option", [
    (train_vad, [], "--shared"), (fold_corpus, ["--out-corpus", "fold"], "--shared"), (feature_auc, [], "--split"),
    (tune_events, [], "--split"), (tune_events, ["--split", "s", "--binary", "b"], "--model"),
    (mix_probe, ["voice.wav", "noise.wav"], "--binary")])
def test_commands_outside_a_checkout_name_the_option_to_give(outside, capsys, command, argv, option):
    assert command.main(argv) == 1
    assert re.match(not_given(option, outside), capsys.readouterr().err.strip())
    assert not os.listdir(outside)   # nothing made


def test_tune_events_needs_the_checkout_for_score_py(outside, capsys):
    assert tune_events.main(["--split", "s", "--binary", "b", "--model", "m.json"]) == 1
    assert capsys.readouterr().err.startswith("tune_events.py scores as ../shared/bench/score.py does")


def test_the_installed_package_runs_from_anywhere(outside):
    """A command run as a module of the installed package, from a folder outside the checkout: without a
    checkout it names the option to give; with $MICCHECK_CHECKOUT it takes its defaults from there."""
    env = {k: v for k, v in os.environ.items() if k != CHECKOUT_ENV}
    probe = [sys.executable, "-m", "miccheck_train.commands.mix_probe", "voice.wav", "noise.wav"]
    done = subprocess.run(probe, capture_output=True, text=True, env=env)
    assert done.returncode == 1 and re.match(not_given("--binary", outside), done.stderr.strip()), done.stderr
    done = subprocess.run(probe, capture_output=True, text=True, env={**env, CHECKOUT_ENV: str(REPO)})
    assert done.returncode == 1 and done.stderr.strip() == "voice.wav: no labels (voice.json is missing)"

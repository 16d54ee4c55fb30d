"""The validation folds (`FOLDS`) hold out whole voices and noise packages, and no source is in two folds."""
import glob
import json
import os
from itertools import combinations

import pytest

from miccheck_train.config import Config, FOLDS, RECIPES
from miccheck_train.dataset import Dataset, held_parts
from miccheck_train.records import Group

# Groups as the mixtures have them: a voice folder, or a noise package (or two), or a voice over a noise.
GROUPS = [Group("drascula-it-01"), Group("drascula-it-02", ("ottd",)), Group("kajongg-male-1"),
          Group("kajongg-female-3", ("wesnoth-1.16-data",)), Group("fillets-nl-7", ("cube2-data",)),
          Group("nexuiz-electro", ("btanks-data",)), Group("warzone-sam", ("synthetic-pink",)),
          Group(noises=("openarena-ab",)), Group(noises=("unknown-horizons",)), Group(noises=("trigger-rally-data",)),
          Group(noises=("boswars-data", "qabcs-data")), Group("fotaq-joe", ("ottd",)),
          Group("espeak-de", ("synthetic-fan",)), Group(noises=("crowd",)), Group(noises=("texture",))]


def test_no_source_is_named_by_two_folds():
    for (a, prefixes_a), (b, prefixes_b) in combinations(FOLDS.items(), 2):
        for p in prefixes_a:
            for q in prefixes_b:
                assert not p.startswith(q) and not q.startswith(p), f"fold {a}'s {p} and fold {b}'s {q}"


def test_folds_hold_out_disjoint_voices_and_packages():
    held = {fold: held_parts(Config.of(fold=fold), GROUPS) for fold in FOLDS}
    for a, b in combinations(held, 2):
        assert not held[a] & held[b]
    assert held["A"] == {"drascula-it-01", "drascula-it-02", "kajongg-female-3", "wesnoth-1.16-data", "openarena-ab",
                         "btanks-data", "qabcs-data"}
    assert held["B"] == {"kajongg-male-1", "fillets-nl-7", "cube2-data", "nexuiz-electro", "warzone-sam",
                         "unknown-horizons", "trigger-rally-data", "boswars-data"}


def test_a_mixture_is_held_out_with_its_voice_or_its_noise():
    data = Dataset(X=[None] * len(GROUPS), Y=[], G=GROUPS, teacher=None, held=held_parts(Config.of(fold="A"), GROUPS))
    train, val = data.split(no_validation=False)
    held = [GROUPS[i] for i in val]
    assert Group("drascula-it-02", ("ottd",)) in held   # by its voice
    assert Group("nexuiz-electro", ("btanks-data",)) in held   # by its noise
    assert Group(noises=("boswars-data", "qabcs-data")) in held   # by its second noise
    assert Group("fotaq-joe", ("ottd",)) not in held and Group(noises=("crowd",)) not in held
    assert sorted(train + val) == list(range(len(GROUPS)))
    assert data.split(no_validation=True) == (list(range(len(GROUPS))), [])


def test_random_fold_is_drawn_by_the_split_seed():
    parts = sorted({p for g in GROUPS for p in g.parts})
    a = held_parts(Config.of(fold="random"), GROUPS)
    assert a == held_parts(Config.of(fold="random"), GROUPS) and a <= set(parts)
    assert len(a) == max(2, len(parts) // 12)


def recipe_sources():
    """The voice folders of more_speech and the noise packages of more_noise, where the recipes built them."""
    speech, noise = os.path.join(RECIPES, "more_speech", "speech"), os.path.join(RECIPES, "more_noise", "noise")
    if not (os.path.isdir(speech) and os.path.isdir(noise)):
        pytest.skip(f"the recipes' material is not built in {RECIPES}")
    packages = {json.load(open(j)).get("source_pkg", "?").split()[0] for j in glob.glob(os.path.join(noise, "*.json"))}
    return sorted(os.listdir(speech)), sorted(packages)


def test_every_fold_holds_out_real_voices_and_packages():
    voices, packages = recipe_sources()
    groups = [Group(v, (p,)) for v, p in zip(voices, packages * (len(voices) // max(1, len(packages)) + 1))]
    groups += [Group(v) for v in voices] + [Group(noises=(p,)) for p in packages]
    held = {fold: held_parts(Config.of(fold=fold), groups) for fold in FOLDS}
    for fold, parts in held.items():
        assert parts & set(voices), f"fold {fold} holds out no voice"
        assert parts & set(packages), f"fold {fold} holds out no noise package"
    for a, b in combinations(held, 2):
        assert not held[a] & held[b]

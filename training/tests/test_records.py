"""The material travels as records: a mixture's `Group` (its voice and its noises' packages, which the
validation split holds out), the `Mixture` itself, and the caches that keep the groups of analysed mixtures
(and read those written before the records)."""
import dataclasses

import numpy as np
import pytest

from miccheck_train.config import FEATURES, Config
from miccheck_train.dataset import cached
from miccheck_train.mixtures import channelled
from miccheck_train.records import Group, Mixture, Noise, Voice
from miccheck_train.train import loss_weights


def test_a_group_names_its_parts():
    voiced, noise = Group("fotaq-joe", ("ottd", "crowd")), Group(noises=("ottd",))
    assert voiced.parts == ("fotaq-joe", "ottd", "crowd") and voiced.name == "fotaq-joe|ottd|crowd"
    assert noise.voice is None and noise.parts == ("ottd",) and Group("fotaq-joe").parts == ("fotaq-joe",)
    assert Group.named(voiced.name, True) == voiced and Group.named("ottd", False) == noise
    assert Group.named("a|b", False) == Group(noises=("a", "b")) != Group("a", ("b",))
    assert len({voiced, Group("fotaq-joe", ("ottd", "crowd")), noise}) == 2   # hashable, equal by value


def test_records_are_frozen():
    records = [Group("v"), Voice(np.zeros(3), [], "v"), Noise(np.zeros(3), "music", "pkg"),
               Mixture(np.zeros(3), [], Group("v"))]
    for record in records:
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.voice = "other"
    m = Mixture(np.zeros(3), [[0, 1]], Group("v"), gain=2.0)
    assert (m.clean, m.scenario, m.music_vocals) == (None, None, False)
    assert dataclasses.replace(m, scenario="clean").gain == 2.0 and m.scenario is None


@pytest.mark.parametrize("hears, aux, kept", [("level", 0.0, False), ("clean", 0.0, True), ("mix", 0.5, True)])
def test_channelled_gives_the_scenario_and_keeps_the_voice_only_where_needed(hears, aux, kept):
    cfg = Config.of(telephone=0.0, lofi=0.0, teacher_hears=hears, aux_snr=aux)
    m = Mixture(np.linspace(-0.5, 0.5, 1600), [[0.0, 0.05]], Group("v", ("p",)), np.ones(1600), 0.5)
    out = channelled(cfg, np.random.default_rng(0), m, None, "snr", True)
    assert out.signal.dtype == np.float32 and np.array_equal(out.signal, m.signal.astype(np.float32))
    assert (out.labels, out.group, out.gain) == ([[0.0, 0.05]], m.group, 0.5)
    assert (out.scenario, out.music_vocals) == ("snr", True)
    assert (out.clean is m.clean) == kept and (out.clean is None) != kept


def test_noise_weight_falls_on_noise_from_one_source():
    cfg = Config.of(noise_weight=2.5)
    silent, spoken = np.zeros(40, np.float32), np.r_[np.zeros(10), np.ones(20), np.zeros(10)].astype(np.float32)
    assert np.all(loss_weights(cfg, silent, Group(noises=("fan",))) == 2.5)
    assert np.all(loss_weights(cfg, silent, Group(noises=("fan", "music"))) == 1)   # as the "|" test always had it
    assert np.all(loss_weights(cfg, silent, Group("voice")) == 2.5)   # a voice's silent mixture: noise alone
    w = loss_weights(cfg, spoken, Group("voice"))
    assert np.all(w[10:25] == 3) and np.all(np.delete(w, range(10, 25)) == 1)


def analysed_data(groups):
    """(X, Y, G, teacher) as `dataset.analysed` gives them, a mixture per group (speech where it has a voice)."""
    X = [np.full((5, FEATURES), k, np.float32) for k in range(len(groups))]
    Y = [np.full(5, float(g.voice is not None), np.float32) for g in groups]
    return X, Y, groups, None


def test_the_cache_keeps_the_groups(tmp_path):
    groups = [Group("v1"), Group("v1", ("pkg",)), Group(noises=("pkg",)), Group(noises=("pkg", "other"))]
    path = str(tmp_path / "cache.npz")
    built = cached(Config.of(distill=0.0), path, lambda: analysed_data(groups))
    X, Y, G, teacher = cached(Config.of(distill=0.0), path, lambda: pytest.fail("read, not built again"))
    assert G == groups == built[2] and teacher is None
    assert all(np.array_equal(a, b) for a, b in zip(X + Y, built[0] + built[1]))
    z = np.load(path, allow_pickle=True)   # names and voices, no pickled records: old code reads it too
    assert list(z["G"]) == ["v1", "v1|pkg", "pkg", "pkg|other"] and list(z["V"]) == [True, True, False, False]


def test_a_cache_from_before_the_records_has_its_voice_first_where_it_holds_speech(tmp_path):
    groups = [Group("v1"), Group("v1", ("pkg",)), Group(noises=("pkg",)), Group(noises=("pkg", "other"))]
    X, Y, _, _ = analysed_data(groups)
    path = str(tmp_path / "old.npz")
    np.savez(path, X=np.array(X, dtype=object), Y=np.array(Y, dtype=object),
             G=np.array(["v1", "v1|pkg", "pkg", "pkg|other"], dtype=object))
    assert cached(Config.of(distill=0.0), path, lambda: pytest.fail("read, not built"))[2] == groups

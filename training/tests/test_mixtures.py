"""Mixtures have the levels and SNRs they are asked for, measured as the corpus measures them: a voice's
active level (RMS over its labelled speech) in dBFS, a noise's RMS under it in dB."""
import numpy as np
import pytest

from miccheck_train.config import Config, TEACHER_DBFS
from miccheck_train.mixtures import synthetic_noises, teacher_gain, voice_mixture
from miccheck_train.records import Voice
from miccheck_train.synth import active_rms, at_level, at_snr, coloured, rms

from conftest import voice


def db(v):
    return 20 * np.log10(v)


@pytest.mark.parametrize("level", [-55.0, -38.0, -26.0, -14.0])
@pytest.mark.parametrize("snr", [-5.0, 0.0, 12.0, 30.0])
def test_asked_level_and_snr_are_measured(level, snr):
    rng = np.random.default_rng(1)
    x, labels = voice(rng)
    v = at_level(x * rng.uniform(0.01, 3), labels, level)
    n = at_snr(coloured(rng, len(v), 1), v, labels, snr)
    assert db(active_rms(v, labels)) == pytest.approx(level, abs=1e-6)
    assert db(active_rms(v, labels)) - db(rms(n)) == pytest.approx(snr, abs=1e-6)
    # The voice's active level is over its speech alone: the silence between its words does not lower it.
    assert db(rms(v)) < level - 1


def test_teacher_gain_brings_a_voice_to_the_teachers_level():
    rng = np.random.default_rng(2)
    x, labels = voice(rng)
    for level in (-50.0, -30.0, -14.0):
        assert db(active_rms(at_level(x, labels, level) * teacher_gain(level), labels)) == pytest.approx(TEACHER_DBFS)


def mixtures(variant, count=12):
    """`count` of voice_mixture's `variant` (no voice effects, which need sox), with their voices' active
    levels and the SNR of the voice over all the rest (noise and floor) as measured."""
    cfg = Config.of(voice_effects=0.0)
    rng = np.random.default_rng(100 + variant)
    noise = [n for n in synthetic_noises(np.random.default_rng(5)) if n.category != "silence"]   # silence: no SNR
    out = []
    for k in range(count):
        m = voice_mixture(rng, Voice(*voice(rng), f"voice{k}"), variant, noise, None, cfg)
        assert db(active_rms(m.clean, m.labels)) == pytest.approx(TEACHER_DBFS)   # what the teacher hears (clean)
        v = m.clean / m.gain   # the voice as it is in the mixture (as dataset.voice_snr takes it)
        level = db(active_rms(v, m.labels))
        assert level + db(m.gain) == pytest.approx(TEACHER_DBFS)   # --teacher-hears level's gain
        assert m.group.voice == f"voice{k}" and m.scenario is None   # channelled() gives the scenario
        out.append((m.signal, m.labels, m.group, level, level - db(rms(m.signal - v))))
    return out


def test_clean_mixtures_are_at_minus_42_to_minus_14_dbfs_over_a_faint_floor():
    for y, lab, group, level, snr in mixtures(0):
        assert -42 <= level <= -14 and group.noises == ()
        assert db(active_rms(y, lab)) == pytest.approx(level, abs=0.01)
        assert snr >= 20   # the floor is at -62 dBFS or below


def test_quiet_mixtures_are_at_the_quiet_levels():
    lo, hi = Config().material.quiet_dbfs
    for y, lab, group, level, snr in mixtures(3):
        assert lo <= level <= hi and group.noises == ()
        # The floor (-90...-62 dBFS) lies at least 7 dB under the quietest voice (-55 dBFS).
        assert snr >= 7 - 0.01
        assert level - 0.01 <= db(active_rms(y, lab)) <= level + 1


@pytest.mark.parametrize("variant, lo, hi", [(1, 5, 30), (2, -5, 12)])
def test_noisy_mixtures_are_at_their_snrs(variant, lo, hi):
    for y, lab, group, level, snr in mixtures(variant):
        assert -42 <= level <= -14
        assert len(group.noises) == 1 and group.noises[0].startswith("synthetic-") and group.parts[1:] == group.noises
        # The noise at the SNR drawn, and the floor (at least 20 dB under the voice) under it.
        assert lo - 0.05 <= snr <= hi + 1e-6

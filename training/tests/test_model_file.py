"""The model file the package writes is the one MicCheck reads: `miccheck analyze --model` accepts a random
model written by `model_file` and `write_model` and computes what the model's equations give, and it refuses
a damaged one with a sentence saying what is wrong."""
import json
import subprocess

import numpy as np
import pytest

from miccheck_train.config import FEATURES
from miccheck_train.features import feature_names, features_of, write_wav
from miccheck_train.model import model_file, write_model

from conftest import SR


def random_model(rng, names, dense=8, hidden=8, lookahead=0):
    d, k, h = len(names), dense, hidden
    layers = {"dense": (rng.normal(0, 0.3, (k, d)), rng.normal(0, 0.1, k)),
              "gru": (rng.normal(0, 0.3, (3 * h, k)), rng.normal(0, 0.3, (3 * h, h)), rng.normal(0, 0.1, 3 * h),
                      rng.normal(0, 0.1, 3 * h)),
              "output": (rng.normal(0, 1, (1, h)), rng.normal(0, 0.1, 1))}
    return model_file(layers, rng.normal(0, 1, d), np.exp(rng.normal(0, 0.3, d)), names, d, k, h, lookahead,
                      seed=1, split_seed=2, fold="none")


def probabilities(model, X):
    """The model's speech probability after each row of features `X`, by its equations (float64): the
    standardisation, the dense tanh layer, the GRU (gates r, z, n) and the sigmoid output."""
    a = lambda key: np.asarray(key, np.float64)   # noqa: E731
    d, k, h = model["features"], model["dense"]["outputs"], model["gru"]["hidden"]
    Wd, bd = a(model["dense"]["weights"]).reshape(k, d), a(model["dense"]["bias"])
    Wi, Wh = a(model["gru"]["inputWeights"]).reshape(3 * h, k), a(model["gru"]["recurrentWeights"]).reshape(3 * h, h)
    bi, bh = a(model["gru"]["inputBias"]), a(model["gru"]["recurrentBias"])
    wo, bo = a(model["output"]["weights"]), a(model["output"]["bias"])[0]
    sigmoid = lambda v: 1 / (1 + np.exp(-v))   # noqa: E731
    state, out = np.zeros(h), []
    for row in (X[:, :d] - a(model["inputMean"])) * a(model["inputScale"]):
        gi, gh = Wi @ np.tanh(Wd @ row + bd) + bi, Wh @ state + bh
        r, z = sigmoid(gi[:h] + gh[:h]), sigmoid(gi[h:2 * h] + gh[h:2 * h])
        state = (1 - z) * np.tanh(gi[2 * h:] + r * gh[2 * h:]) + z * state
        out.append(sigmoid(wo @ state + bo))
    return np.array(out)


def test_model_file_layout():
    model = random_model(np.random.default_rng(0), [f"f{i}" for i in range(FEATURES)], dense=4, hidden=3)
    assert model["format"] == "miccheck-vad" and model["version"] == 1 and model["features"] == FEATURES
    assert len(model["inputMean"]) == len(model["inputScale"]) == FEATURES
    assert len(model["dense"]["weights"]) == 4 * FEATURES and len(model["dense"]["bias"]) == 4
    assert len(model["gru"]["inputWeights"]) == 9 * 4 and len(model["gru"]["recurrentWeights"]) == 9 * 3
    assert len(model["output"]["weights"]) == 3 and model["output"]["outputs"] == 1
    assert all(isinstance(v, float) for v in model["dense"]["weights"])


def test_weights_round_trip_through_pytorch(tmp_path):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (the training environment has it)")
    from miccheck_train.model import load, network
    model = random_model(np.random.default_rng(3), [f"f{i}" for i in range(FEATURES)])
    net = network(FEATURES, 8, 8)
    load(net, model)
    again = model_file({"dense": (net.inp.weight, net.inp.bias),
                        "gru": (net.gru.weight_ih_l0, net.gru.weight_hh_l0, net.gru.bias_ih_l0, net.gru.bias_hh_l0),
                        "output": (net.out.weight, net.out.bias)}, model["inputMean"], model["inputScale"],
                       model["featureNames"], FEATURES, 8, 8, 0, seed=1, split_seed=2, fold="none")
    assert again == model
    X = np.random.default_rng(4).normal(0, 1, (50, FEATURES))
    with torch.no_grad():
        logits, _ = net(torch.tensor((X - model["inputMean"]) * model["inputScale"], dtype=torch.float32)[None])
    assert np.allclose(torch.sigmoid(logits).numpy().ravel(), probabilities(model, X), atol=1e-5)


@pytest.fixture(scope="module")
def audio(tmp_path_factory):
    """Two seconds of a hum that starts after half a second, over a faint noise, as a 16-bit WAV."""
    path = tmp_path_factory.mktemp("audio") / "hum.wav"
    t = np.arange(2 * SR) / SR
    rng = np.random.default_rng(7)
    write_wav(str(path), 0.1 * np.sin(2 * np.pi * 200 * t) * (t > 0.5) + 0.01 * rng.standard_normal(len(t)))
    return str(path)


def analyze(miccheck, model, wav):
    return subprocess.run([miccheck, "analyze", "--format", "jsonl", "--no-background-gate", "--model", model, wav],
                          capture_output=True, text=True)


def frame_probs(stdout):
    return np.array([json.loads(line)["prob"] for line in stdout.splitlines() if line.startswith('{"t"')])


def test_miccheck_runs_a_written_model(miccheck, audio, tmp_path):
    model = random_model(np.random.default_rng(11), feature_names(miccheck))
    path = str(tmp_path / "models" / "random.json")
    write_model(path, model)
    done = analyze(miccheck, path, audio)
    assert done.returncode == 0, done.stderr
    p = frame_probs(done.stdout)
    assert len(p) == 200
    # The probabilities MicCheck prints (three decimals, its GRU in 16-bit integers) are the model's.
    expected = probabilities(model, features_of(miccheck, audio, str(tmp_path / "features.f32")))
    assert np.abs(p - expected[:len(p)]).max() < 0.002
    assert p.std() > 0.001   # the random model's answer moves with the sound


def test_miccheck_runs_a_model_with_lookahead(miccheck, audio, tmp_path):
    path = str(tmp_path / "lookahead.json")
    write_model(path, random_model(np.random.default_rng(12), feature_names(miccheck), dense=16, hidden=24,
                                   lookahead=3))
    done = analyze(miccheck, path, audio)
    assert done.returncode == 0, done.stderr
    assert len(frame_probs(done.stdout)) == 200


@pytest.mark.parametrize("damage, why", [
    (lambda m: m["gru"]["inputWeights"].pop(), "the voice activity model's shapes do not fit: GRU layer"),
    (lambda m: m["dense"].update(bias=m["dense"]["bias"][:-1]), "shapes do not fit: dense layer"),
    (lambda m: m.update(lookahead=4), "a look-ahead of 4 frames"),
    (lambda m: m["featureNames"].reverse(), "trained on other features than this MicCheck computes"),
    (lambda m: m.update(format="other"), "this is not a MicCheck voice activity model"),
    (lambda m: m.pop("gru"), "this is not a MicCheck voice activity model"),
])
def test_miccheck_refuses_a_damaged_model(miccheck, audio, tmp_path, damage, why):
    model = random_model(np.random.default_rng(13), feature_names(miccheck))
    damage(model)
    path = str(tmp_path / "damaged.json")
    write_model(path, model)
    done = analyze(miccheck, path, audio)
    assert done.returncode != 0
    assert why in done.stderr
    assert not frame_probs(done.stdout).size


def test_miccheck_refuses_a_truncated_file(miccheck, audio, tmp_path):
    path = tmp_path / "truncated.json"
    write_model(str(path), random_model(np.random.default_rng(14), feature_names(miccheck)))
    path.write_text(path.read_text()[:-200])
    done = analyze(miccheck, str(path), audio)
    assert done.returncode != 0 and "this is not a MicCheck voice activity model" in done.stderr

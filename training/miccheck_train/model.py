"""The model: a dense tanh layer, one GRU and a sigmoid output, in PyTorch for training; reading and
writing MicCheck's model file (`VoiceActivityModel.json`), widening a smaller model, and running a model
file over feature matrices as MicCheck runs it."""
import json, logging, os
import numpy as np

from .config import CORE_FEATURES, FEATURES
from .errors import DataError
from .features import feature_names

log = logging.getLogger(__name__)


def network(features, dense, hidden, aux=0):
    """The model in PyTorch (at random): a dense tanh layer, a GRU and a linear output, which answers the
    speech logit of each frame and the GRU's last state. With `aux` outputs more, `net.aux(net.z)` reads
    them from the GRU's states of the last call (training only: they are not exported)."""
    import torch

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = torch.nn.Linear(features, dense)
            self.gru = torch.nn.GRU(dense, hidden, batch_first=True)
            self.out = torch.nn.Linear(hidden, 1)
            if aux > 0:
                self.aux = torch.nn.Linear(hidden, aux)

        def forward(self, x, h=None):
            z, h = self.gru(torch.tanh(self.inp(x)), h)
            self.z = z
            return self.out(z).squeeze(-1), h
    return Net()


def load(net, model):
    """Sets `net`'s weights from a model file's (export's inverse). A file with fewer features, dense units
    or GRU units than `net` fills the top left of each matrix (per GRU gate), and what it lacks starts
    without effect on the output: the new features' and dense units' weights into the old units are 0,
    the new GRU units' weights into the old units and the output's from them are 0. The new units keep
    `net`'s own random weights otherwise, so that they learn from the first step. A layer with another
    number of values than the file's sizes call for is a ValueError."""
    import torch
    d, k, h = model["features"], model["dense"]["outputs"], model["gru"]["hidden"]
    D_, K, H = net.inp.in_features, net.inp.out_features, net.gru.hidden_size

    def put(param, values, rows, cols=None, zero_cols=0):
        """The file's `values` (rows × cols, or a vector) into `param`'s first rows and columns; with
        `zero_cols`, the columns after them in those rows set to 0."""
        v = torch.tensor(values, dtype=torch.float32)
        if v.numel() != rows * (cols or 1):
            raise ValueError(f"a layer has {v.numel()} values where {rows * (cols or 1)} were expected")
        with torch.no_grad():
            if cols is None:
                param[:rows] = v
            else:
                param[:rows, :cols] = v.reshape(rows, cols)
                param[:rows, cols:cols + zero_cols] = 0

    def gates(param, values, cols=None, zero_cols=0):
        """A GRU parameter, gate by gate (PyTorch stacks r, z, n along the rows)."""
        v = np.asarray(values, np.float32)
        if v.size != 3 * h * (cols or 1):
            raise ValueError(f"a layer has {v.size} values where {3 * h * (cols or 1)} were expected")
        v = v.reshape(3, -1)
        for g in range(3):
            put(param[g * H:(g + 1) * H], v[g], h, cols, zero_cols)
    put(net.inp.weight, model["dense"]["weights"], k, d, D_ - d); put(net.inp.bias, model["dense"]["bias"], k)
    gates(net.gru.weight_ih_l0, model["gru"]["inputWeights"], k, K - k)
    gates(net.gru.weight_hh_l0, model["gru"]["recurrentWeights"], h, H - h)
    gates(net.gru.bias_ih_l0, model["gru"]["inputBias"]); gates(net.gru.bias_hh_l0, model["gru"]["recurrentBias"])
    put(net.out.weight, model["output"]["weights"], 1, h, H - h); put(net.out.bias, model["output"]["bias"], 1)


def export(net, mean, scale, cfg, path):
    """Writes the model file MicCheck reads (`VoiceActivityModel`): `net`'s weights and the input
    standardisation, naming its features as the binary names them (`write_model`)."""
    mo, v = cfg.model, cfg.validation
    d = mo.features
    layers = {"dense": (net.inp.weight, net.inp.bias),
              "gru": (net.gru.weight_ih_l0, net.gru.weight_hh_l0, net.gru.bias_ih_l0, net.gru.bias_hh_l0),
              "output": (net.out.weight, net.out.bias)}
    write_model(path, model_file(layers, mean, scale, feature_names(cfg.paths.binary)[:d], d, mo.dense, mo.hidden,
                                 mo.lookahead, seed=cfg.training.seed, split_seed=v.split_seed,
                                 fold="none" if v.no_validation else v.fold))


def model_file(layers, mean, scale, names, features, dense, hidden, lookahead, seed, split_seed, fold):
    """The contents of a model file (`VoiceActivityModel.json`) in the order `export` writes them, from
    `layers`: {"dense": (weights, bias), "gru": (input weights, recurrent weights, input bias, recurrent
    bias), "output": (weights, bias)}, each PyTorch's layout (a tensor or any array, flattened row by row),
    the input standardisation `mean` and `scale`, the features' `names` and the sizes. Needs no PyTorch."""
    def t(v):
        return [float(f"{x:.7g}") for x in np.ravel(v.detach().numpy() if hasattr(v, "detach") else v)]
    (dw, db), (wih, whh, bih, bhh), (ow, ob) = layers["dense"], layers["gru"], layers["output"]
    return {
        "format": "miccheck-vad", "version": 1, "features": features, "featureNames": names,
        "lookahead": lookahead, "trainedBy": "training/train_vad.py", "seed": seed, "splitSeed": split_seed,
        "fold": fold,
        "inputMean": t(mean), "inputScale": t(scale),
        "dense": {"inputs": features, "outputs": dense, "weights": t(dw), "bias": t(db)},
        "gru": {"inputs": dense, "hidden": hidden,
                "inputWeights": t(wih), "recurrentWeights": t(whh),
                "inputBias": t(bih), "recurrentBias": t(bhh)},
        "output": {"inputs": hidden, "outputs": 1, "weights": t(ow), "bias": t(ob)},
    }


def write_model(path, model):
    """`model` (`model_file`'s contents) as the model file `path` (compact JSON), its folder made if need be."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(model, f, separators=(",", ":"))
    log.info(f"wrote {path} ({os.path.getsize(path)} bytes)")


def start_model(cfg):
    """The --init model file's contents (None without --init), or a `DataError` if it cannot be read as one."""
    init = cfg.model.init
    if not init:
        return None
    try:
        start = json.load(open(init))
        (start["features"], start["dense"]["outputs"], start["gru"]["hidden"], start["lookahead"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise DataError(f"--init: {init} is not a readable MicCheck voice model ({e})") from e
    return start


def model_probs(path, X):
    """The speech probability of each frame of each feature matrix in `X` (raw, as `miccheck features`
    writes them) by the model file `path`, run over each whole mixture from a zero state as MicCheck runs
    it, and moved back by the model's look-ahead so that entry n is frame n's (the last frames keep the
    last answer, as the Analyzer does at the end of its input)."""
    import torch
    m = json.load(open(path))
    d = m.get("features")
    if m.get("format") != "miccheck-vad" or d not in (CORE_FEATURES, FEATURES):
        raise DataError(f"{path}: not a MicCheck voice model with {FEATURES} or {CORE_FEATURES} features")
    net = network(d, m["dense"]["outputs"], m["gru"]["hidden"])
    try:
        load(net, m)
    except ValueError as e:
        raise DataError(f"{path}: {e}") from e
    mean = np.array(m["inputMean"], np.float32); scale = np.array(m["inputScale"], np.float32)
    k = int(m.get("lookahead", 0))
    probs = []
    with torch.no_grad():
        for x in X:
            logits, _ = net(torch.from_numpy(((x[:, :d] - mean) * scale).astype(np.float32))[None])
            p = torch.sigmoid(logits).reshape(-1).numpy()
            probs.append(np.concatenate([p[k:], np.full(min(k, len(p)), p[-1] if len(p) else 0, np.float32)]))
    return probs

"""What the model is trained on, frame by frame: MicCheck's own features of a signal (`miccheck features`,
the binary the runtime is), labels on the 10 ms frame grid, and the teacher's probabilities (Silero VAD,
at training time only)."""
import json, os, subprocess, threading, wave
import numpy as np

from .config import FEATURES, SR
from .errors import ToolError


def write_wav(path, y):
    """`y` (16 kHz, -1...1) as a 16-bit mono WAV file at `path`; returns its length in samples."""
    pcm = (np.clip(y, -1, 1) * 32767).astype("<i2")
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(SR); w.writeframes(pcm.tobytes())
    return len(pcm)


def features(binary, y, path):
    p = path + ".wav"; q = path + ".f32"
    write_wav(p, y)
    f = features_of(binary, p, q)
    os.remove(p); os.remove(q)
    return f


def feature_names(binary):
    """The features' names in the order `miccheck features` writes them (the layout a model file names)."""
    names = json.loads(subprocess.run([binary, "features", "--names"], check=True, capture_output=True,
                                      text=True).stdout)
    if len(names) != FEATURES:
        raise ToolError(f"{binary} names {len(names)} features, this script reads {FEATURES}: rebuild it")
    return names


def features_of(binary, wav, out):
    """`miccheck features` of a WAV file, through the file `out`: one row of FEATURES per 10 ms frame."""
    subprocess.run([binary, "features", wav, "--output", out], check=True)
    raw = np.fromfile(out, "<f4")
    if raw.size % FEATURES:
        raise ToolError(f"{binary} does not write {FEATURES} features a frame: rebuild it")
    return raw.reshape(-1, FEATURES)


def frame_labels(labels, n):
    c = (np.arange(n) + 0.5) * 0.01
    y = np.zeros(n, bool)
    for a, b in labels:
        y |= (c >= a) & (c < b)
    return y


def delayed(v, k):
    """`v` later by `k` frames (the first value repeated): what the model's output after frame n is
    trained on when it decides frame n - k."""
    v = np.asarray(v, np.float32)
    return v if k <= 0 else np.concatenate([np.full(k, v[0] if len(v) else 0, np.float32), v[:-k]])[:len(v)]


def utterance_starts(y):
    """Indices of the frames where a labelled utterance begins (label rising from 0)."""
    return np.flatnonzero(np.diff(np.concatenate([[0], y])) > 0)


def utterance_ends(y):
    """Indices of the first frame after each labelled utterance (label falling to 0)."""
    return np.flatnonzero(np.diff(np.concatenate([y, [0]])) < 0) + 1


_teacher = threading.local()


def teacher_probs(x, n):
    """Silero VAD's speech probability for each of `n` 10 ms frames of `x` (16 kHz): its 32 ms windows run
    as its users run them (onnxruntime, 64 samples of context, state carried), each frame taking the
    window its centre falls in. Used at training time only (--distill); MicCheck never runs it."""
    import importlib.util
    import onnxruntime as ort
    if not hasattr(_teacher, "sess"):
        spec = importlib.util.find_spec("silero_vad")
        if spec is None:
            raise ToolError("--distill needs Silero VAD: pip install onnxruntime && pip install --no-deps "
                            "silero-vad==6.2.3")
        so = ort.SessionOptions(); so.intra_op_num_threads = 1; so.inter_op_num_threads = 1
        _teacher.sess = ort.InferenceSession(os.path.join(os.path.dirname(spec.origin), "data", "silero_vad.onnx"),
                                             sess_options=so, providers=["CPUExecutionProvider"])
    x = np.clip(x, -1, 1).astype(np.float32)
    windows = max(1, (len(x) + 511) // 512)
    x = np.concatenate([x, np.zeros(windows * 512 - len(x), np.float32)])
    state = np.zeros((2, 1, 128), np.float32); ctx = np.zeros((1, 64), np.float32); sr = np.array(SR, dtype=np.int64)
    p = np.zeros(windows, np.float32)
    for i in range(windows):
        inp = np.concatenate([ctx, x[None, i * 512:(i + 1) * 512]], axis=1)
        out, state = _teacher.sess.run(None, {"input": inp, "state": state, "sr": sr})
        p[i] = float(out.ravel()[0]); ctx = inp[:, -64:]
    idx = np.minimum(((np.arange(n) + 0.5) * 160 / 512).astype(int), windows - 1)
    return p[idx]

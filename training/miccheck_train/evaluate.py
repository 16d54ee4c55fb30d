"""Scores of a model in training: ROC-AUC and frame F1 on held-out mixtures or a labelled corpus, and the
share of noise-only frames it calls speech."""
import glob, json, os, tempfile
import numpy as np

from .features import delayed, features_of, frame_labels
from .progress import bar


def scores(net, pairs, noise_threshold):
    """AUC and F1 at 0.5 over (features, labels) pairs, and the share (%) of frames of noise-only
    pairs at or above `noise_threshold`."""
    import torch
    from sklearn.metrics import roc_auc_score
    net.eval()
    ps, ys, noise_p = [], [], []
    with torch.no_grad():
        for x, y in pairs:
            p = torch.sigmoid(net(torch.from_numpy(x[None]))[0])[0].numpy()
            ps.append(p); ys.append(y)
            if y.sum() == 0:
                noise_p.append(p)
    net.train()
    p = np.concatenate(ps); y = np.concatenate(ys)
    f1 = 2 * np.sum((p >= 0.5) & (y > 0)) / (np.sum(p >= 0.5) + np.sum(y > 0))
    npz = np.concatenate(noise_p) if noise_p else np.zeros(1)
    return roc_auc_score(y, p), f1, 100 * np.mean(npz >= noise_threshold)


def corpus_set(cfg, mean, scale):
    """Standardised features and frame labels (moved by the look-ahead) of every file of the labelled
    corpus --corpus, on score.py's grid."""
    out = []
    labelled = [j for j in sorted(glob.glob(os.path.join(cfg.validation.corpus, "**", "*.json"), recursive=True))
                if os.path.exists(j[:-5] + ".wav")]
    with tempfile.TemporaryDirectory() as tmp:
        for j in bar(labelled, desc="corpus features", unit="file"):
            lab = json.load(open(j))
            q = os.path.join(tmp, "f.f32")
            f = features_of(cfg.paths.binary, j[:-5] + ".wav", q)[:, :cfg.model.features]
            y = frame_labels(lab.get("speech", []), len(f)).astype(np.float32)
            out.append((((f - mean) * scale).astype(np.float32), delayed(y, cfg.model.lookahead)))
    return out

"""Training: targets (labels blended with the teacher), loss weights, chunks and their augmentations, and
the epochs, writing the model file after each."""
import logging, os, subprocess, sys
import numpy as np

from .config import AUX_BANDS, BUNDLED_MODEL, FEATURE_GROUPS, FLOOR_FEATURES
from .dataset import build
from .evaluate import corpus_set, scores
from .features import delayed, utterance_ends, utterance_starts
from .errors import DataError
from .model import export, load, network, start_model
from .progress import bar

log = logging.getLogger(__name__)

T = 600   # frames a training chunk (6 s)
BATCH = 32


def loss_weights(cfg, y, g):
    """Each frame's weight in the loss: 3 in the first 150 ms of each utterance (which decides how fast
    speech is announced), and --noise-weight in mixtures of noise alone from one source (the `Group` `g`
    has one part; every frame above threshold there is a false alert)."""
    w = np.ones_like(y)
    for o in utterance_starts(y):
        w[o:o + 15] = 3
    if len(g.parts) == 1 and y.sum() == 0:
        w *= cfg.training.noise_weight
    return w


def target(cfg, y, teacher):
    """A mixture's targets: its labels `y`, or with --distill a blend with the teacher's probabilities
    (--distill-speech and --distill-silence per label; the first --label-onsets frames of each utterance
    and the --label-offsets frames after it keep the label alone)."""
    t = cfg.teacher
    if t.distill <= 0:
        return y
    share = np.where(y > 0, t.on_speech, t.on_silence).astype(np.float32)
    if t.label_onsets > 0:
        for o in utterance_starts(y):
            share[o:o + t.label_onsets][y[o:o + t.label_onsets] > 0] = 0   # the utterance's frames only
    if t.label_offsets > 0:
        for o in utterance_ends(y):
            share[o:o + t.label_offsets][y[o:o + t.label_offsets] == 0] = 0   # up to the next utterance
    return (1 - share) * y + share * teacher


def chunks(lengths, idx, rs):
    """(mixture, start, end) of the training chunks of the mixtures `idx`: a mixture of at most T frames
    whole, a longer one as its start and one random chunk per T frames."""
    out = []
    for i in idx:
        n = lengths[i]
        if n <= T:
            out.append((i, 0, n))
        else:
            starts = [0] + list(rs.integers(0, n - T, size=n // T))
            out += [(i, s, s + T) for s in starts]
    return out


def streams(lengths, idx, rs):
    """The mixtures `idx` trained as streams, in batches of BATCH of similar length (shortest first, then
    the batches in random order), each a list of (mixture, 0, its length)."""
    order = sorted(idx, key=lambda i: lengths[i])
    groups = [[(i, 0, lengths[i]) for i in order[b0:b0 + BATCH]] for b0 in range(0, len(order), BATCH)]
    rs.shuffle(groups)
    return groups


class Batches:
    """Training batches of standardised features, targets, weights (and --aux-snr's voice_snr), with the
    augmentations of the configuration: --floor-shrink, --group-dropout and --level-jitter."""

    def __init__(self, cfg, Xs, targets, W, aux, mean, scale):
        self.tr, self.Xs, self.targets, self.W, self.aux = cfg.training, Xs, targets, W, aux
        self.d = d = cfg.model.features
        self.over_floor = [c for c in FLOOR_FEATURES if c < d]
        self.groups = [[c for c in g if c < d] for g in FEATURE_GROUPS]   # what --group-dropout hides
        self.offset = (mean * scale).astype(np.float32)   # raw * scale = standardised + offset
        self.scale0 = scale[0]

    def __call__(self, items, rs):
        import torch
        tr, aux, d = self.tr, self.aux, self.d
        L = max(e - s for _, s, e in items)
        xb = np.zeros((len(items), L, d), np.float32); yb = np.zeros((len(items), L), np.float32)
        wb = np.zeros((len(items), L), np.float32)
        sb = np.zeros((len(items), L, len(AUX_BANDS)), np.float32) if aux else None
        for k, (i, s, e) in enumerate(items):
            xb[k, :e - s] = self.Xs[i][s:e]; yb[k, :e - s] = self.targets[i][s:e]; wb[k, :e - s] = self.W[i][s:e]
            if aux:
                sb[k, :e - s] = aux[i][s:e]
            if tr.floor_shrink > 0 and rs.random() < tr.floor_shrink:
                # The levels over the floor scaled in raw units (dB over the floor / constant), then standardised again.
                f = rs.uniform(0.25, 1)
                v = xb[k, :e - s]
                of, off = self.over_floor, self.offset
                v[:, of] = f * (v[:, of] + off[of]) - off[of]
            if tr.group_dropout > 0:
                for group in self.groups:
                    if rs.random() < tr.group_dropout:
                        xb[k, :e - s, group] = 0   # standardised: the training mean
            if tr.level_jitter > 0:
                # Feature 0 is (level + 50) / 25 raw; standardised, a shift of g dB is g / 25 * its scale.
                xb[k, :e - s, 0] += rs.uniform(-tr.level_jitter, tr.level_jitter) / 25 * self.scale0
        return torch.from_numpy(xb), torch.from_numpy(yb), torch.from_numpy(wb), (torch.from_numpy(sb) if aux else None)


def train(cfg):
    """Builds the data set and trains the model the configuration describes, writing --out (and with
    --keep-epochs each epoch's model) after every epoch."""
    import torch
    mo, tr, paths = cfg.model, cfg.training, cfg.paths
    start = start_model(cfg)
    torch.manual_seed(tr.seed)
    torch.set_num_threads(tr.threads)
    data = build(cfg)
    Y, G = data.Y, data.G
    X = [x[:, :mo.features] for x in data.X]   # the caches keep every feature; the model reads the first D
    tr_idx, va_idx = data.split(cfg.validation.no_validation)
    log.info(f"held out: {sorted(data.held)}")
    allX = np.concatenate([X[i] for i in tr_idx])
    mean = allX.mean(0); scale = 1 / (allX.std(0) + 1e-4)
    if start is not None:
        # The model's own standardisation of its features, on which its weights were learned (features
        # added by widening it keep the training frames').
        mean[:start["features"]] = start["inputMean"]; scale[:start["features"]] = start["inputScale"]
    log.info(f"frames: train {len(allX)}, val {sum(len(X[i]) for i in va_idx)}, "
             f"speech share {np.concatenate([Y[i] for i in tr_idx]).mean():.2f}")

    net = network(mo.features, mo.dense, mo.hidden, len(AUX_BANDS) if tr.aux_snr > 0 else 0)
    if start is not None:
        try:
            load(net, start)
        except ValueError as e:
            raise DataError(f"--init: {mo.init}: {e}") from e
    opt = torch.optim.Adam(net.parameters(), lr=tr.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, tr.epochs)
    Xs = [(x - mean) * scale for x in X]
    # With --lookahead the output after frame n is trained on frame n - lookahead's target.
    W = [delayed(loss_weights(cfg, Y[i], G[i]), mo.lookahead) for i in range(len(Y))]
    targets = [delayed(target(cfg, Y[i], data.teacher[i] if data.teacher is not None else None), mo.lookahead)
               for i in range(len(Y))]
    batch = Batches(cfg, Xs, targets, W, data.aux, mean, scale)
    held_out = [(Xs[i], delayed(Y[i], mo.lookahead)) for i in va_idx]
    corpus = corpus_set(cfg, mean, scale) if cfg.validation.corpus else []

    rs = np.random.default_rng(tr.seed + 1)
    lengths = [len(x) for x in Xs]
    # Long mixtures (long sessions, long noise files) are trained as streams: whole, chunk after chunk,
    # with the GRU's state carried over (truncated back-propagation through time), as MicCheck runs the
    # model for an hour; the rest as random chunks from a zero state.
    stream_idx = [i for i in tr_idx if lengths[i] >= tr.stream_frames]
    chunk_idx = [i for i in tr_idx if lengths[i] < tr.stream_frames]
    log.info(f"streams: {len(stream_idx)} mixtures of {tr.stream_frames} frames or more, "
             f"{sum(lengths[i] for i in stream_idx) / 360000:.2f} h")

    def step(xb, yb, wb, sb, h):
        """One optimiser step on a batch (from the GRU state `h`); returns the weighted loss and the state."""
        logits, h = net(xb, h)
        if tr.hard_negatives > 0:
            # Frames that are not speech count more the surer the model is that they are: the
            # confident false alerts on unfamiliar noise are the ones to unlearn.
            p = torch.sigmoid(logits.detach())
            wb = wb * (1 + tr.hard_negatives * (1 - yb) * p * p)
        loss = ((torch.nn.functional.binary_cross_entropy_with_logits(logits, yb, reduction="none") * wb).sum()
                / wb.sum())
        if sb is not None:
            # The voice over the rest, per band, at every frame of the chunk (not the padding).
            m = (wb > 0).unsqueeze(-1).expand_as(sb).float()
            loss = loss + tr.aux_snr * (torch.nn.functional.binary_cross_entropy_with_logits(
                net.aux(net.z), sb, reduction="none") * m).sum() / m.sum()
        opt.zero_grad(); loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        return float(loss.detach()), h.detach()

    for epoch in range(tr.epochs):
        items = chunks(lengths, chunk_idx, rs)
        rs.shuffle(items)
        units = [("chunks", items[b0:b0 + BATCH]) for b0 in range(0, len(items), BATCH)]
        units += [("stream", g) for g in streams(lengths, stream_idx, rs)]
        order = rs.permutation(len(units))
        total, count = 0.0, 0
        for u in bar(order, desc=f"epoch {epoch + 1}/{tr.epochs}", unit="batch", leave=False):
            kind, unit = units[u]
            xb, yb, wb, sb = batch(unit, rs)
            if kind == "chunks":
                loss, _ = step(xb, yb, wb, sb, None)
                total += loss * len(xb); count += len(xb)
                continue
            h = None
            for s0 in range(0, xb.shape[1], T):
                part = wb[:, s0:s0 + T]
                if float(part.sum()) <= 0:
                    break   # only the padding of shorter streams is left
                loss, h = step(xb[:, s0:s0 + T], yb[:, s0:s0 + T], part,
                               sb[:, s0:s0 + T] if sb is not None else None, h)
                total += loss * len(xb); count += len(xb)
        sched.step()
        auc, f1, fa = scores(net, held_out, 0.7) if held_out else (float("nan"), float("nan"), float("nan"))
        log.info(f"epoch {epoch + 1}: loss {total / max(1, count):.4f}  held-out AUC {auc:.4f} F1 {f1:.3f} "
                 f"noise frames >= 0.7: {fa:.2f}%")
        if corpus:
            auc, f1, fa = scores(net, corpus, 0.5)
            log.info(f"    corpus AUC {auc:.4f} F1 {f1:.3f} (p >= 0.5) noise-only frames >= 0.5: {fa:.2f}%")
        export(net, mean, scale, cfg, paths.out)
        if paths.keep_epochs:
            os.makedirs(paths.keep_epochs, exist_ok=True)
            export(net, mean, scale, cfg, os.path.join(paths.keep_epochs, f"epoch-{epoch + 1}.json"))
    embed_if_bundled(paths.out, paths.checkout)


def embed_if_bundled(path, checkout):
    """A model written over the bundled one of the MicCheck checkout `checkout` (if any) goes into the
    kernel's source too (its scripts/embed-model.py), where the analysis reads it; MicCheckTests check that
    the two agree."""
    if checkout and os.path.abspath(path) == os.path.abspath(os.path.join(checkout, *BUNDLED_MODEL)):
        subprocess.run([sys.executable, os.path.join(checkout, "scripts", "embed-model.py")], check=True)

#!/usr/bin/env python3
"""Times Silero VAD as its users run it: onnxruntime, one intra-op thread, 512-sample windows with the
64-sample context, the recurrent state carried across windows. Prints audio seconds per wall second,
for the fastest of the repeats and for their median.

usage: python3 scripts/silero-speed.py WAV [repeats] [--all]   (--all: every repeat's figure instead)
       (needs: pip install onnxruntime; pip install --no-deps silero-vad)
"""
import importlib.util, os, sys, time, wave
import numpy as np
import onnxruntime as ort


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 3
    with wave.open(sys.argv[1]) as w:
        if w.getframerate() != 16000 or w.getsampwidth() != 2:
            sys.exit(f"{sys.argv[1]}: needs 16 kHz 16-bit PCM")
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32) / 32768
        x = x.reshape(-1, w.getnchannels()).mean(axis=1)
    spec = importlib.util.find_spec("silero_vad")
    if spec is None:
        sys.exit("silero-vad is not installed: pip install --no-deps silero-vad==6.2.3")
    so = ort.SessionOptions(); so.intra_op_num_threads = 1; so.inter_op_num_threads = 1
    sess = ort.InferenceSession(os.path.join(os.path.dirname(spec.origin), "data", "silero_vad.onnx"),
                                sess_options=so, providers=["CPUExecutionProvider"])
    sr = np.array(16000, dtype=np.int64)
    n = len(x) // 512
    times = []
    for _ in range(repeats):
        state = np.zeros((2, 1, 128), np.float32); ctx = np.zeros((1, 64), np.float32)
        start = time.perf_counter()
        for i in range(n):
            inp = np.concatenate([ctx, x[None, i * 512:(i + 1) * 512]], axis=1)
            _, state = sess.run(None, {"input": inp, "state": state, "sr": sr})
            ctx = inp[:, -64:]
        times.append(time.perf_counter() - start)
    seconds = n * 512 / 16000
    if "--all" in sys.argv:
        print(" ".join(f"{seconds / t:.1f}" for t in times))
    else:
        print(f"{seconds / min(times):.1f} {seconds / float(np.median(times)):.1f}")


if __name__ == "__main__":
    main()

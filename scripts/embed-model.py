#!/usr/bin/env python3
"""Writes the voice activity model's weights into the kernel's source, so that the kernel needs no file.

    python3 scripts/embed-model.py [MODEL.json] [OUT.swift]

Reads Sources/MicCheck/Resources/VoiceActivityModel.json (what training/train_vad.py writes) and writes
Sources/MicCheckKernel/VoiceActivity/BundledVoiceActivityModel.swift: every weight as the bit pattern of
the Float the JSON decoder reads (IEEE binary32, round to nearest), so nothing is lost to decimal text.
MicCheckTests' BundledModelTests check that the two agree; train_vad.py runs this after writing a model.
"""
import json
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "Sources/MicCheck/Resources/VoiceActivityModel.json"
OUT = ROOT / "Sources/MicCheckKernel/VoiceActivity/BundledVoiceActivityModel.swift"


def bits(values):
    words = [struct.unpack("<I", struct.pack("<f", float(v)))[0] for v in values]
    lines = []
    for i in range(0, len(words), 8):
        lines.append("            " + ", ".join(f"0x{w >> 16:04x}_{w & 0xffff:04x}" for w in words[i:i + 8]) + ",")
    return "\n".join(lines)


def floats(name, values):
    if len(values) <= 4:  # one line, as swift format writes a short literal
        return f"        {name}: floats([{bits(values).strip().rstrip(',')}]),"
    return f"        {name}: floats([\n{bits(values)}\n        ]),"


def main():
    model = Path(sys.argv[1]) if len(sys.argv) > 1 else MODEL
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else OUT
    m = json.loads(model.read_text())
    if m.get("format") != "miccheck-vad" or m.get("version") != 1:
        sys.exit(f"embed-model.py: {model} is not a MicCheck voice activity model")
    names = m.get("featureNames")
    names_text = "nil" if names is None else "[\n" + "\n".join(
        f'            "{n}",' for n in names) + "\n        ]"
    d, g, o = m["dense"], m["gru"], m["output"]
    parts = [
        "// Written by scripts/embed-model.py from Sources/MicCheck/Resources/VoiceActivityModel.json: do not edit.",
        "// Each weight is the bit pattern of its Float (IEEE binary32).",
        "",
        "extension VoiceActivityModel {",
        "    private static func floats(_ words: [UInt32]) -> [Float] { words.map { Float(bitPattern: $0) } }",
        "",
        "    /// The weights of the model trained for MicCheck (``bundled``).",
        "    package static let bundledWeights = Weights(",
        f"        features: {m['features']},",
        f"        featureNames: {names_text},",
        f"        lookahead: {m.get('lookahead', 0)},",
        floats("inputMean", m["inputMean"]),
        floats("inputScale", m["inputScale"]),
        f"        denseInputs: {d['inputs']},",
        f"        denseOutputs: {d['outputs']},",
        floats("denseWeights", d["weights"]),
        floats("denseBias", d["bias"]),
        f"        gruInputs: {g['inputs']},",
        f"        hidden: {g['hidden']},",
        floats("gruInputWeights", g["inputWeights"]),
        floats("gruRecurrentWeights", g["recurrentWeights"]),
        floats("gruInputBias", g["inputBias"]),
        floats("gruRecurrentBias", g["recurrentBias"]),
        f"        outputInputs: {o['inputs']},",
        f"        outputOutputs: {o['outputs']},",
        floats("outputWeights", o["weights"]),
        floats("outputBias", o["bias"]).rstrip(","),
        "    )",
        "}",
        "",
    ]
    out.write_text("\n".join(parts))
    print(f"embed-model.py: wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


if __name__ == "__main__":
    main()

"""Frame labels from the corpus's label files: each 10 ms frame is speech when its centre lies in a
labelled segment."""
import json

import numpy as np

from miccheck_train.commands.feature_auc import labels
from miccheck_train.features import frame_labels, utterance_ends, utterance_starts
from miccheck_train.mixtures import corpus_voice_labels, corpus_voices

from conftest import SR


def test_frame_centres_decide():
    # Frame n covers n*10...(n+1)*10 ms; its centre is at n*10 + 5 ms.
    y = frame_labels([[0.10, 0.20]], 30)
    assert y.dtype == bool and len(y) == 30
    assert np.flatnonzero(y).tolist() == list(range(10, 20))
    # A segment takes in the frames whose centres it holds, however little of the others it covers.
    assert np.flatnonzero(frame_labels([[0.1051, 0.1249]], 30)).tolist() == [11]
    assert np.flatnonzero(frame_labels([[0.1049, 0.1251]], 30)).tolist() == [10, 11, 12]


def test_segments_join_and_clip():
    y = frame_labels([[0.0, 0.05], [0.03, 0.08], [0.5, 9.0]], 60)
    assert np.flatnonzero(y).tolist() == list(range(0, 8)) + list(range(50, 60))
    assert not frame_labels([], 10).any()
    assert len(frame_labels([[0, 1]], 0)) == 0


def test_utterance_bounds():
    y = frame_labels([[0.02, 0.05], [0.10, 0.13]], 20).astype(np.float32)
    assert utterance_starts(y).tolist() == [2, 10]
    assert utterance_ends(y).tolist() == [5, 13]


def write_corpus(folder, files):
    for name, label in files.items():
        (folder / f"{name}.json").write_text(json.dumps(label))
        if "duration_s" in label:
            import soundfile as sf
            sf.write(folder / f"{name}.wav", np.zeros(int(label["duration_s"] * SR)), SR, subtype="PCM_16")


def test_labels_of_a_corpus_file(tmp_path):
    write_corpus(tmp_path, {"clean_00_x": {"file": "clean_00_x.wav", "duration_s": 1.0, "scenario": "clean",
                                           "speech": [[0.2, 0.35], [0.7, 0.9]]},
                            "noise_00_y": {"file": "noise_00_y.wav", "duration_s": 1.0, "scenario": "noise_only",
                                           "speech": []}})
    y = labels(str(tmp_path / "clean_00_x.wav"), 100)
    assert np.flatnonzero(y).tolist() == list(range(20, 35)) + list(range(70, 90))
    assert not labels(str(tmp_path / "noise_00_y.wav"), 100).any()


def test_corpus_voices_are_its_clean_quiet_and_dead_mic_speech(tmp_path):
    write_corpus(tmp_path, {
        "clean_00_a": {"duration_s": 1.0, "scenario": "clean", "speech": [[0.1, 0.5]], "speech_source": "a"},
        "quiet_00_b": {"duration_s": 1.0, "scenario": "quiet", "speech": [[0.2, 0.6]], "speech_source": "b"},
        "snr10_00_c": {"duration_s": 1.0, "scenario": "snr", "speech": [[0.2, 0.6]], "speech_source": "c"},
        "clean_01_silent": {"duration_s": 1.0, "scenario": "clean", "speech": [], "speech_source": "d"},
        "dead_mic_00_e": {"duration_s": 1.0, "scenario": "dead_mic", "speech": [[0.1, 0.3], [0.5, 0.9]],
                          "speech_source": "e", "dead_mic": {"from": 0.6}},
    })
    (tmp_path / "notes.json").write_text("[1, 2]")   # not a label file
    found = corpus_voice_labels(str(tmp_path))
    assert [lab["speech_source"] for _, lab in found] == ["a", "e", "b"]
    voices = corpus_voices(str(tmp_path), {"b"})
    assert [v.name for v in voices] == ["corpus-a", "corpus-e"]
    assert len(voices[1].signal) == int(0.6 * SR)   # cut where the microphone died
    assert voices[1].labels == [[0.1, 0.3], [0.5, 0.6]]

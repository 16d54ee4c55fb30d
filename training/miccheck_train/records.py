"""The training material as records: a voice or a noise to mix (`Voice`, `Noise`), where a mixture's sound
comes from (`Group`: the sources the validation split holds out) and a mixture itself (`Mixture`). It
imports nothing of the package."""
from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class Voice:
    """A voice to mix: its signal (16 kHz), its speech segments ([start, end] in seconds) and its name (the
    voice folder, the synthesiser and language, or "corpus-" and the corpus's speech source)."""
    signal: object
    labels: list
    name: str


@dataclass(frozen=True, eq=False)
class Noise:
    """A noise to mix: its signal, its category (the pool's, or a synthetic kind) and its package (the source
    a fold holds out: a noise file and its telephone twin share one)."""
    signal: object
    category: str
    package: str


@dataclass(frozen=True)
class Group:
    """Where a mixture's sound comes from, as the validation split sees it: its voice (None for noise alone)
    and the packages of the noises in it, in the order they were mixed (none for a voice over a faint floor)."""
    voice: str | None = None
    noises: tuple = ()

    @property
    def parts(self):
        """The voice and the noises' packages: the sources a fold may hold out."""
        return ((self.voice,) if self.voice is not None else ()) + tuple(self.noises)

    @property
    def name(self):
        """The parts joined by "|": the group as --fold-corpus's labels and the caches write it."""
        return "|".join(self.parts)

    @classmethod
    def named(cls, name, voiced):
        """The group whose `name` a cache holds: `voiced` if its first part is a voice."""
        parts = tuple(name.split("|"))
        return cls(parts[0], parts[1:]) if voiced else cls(None, parts)


@dataclass(frozen=True, eq=False)
class Mixture:
    """A mixture to train on: its signal, its speech segments, its `Group`, the voice alone at -26 dBFS
    (TEACHER_DBFS: what the teacher hears with --teacher-hears clean and what --aux-snr reads; None for noise
    alone, or once neither needs it), the gain that brings its voice to -26 dBFS (--teacher-hears level;
    None for noise alone), and its corpus scenario and music_vocals (what --fold-corpus writes; the main
    mixtures have them, `mixtures.channelled`)."""
    signal: object
    labels: list
    group: Group
    clean: object = None
    gain: float | None = None
    scenario: str | None = None
    music_vocals: bool = False

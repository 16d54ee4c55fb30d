/// What a microphone test found in its recording: one of six outcomes, with the figures behind it.
///
/// Judged by ``MicrophoneTest`` from MicCheck's own analysis of the recording (the voice activity
/// detector, the dead-microphone, clipping and noise detectors), in this order: a dead microphone, then
/// clipping, then no voice, then a voice too quiet, then a noisy room; otherwise the voice came through
/// clearly.
public struct MicrophoneTestVerdict: Sendable, Hashable {
    /// The outcome, one of six; its raw value is the `verdict` of the JSON fields.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The voice came through clearly: a good level, well above the room's noise.
        case clear
        /// Speech was heard, but too quietly for others to hear it well.
        case tooQuiet = "too_quiet"
        /// The input is cut flat at a ceiling: too loud, it distorts.
        case clipping
        /// Speech was heard, but the room's noise is close to it.
        case noisy
        /// The microphone works, but no voice was heard.
        case noVoice = "no_voice"
        /// Nothing a room could have produced came through (or no audio arrived at all).
        case dead
    }

    /// How the input was cut flat: at a ceiling (dBFS), in a share of the samples.
    public struct Clipping: Sendable, Hashable {
        /// The ceiling, dBFS.
        public var ceilingDB: Float
        /// The share of the samples cut flat, 0…1.
        public var share: Float

        /// Clipping at `ceilingDB` (dBFS) in a `share` (0…1) of the samples.
        public init(ceilingDB: Float, share: Float) {
            self.ceilingDB = ceilingDB
            self.share = share
        }
    }

    /// The outcome.
    public var kind: Kind
    /// Seconds of audio the test recorded.
    public var recordedSeconds: Double
    /// Seconds of it that were speech.
    public var speechSeconds: Double
    /// The speech's active level (the mean power of its frames), dBFS; nil without speech.
    public var speechLevelDB: Float?
    /// The room's level between words (the median of the frames the model does not take for speech:
    /// probability under 0.5), dBFS; nil when there were none.
    public var noiseLevelDB: Float?
    /// The noise's kind, where the noise detector named it.
    public var noise: NoiseKind?
    /// For ``Kind/clipping``: the ceiling (dBFS) and the share of the samples cut flat.
    public var clipping: Clipping?
    /// For ``Kind/dead``: why (nil when no audio arrived at all).
    public var dead: DeadMicrophoneSignature?

    /// A verdict from its outcome and the figures behind it.
    public init(
        kind: Kind, recordedSeconds: Double, speechSeconds: Double = 0, speechLevelDB: Float? = nil,
        noiseLevelDB: Float? = nil, noise: NoiseKind? = nil, clipping: Clipping? = nil,
        dead: DeadMicrophoneSignature? = nil
    ) {
        self.kind = kind
        self.recordedSeconds = recordedSeconds
        self.speechSeconds = speechSeconds
        self.speechLevelDB = speechLevelDB
        self.noiseLevelDB = noiseLevelDB
        self.noise = noise
        self.clipping = clipping
        self.dead = dead
    }

    /// How far the speech stands above the room's noise, dB.
    public var signalToNoiseDB: Float? {
        guard let speechLevelDB, let noiseLevelDB else { return nil }
        return speechLevelDB - noiseLevelDB
    }

    /// What to tell the user; `source` names the microphone whose volume to change, where known.
    public func sentence(source: String? = nil) -> String {
        let volume = source.map { "the input volume of \($0)" } ?? "your microphone's input volume"
        let db = MicrophoneWarning.db
        switch kind {
        case .clear:
            let above = signalToNoiseDB.map { ", \(db($0)) dB above the room's noise" } ?? ""
            return "Your voice came through clearly: \(speechLevelDB.map(db) ?? "?") dBFS while you spoke\(above)."
        case .tooQuiet:
            return
                "Your voice came through too quietly (\(speechLevelDB.map(db) ?? "?") dBFS while you spoke). "
                + "Raise \(volume), or move closer to the microphone."
        case .clipping:
            let figures = clipping.map {
                ": \(MicrophoneWarning.percent($0.share)) of the sound was cut flat at \(db($0.ceilingDB)) dBFS"
            }
            return "Your voice came through distorted, too loud\(figures ?? ""). Lower \(volume)."
        case .noisy:
            let what = noise?.description ?? "background noise"
            let level = noiseLevelDB.map { " (\(db($0)) dBFS)" } ?? ""
            let gap = signalToNoiseDB.map { ", only \(db($0)) dB below your voice" } ?? ""
            return
                "Your voice came through, but so does \(what)\(level)\(gap). "
                + "Move somewhere quieter, or turn on noise suppression."
        case .noVoice:
            let device = source.map { "that \($0) is the microphone you speak into" } ?? "your microphone"
            return "No voice was heard. Speak during the test, and check \(device)."
        case .dead:
            guard let dead else {
                return "No audio arrived from the microphone during the test. Check that it is plugged in and chosen."
            }
            return
                "Your microphone doesn't seem to be working: \(dead.explanation). "
                + "Check that it is plugged in and not muted on the device."
        }
    }
}

#if canImport(MicCheckPulse)
    public import MicCheckLive
    public import MicCheckPulse

    extension OtherAudioDucker {
        /// Follows a live analysis: with advanced ducking, other audio goes lower while the user speaks.
        public func consume(_ record: LiveRecord) {
            if case .analysis(.event(.speechStarted)) = record { setSomeoneSpeaking(true) }
            if case .analysis(.event(.speechEnded)) = record { setSomeoneSpeaking(false) }
        }
    }
#endif

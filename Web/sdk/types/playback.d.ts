export class PcmPlayer {
    /** @param {{sinkId?: string}} options the output's device id ('' or 'default': the default output) */
    constructor({ sinkId }?: {
        sinkId?: string;
    });
    context: AudioContext;
    output: AudioDestinationNode;
    audio: HTMLAudioElement | null;
    source: AudioBufferSourceNode | null;
    ended: (() => void) | null;
    closed: boolean;
    ready: Promise<void>;
    /**
     * Plays `samples` (16-bit PCM, mono) at `sampleRate`; resolves when they have played or `stop()` was called.
     * @param {Int16Array} samples
     */
    play(samples: Int16Array, sampleRate?: number): Promise<void>;
    /** Stops what plays (its `play()` resolves). */
    stop(): void;
    /** Stops, and lets the context and the output go. */
    close(): void;
    #private;
}

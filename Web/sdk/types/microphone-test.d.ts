/** Throws the `MicCheckError` that says why a test cannot start now, if one cannot. */
export function refuseTest({ seconds, closed, busy, joined, allowed, microphone, muted, open }: {
    seconds: any;
    closed: any;
    busy: any;
    joined: any;
    allowed: any;
    microphone: any;
    muted: any;
    open: any;
}): void;
export const TEST_SECONDS: Readonly<{
    min: 1;
    max: 10;
    default: 5;
}>;
export class MicrophoneTestRunner {
    /**
     * @param {{send: (message: object) => void, emit: (type: string, detail: object) => void,
     *   makePlayer?: (options: {sinkId: string}) => {play(samples: Int16Array, rate: number): Promise<void>,
     *   stop(): void, close(): void}}} options
     */
    constructor({ send, emit, makePlayer }: {
        send: (message: object) => void;
        emit: (type: string, detail: object) => void;
        makePlayer?: ((options: {
            sinkId: string;
        }) => {
            play(samples: Int16Array, rate: number): Promise<void>;
            stop(): void;
            close(): void;
        }) | undefined;
    });
    send: (message: object) => void;
    emit: (type: string, detail: object) => void;
    makePlayer: ((options: {
        sinkId: string;
    }) => {
        play(samples: Int16Array, rate: number): Promise<void>;
        stop(): void;
        close(): void;
    }) | ((options: {
        sinkId: string;
    }) => PcmPlayer);
    /** Whether a test records or plays back. */
    get busy(): boolean;
    /** `recording`, `playing`, or null. */
    get phase(): any;
    /**
     * Starts a test (the caller checked that one may start). Resolves with the verdict once played back.
     * @returns {Promise<object>}
     */
    start({ seconds, sinkId, playBack }: {
        seconds: any;
        sinkId: any;
        playBack: any;
    }): Promise<object>;
    /** A block of 16 kHz 16-bit PCM the client has just sent: kept while recording, up to the test's length. */
    keep(block: any): void;
    /** A decoded `microphone_test` message from the server. */
    receive(m: any): void;
    /** Stops a test: `message` says why. Returns whether one was running. */
    cancel(message?: string): boolean;
    /** The connection is gone: a test still recording cannot be judged (one playing back goes on). */
    connectionLost(): void;
    #private;
}
import { PcmPlayer } from "./playback.js";

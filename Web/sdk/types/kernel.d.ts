/**
 * Compiles miccheck.wasm from a Response (or its promise), an ArrayBuffer or typed array, or returns a Module as
 * it is. Throws a TypeError naming what went wrong (a 404, a content policy without 'wasm-unsafe-eval').
 */
export function compileKernel(source: any): Promise<WebAssembly.Module>;
/** The most samples one `process` call hands the module at a time (longer blocks are cut). */
export const KERNEL_BLOCK: 4096;
/** One stream's analysis: mono samples (−1…1) at `sampleRate` in, records out. */
export class KernelAnalysis {
    /**
     * @param {WebAssembly.Module} module the compiled miccheck.wasm
     * @param {number} sampleRate samples a second, 8000 to 96000
     */
    constructor(module: WebAssembly.Module, sampleRate: number);
    instance: WebAssembly.Instance;
    k: WebAssembly.Exports;
    sampleRate: number;
    handle: any;
    /** Analyses `samples` (a Float32Array); returns the records they decided, in time order. */
    process(samples: any): any[];
    /** Ends the stream (an utterance in progress ends); returns the last records. The analysis is closed after. */
    finish(): any[];
    /** Frees the module's memory for this analysis; further calls throw. */
    close(): void;
    #private;
}
/**
 * One participant's microphone, decided on the device: the analysis, the call's rules (the meter, speaking,
 * "You are muted.", "Your typing can be heard.", "not working", the warnings) and "Test your microphone", in
 * the kernel (Swift's MicrophoneChannel). Each call returns the messages it made, as UTF-8 bytes of JSON texts,
 * one a line (`microphone`, `muted_notice`, `typing_notice`, `microphone_test`: byte for byte what
 * `miccheck serve` says when it analyses), or null. Bytes, not strings: an AudioWorklet has no TextDecoder;
 * `KernelMicrophone.texts(bytes)` decodes them where there is one.
 */
export class KernelMicrophone {
    /** The JSON texts of messages' bytes. */
    static texts(bytes: any): string[];
    /**
     * @param {WebAssembly.Module} module the compiled miccheck.wasm
     * @param {number} sampleRate the capture's own rate, 8000 to 96000: levels and clipping are judged on it
     * @param {{ audioOn?: boolean, maySendAudio?: boolean, now?: number }} [state]
     */
    constructor(module: WebAssembly.Module, sampleRate: number, { audioOn, maySendAudio, now }?: {
        audioOn?: boolean | undefined;
        maySendAudio?: boolean | undefined;
        now?: number | undefined;
    } | undefined);
    k: WebAssembly.Exports;
    handle: any;
    /**
     * Where to write a block of up to KERNEL_BLOCK samples for `audioWritten`: a view of the kernel's own input
     * buffer, made again only when the module's memory grows (a worklet writes its block here, with no copy and no
     * allocation per block).
     */
    inputView(): Float32Array | undefined;
    view: Float32Array | undefined;
    /** The first `count` samples of `inputView()` (written there), at `now` seconds. */
    audioWritten(count: any, now: any): Uint8Array | null;
    /** A block of the microphone (a Float32Array, −1…1) at `now` seconds. */
    audio(samples: any, now: any): any;
    /** The microphone's toggle; `cause` of a mute: `self`, `push-to-talk` or `host`. */
    setMicrophone(on: any, cause: any, now: any): Uint8Array | null;
    /** The participant joined the call (true) or is in the lobby. */
    enter(inCall: any): Uint8Array | null;
    /** "Don't show again for this call." */
    silenceMutedNotice(): Uint8Array | null;
    /** The clock moved (every 250 ms or so) without audio. */
    tick(now: any): Uint8Array | null;
    /** "Test your microphone" for `seconds` (1 to 10); a refusal is a `microphone_test` message, `refused`. */
    startTest(seconds: any, now: any): Uint8Array | null;
    cancelTest(): Uint8Array | null;
    /** Whether the participant speaks now. */
    get speaking(): boolean;
    /** Whether a microphone test records now (it has not ended: done or cancelled). */
    get testing(): boolean;
    close(): void;
    #private;
}

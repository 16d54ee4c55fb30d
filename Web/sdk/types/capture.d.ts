/** The microphone to the server: 20 ms blocks of 16 kHz 16-bit PCM, handed to `onBlock` as ArrayBuffers. */
export class PcmCapture extends WorkletCapture {
    /** @param {((block: ArrayBuffer) => void) | null} onBlock (the client sets it) */
    constructor(onBlock: ((block: ArrayBuffer) => void) | null);
    onBlock: ((block: ArrayBuffer) => void) | null;
    received(block: any): void;
}
/**
 * The microphone decided on the device: the analysis worklet (analysis-worklet.js) runs MicCheck's kernel
 * (miccheck.wasm) at the AudioContext's own rate. `onMessages(texts, speaking)` gets the kernel's messages (the
 * same JSON texts `miccheck serve` sends when it analyses) and whether the participant speaks; `onBlock` gets a
 * microphone test's 16 kHz PCM for its playback. Nothing is sent anywhere by this class.
 */
export class DeviceCapture extends WorkletCapture {
    /**
     * @param {WebAssembly.Module} module the compiled miccheck.wasm
     * @param {{ onMessages?: (texts: string[], speaking: boolean) => void,
     *   onBlock?: (block: ArrayBuffer) => void }} sinks
     */
    constructor(module: WebAssembly.Module, { onMessages, onBlock }?: {
        onMessages?: ((texts: string[], speaking: boolean) => void) | undefined;
        onBlock?: ((block: ArrayBuffer) => void) | undefined;
    });
    module: WebAssembly.Module;
    onMessages: (texts: string[], speaking: boolean) => void;
    onBlock: (block: ArrayBuffer) => void;
    state: {
        audioOn: boolean;
        maySendAudio: boolean;
    };
    pending: any[];
    decoder: TextDecoder;
    nodeOptions(): {
        processorOptions: {
            audioOn: boolean;
            maySendAudio: boolean;
            module: WebAssembly.Module;
        };
    };
    received(data: any): void;
    /** A command for the kernel (see analysis-worklet.js); kept until the worklet runs. */
    command(message: any): void;
}
export class SwitchedCapture {
    onBlock: any;
    use(capture: any): void;
    start(stream: any): Promise<any>;
    stop(): void;
    resume(): void;
    close(): void;
    #private;
}
/** What both captures share: the context, the worklet's node (kept playing into a silent sink), the source. */
declare class WorkletCapture {
    /** @param {string} module the worklet's file, beside this one; @param {string} processor its name */
    constructor(module: string, processor: string);
    context: AudioContext | null;
    node: AudioWorkletNode | null;
    source: MediaStreamAudioSourceNode | null;
    ready: any;
    /** The AudioWorkletNode's options (a subclass's processorOptions). */
    nodeOptions(): {};
    /** A message from the worklet. */
    received(): void;
    /** The worklet runs (a subclass sends what it kept for it). */
    running(): void;
    /** The source changed or went: a subclass's worklet may start afresh. */
    sourceChanged(): void;
    /** Captures `stream`'s audio from now on (the previous stream's source is let go). */
    start(stream: any): Promise<void>;
    /** Stops until the next start (the stream has no audio any more). */
    stop(): void;
    /** An AudioContext made before a click may start suspended: call from a user's gesture. */
    resume(): void;
    close(): void;
    #private;
}
export {};

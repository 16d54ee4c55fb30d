export class LocalAudio {
    /**
     * @param {{deviceId: string, processing: boolean}} choice the microphone to open
     * @param {{start(stream: MediaStream): Promise<void>, stop(): void, close(): void}} capture
     * @param {(type: string, detail: object) => void} emit the client's events
     * @param {() => void} changed the stream changed (the client tells the server its devices)
     */
    constructor(choice: {
        deviceId: string;
        processing: boolean;
    }, capture: {
        start(stream: MediaStream): Promise<void>;
        stop(): void;
        close(): void;
    }, emit: (type: string, detail: object) => void, changed: () => void);
    choice: {
        deviceId: string;
        processing: boolean;
    };
    capture: {
        start(stream: MediaStream): Promise<void>;
        stop(): void;
        close(): void;
    };
    emit: (type: string, detail: object) => void;
    changed: () => void;
    /** @type {MediaStream | null} */
    stream: MediaStream | null;
    /** Uses the app's own stream (its first audio track). Throws `no-audio-track` without one. */
    use(stream: any): Promise<void>;
    /** Opens a microphone of the client's own: `deviceId`, or the default (and says so when it falls back). */
    open(choice?: {}): Promise<void>;
    /**
     * Stops listening for good on this connection's role (one that may not send audio): a microphone the client
     * opened is closed (the browser stops showing it in use); an app's stream is left to the app.
     */
    drop(): void;
    /** Stops a microphone the client opened itself, and the capture. */
    close(): void;
    #private;
}

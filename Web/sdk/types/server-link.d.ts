export class ServerLink {
    /**
     * @param {{endpoint: string, server: URL | null, call: string | null, token: unknown,
     *   analysis: () => string}} config the client's options (`analysis` as it stands at each try)
     * @param {{onOpen: () => void, onText: (text: string) => void, onLost: () => void,
     *   onState: (state: string, message: string, extra: object) => void}} on
     * @param {{WebSocket?: unknown, backoff?: object}} options
     */
    constructor(config: {
        endpoint: string;
        server: URL | null;
        call: string | null;
        token: unknown;
        analysis: () => string;
    }, on: {
        onOpen: () => void;
        onText: (text: string) => void;
        onLost: () => void;
        onState: (state: string, message: string, extra: object) => void;
    }, options: {
        WebSocket?: unknown;
        backoff?: object;
    });
    get isOpen(): boolean;
    open(): void;
    close(): void;
    /** A message of the protocol's, as JSON. */
    send(message: any): void;
    /** A block of audio; false when it could not go (not open, or the network stalls). */
    sendAudio(block: any): boolean;
    /** The page's devices, once for each change: a toggle also changes the stream or the permission. */
    sendDevices(message: any): void;
    /** A welcome starts the page's role anew: its devices go again. */
    forgetDevices(): void;
    stateSpeaking(speaking: any): void;
    #private;
}

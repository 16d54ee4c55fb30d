export * from "./types.js";
declare const MicCheckClient_base: import("./types.js").TypedEventTarget<import("./types.js").MicCheckClientEventMap>;
/**
 * A microphone's level, speaking, the muted notice, "not working", the microphone test and the call's presence,
 * as events (`MicCheckClientEventMap`); Guides/Browser.md, "Use it in your own app", shows it at work.
 */
export class MicCheckClient extends MicCheckClient_base {
    /** @param {import('./types.js').MicCheckClientOptions} [options] */
    constructor(options?: import("./types.js").MicCheckClientOptions | undefined);
    /** @type {'call' | 'vad' | 'none'} */
    get endpoint(): "none" | "call" | "vad";
    /**
     * The server's address; null with no server (endpoint `none`).
     * @type {URL | null}
     */
    get server(): URL | null;
    /** @type {string | null} */
    get call(): string | null;
    /** @type {import('./types.js').MicCheckClientOptions['token'] | null} */
    get token(): string | (() => string | Promise<string>) | null | undefined;
    /**
     * Where the microphone is analysed (`device` until a kernel that could not load says otherwise).
     * @type {import('./types.js').AnalysisMode}
     */
    get analysis(): import("./types.js").AnalysisMode;
    /** @type {import('./types.js').ConnectionState} */
    get state(): import("./types.js").ConnectionState;
    /** @type {boolean} */
    get muted(): boolean;
    /** @type {MuteCause | null} */
    get muteCause(): import("./types.js").MuteCause | null;
    /**
     * Whether the page sends video (`setVideo`).
     * @type {boolean}
     */
    get video(): boolean;
    /** @type {boolean} */
    get joined(): boolean;
    /**
     * This page's participant id (after `welcome`).
     * @type {string | null}
     */
    get me(): string | null;
    /**
     * What this participant may do (`send-audio`, `send-video`, a host's `mute-users`); null before `welcome`.
     * @type {string[] | null}
     */
    get capabilities(): string[] | null;
    /**
     * The last microphone check.
     * @type {MicrophoneState | null}
     */
    get microphone(): import("./types.js").MicrophoneState | null;
    /** @type {boolean} */
    get speaking(): boolean;
    /**
     * The stream MicCheck listens to, or null (no microphone).
     * @type {MediaStream | null}
     */
    get stream(): MediaStream | null;
    /**
     * The participants of the call by id (the version rule keeps it in step with the server).
     * @type {Map<string, Participant>}
     */
    get participants(): Map<string, import("./types.js").Participant>;
    /**
     * The participants other than this page's.
     * @returns {Participant[]}
     */
    others(): Participant[];
    /**
     * Opens the microphone (unless a stream was given) and connects; it connects even when the microphone
     * cannot be opened (`permission` says why), so that presence and the call still work. With no server
     * (endpoint `none`) it connects to nothing, and rejects with `no-analysis` when the kernel cannot run. Rejects
     * with `MicCheckError` on bad input.
     * @returns {Promise<void>}
     */
    start(): Promise<void>;
    /**
     * Whether this participant may send `audio` or `video`, or `mute-users` (a host): the welcome's capabilities;
     * before it, sending unless the invitation (a token given as a string) names a listener (a listener's client
     * opens no microphone). A welcome that does not let this participant send audio stops the client listening:
     * `stream` is null by the time the `welcome` event fires, and a microphone the client opened is closed.
     * @param {'audio' | 'video' | 'mute-users'} kind
     * @returns {boolean}
     */
    may(kind: 'audio' | 'video' | 'mute-users'): boolean;
    /**
     * Uses the app's own stream from now on (its first audio track). Rejects with `no-audio-track` without one.
     * @param {MediaStream} stream
     * @returns {Promise<void>}
     */
    setStream(stream: MediaStream): Promise<void>;
    /**
     * Opens a microphone of the client's own: `deviceId`, or the default (and says so when it falls back). Not for
     * a participant who may not send audio (a listener): nothing is opened.
     * @param {{deviceId?: string, processing?: boolean}} [choice]
     * @returns {Promise<void>}
     */
    openMicrophone(choice?: {
        deviceId?: string | undefined;
        processing?: boolean | undefined;
    } | undefined): Promise<void>;
    /**
     * Muted or not, and why: `self`, `host` or `push-to-talk` (no muted notice while a push-to-talk key is up; the
     * server is told the cause, and sends none either). While muted in the call MicCheck still listens (in the
     * page; with `analysis: 'server'` the audio goes to the server, never to the others), so that it can say "You
     * are muted."; the browser shows the microphone in use (`CAPTURE_NOTE`).
     * @param {boolean} muted
     * @param {MuteCause} [cause]
     */
    setMuted(muted: boolean, cause?: import("./types.js").MuteCause | undefined): void;
    /** The muted notice's action. */
    unmute(): void;
    /**
     * A host mutes another participant: their microphone goes off and their page hears who did it. Throws
     * `MicCheckError` `not-allowed` without `may('mute-users')`, `not-joined` outside the call, `bad-option`
     * for oneself or someone not in the call; a refusal of the server's comes as an `error` event.
     * @param {string} id
     */
    muteParticipant(id: string): void;
    /**
     * Whether the page sends video (the others see it in presence).
     * @param {boolean} on
     */
    setVideo(on: boolean): void;
    /**
     * Joins the call under `name` (an invitation's name wins); rejoins by itself after a reconnection.
     * @param {string} name
     */
    join(name: string): void;
    /** Leaves the call (the connection stays: presence and the lobby go on). */
    leave(): void;
    /**
     * WebRTC signalling to another participant (relayed by the server, checked on the way).
     * @param {string} to
     * @param {object} data
     */
    signal(to: string, data: object): void;
    /** "Don't show again for this call." */
    mutedNoticeOff(): void;
    /** Call from a click: an AudioContext made before any gesture may start suspended. */
    resume(): void;
    /**
     * "Test your microphone", from a click: the next `seconds` (1 to 10) of the microphone, judged by MicCheck (a
     * server keeps none of it), then played back through `sinkId` (an output's device id; the default output
     * without one, or where the browser cannot choose) unless `playBack` is false. Steps as `microphonetest`
     * events; resolves with the verdict once played back. Rejects with `MicCheckError`: before it starts with
     * `bad-option`, `closed`, `test-busy`, `in-call`, `not-allowed`, `no-microphone`, `muted` ("Turn your
     * microphone on to test it.") or `not-connected`; later with `test-cancelled` (cancelled, joined or left,
     * muted, another microphone, the client closed while it records) or `test-failed` (the connection lost, no
     * answer).
     * @param {import('./types.js').MicrophoneTestOptions} [options]
     * @returns {Promise<import('./types.js').MicrophoneTestVerdict>}
     */
    testMicrophone(options?: import("./types.js").MicrophoneTestOptions | undefined): Promise<import('./types.js').MicrophoneTestVerdict>;
    /**
     * Stops a microphone test: recording, it ends `cancelled`; playing back, the sound stops and it ends `done`.
     * @returns {boolean} whether there was a test to stop
     */
    cancelMicrophoneTest(): boolean;
    /** Disconnects for good, and stops a microphone the client opened itself. */
    close(): void;
    #private;
}
export type MuteCause = import('./types.js').MuteCause;
export type Participant = import('./types.js').Participant;
export type MicrophoneState = import('./types.js').MicrophoneState;

/**
 * Why the microphone is off: the user's own toggle, a host's mute, or a push-to-talk key that is up.
 */
export type MuteCause = 'self' | 'host' | 'push-to-talk';
/**
 * The connection to the server: `refused` (a refusal, said once) and `closed` are for good.
 */
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed';
/**
 * Where the microphone is analysed: in the page (no audio leaves it), or by the server.
 */
export type AnalysisMode = 'device' | 'server';
/**
 * What `new MicCheckClient(options)` takes.
 */
export type MicCheckClientOptions = {
    /**
     * The server's address, `https://host:port`. Default: the origin this module
     * was loaded from.
     */
    server?: string | URL | undefined;
    /**
     * The call's id (1 to 64 letters, digits, `-`, `_`): connects to `/v1/call`. Without
     * one, `/v1/vad`.
     */
    call?: string | undefined;
    /**
     * `call` (presence, the muted notice, the microphone check),
     * `vad` (speech events only), or `none`: no MicCheck server at all (a static page, an app with its own media
     * server). With `none` the page's own analysis gives the meter, speaking, "You are muted.", the typing notice,
     * "not working" and the microphone test; `join` and `leave` say whether the page is in its call (the notices
     * are the call's), and nothing is sent anywhere.
     */
    endpoint?: "none" | "call" | "vad" | undefined;
    /**
     * An invitation's join token (`miccheck token`),
     * sent with the connection; or a function that gives one (or a promise of one), asked before each try to
     * connect. The server closes a connection when its token expires (4401, "the invitation expired; reconnect
     * with a new one"): with a function the client asks it for a new token and reconnects, as after a lost
     * connection (`reconnecting`, then joined again with the same devices); with a string that close is a refusal
     * (`refused`, its reason said once). A function that throws or gives no string is a failed try, retried with
     * backoff; a token the server refuses as it connects is a refusal either way.
     */
    token?: string | (() => string | Promise<string>) | undefined;
    /**
     * The app's own stream (its call SDK's local track, for instance). MicCheck
     * listens to its first audio track and never stops it. Without one, the client opens the microphone itself
     * (and falls back to the default one when the chosen one is gone or unplugged).
     */
    stream?: MediaStream | undefined;
    /**
     * The microphone the client opens: a device
     * id, and the browser's processing (on unless false).
     */
    microphone?: {
        deviceId?: string | undefined;
        processing?: boolean | undefined;
    } | undefined;
    /**
     * Reconnection: the first wait, the
     * longest and the factor, in milliseconds (1000, 10000, 2).
     */
    backoff?: {
        first?: number | undefined;
        max?: number | undefined;
        factor?: number | undefined;
    } | undefined;
    /**
     * Where the microphone is analysed. `device` (the default for a call):
     * MicCheck's own analysis compiled to WebAssembly runs in the page's AudioWorklet, and no audio leaves the
     * page; the server hears the page's statements (its devices, whether it speaks). `server`: the page sends its
     * microphone as PCM (`/v1/vad` always does). A kernel that cannot load falls back to `server`, and the
     * `analysis` event says why.
     */
    analysis?: AnalysisMode | undefined;
    /**
     * Where miccheck.wasm is (default: beside this module), its bytes, a Response, or a compiled module.
     */
    wasm?: string | ArrayBuffer | ArrayBufferView | URL | Response | Promise<Response> | WebAssembly.Module | undefined;
};
/**
 * A participant of the call, as presence says.
 */
export type Participant = {
    id: string;
    name: string;
    /**
     * Their microphone is on (they may be heard).
     */
    audio: boolean;
    video: boolean;
    /**
     * MicCheck's detector hears them speak (only while their microphone is on).
     */
    speaking: boolean;
    /**
     * Set by the page for its own participant.
     */
    self?: boolean | undefined;
};
/**
 * The microphone check, about every 100 ms (and at once when speaking starts or ends).
 */
export type MicrophoneState = {
    on: boolean;
    levelDb: number;
    /**
     * The meter, 0…1 (−50…0 dBFS); 0 while off.
     */
    display: number;
    speaking: boolean;
    /**
     * "Your microphone doesn't seem to be working. …", or null.
     */
    notWorking: string | null;
    /**
     * The check's other sentences: noisy, clipping, too quiet.
     */
    warnings: string[];
};
/**
 * A notice's button: its label and the key the app binds to it (`{label: 'Unmute', key: 'm'}`).
 */
export type NoticeAction = {
    label: string;
    key: string;
};
/**
 * "You are muted.": show it or hide it.
 */
export type MutedNotice = {
    show: boolean;
    text: string;
    durationMs: number;
    cause: MuteCause | null;
    /**
     * What the notice offers: `{label: 'Unmute', key: 'm'}` (call
     * `client.unmute()`), or null when hiding.
     */
    action: NoticeAction | null;
    /**
     * While a host's mute holds, "Grace muted you." (show it with the
     * notice); else null.
     */
    announcement?: string | null | undefined;
};
/**
 * "Your typing can be heard." (typing heard while unmuted and not speaking, at most every 2 min).
 */
export type TypingNotice = {
    show: boolean;
    text: string;
    durationMs: number;
    /**
     * `{label: 'Mute', key: 'm'}` (the app mutes), or null when hiding.
     */
    action: NoticeAction | null;
};
/**
 * MicCheck's verdict on a microphone test before it is played back: `sentence` is what to show (the terminal
 * says the same).
 */
export type MicrophoneTestJudgement = {
    /**
     * The test's length asked for, in seconds.
     */
    seconds: number;
    verdict: 'clear' | 'too_quiet' | 'clipping' | 'noisy' | 'no_voice' | 'dead';
    /**
     * "Your voice came through clearly: -23.7 dBFS while you spoke, 39.2 dB above the
     * room's noise."
     */
    sentence: string;
    recordedSeconds: number;
    speechSeconds: number;
    /**
     * The speech's level while spoken, dBFS; null without speech.
     */
    speechLevelDb: number | null;
    /**
     * The room's level between words, dBFS; null when every frame was speech.
     */
    noiseLevelDb: number | null;
    /**
     * The noise's kind, where MicCheck named it.
     */
    noise?: string | undefined;
    /**
     * For `clipping`: the share of the samples cut flat.
     */
    clippedPercent?: number | undefined;
    /**
     * For `clipping`: the ceiling.
     */
    ceilingDb?: number | undefined;
    /**
     * For `dead`: why.
     */
    reason?: string | undefined;
};
/**
 * `playedBack`: whether the
 *   recording was played back to the end (false: the speaker was off, or it was stopped).
 */
export type MicrophoneTestVerdict = MicrophoneTestJudgement & {
    playedBack: boolean;
};
/**
 * A step of "Test your microphone": `recording` (at the start and at each whole second of audio sent, with
 * `secondsLeft`), `playing` (the verdict is known; the recording plays back), `done` (the verdict),
 * `cancelled` or `failed` (with `message`, the sentence to show).
 */
export type MicrophoneTestEvent = {
    state: 'recording';
    seconds: number;
    secondsLeft: number;
} | ({
    state: 'playing';
} & MicrophoneTestJudgement) | ({
    state: 'done';
} & MicrophoneTestVerdict) | {
    state: 'cancelled' | 'failed';
    seconds: number;
    message: string;
};
/**
 * What `testMicrophone()` takes.
 */
export type MicrophoneTestOptions = {
    /**
     * 1 to 10 seconds (5).
     */
    seconds?: number | undefined;
    /**
     * The output to play back through (a device id from `enumerateDevices`); '' or
     * 'default': the default one.
     */
    sinkId?: string | undefined;
    /**
     * False: no playback (the speaker is off); the verdict comes at once.
     */
    playBack?: boolean | undefined;
};
/**
 * The client's events by name, each a CustomEvent whose `detail` is the type given.
 */
export type MicCheckClientEventMap = {
    /**
     * The connection's state; `message` is the sentence to show (a refusal once,
     * a reconnection's wait).
     */
    connection: CustomEvent<{
        state: ConnectionState;
        message: string;
        code?: number;
        retryInMs?: number;
        attempt?: number;
    }>;
    welcome: CustomEvent<{
        id: string;
        call: string;
        capabilities: string[];
        name: string | null;
    }>;
    microphone: CustomEvent<MicrophoneState>;
    speaking: CustomEvent<{
        speaking: boolean;
    }>;
    /**
     * Where the microphone is
     * analysed, once decided at `start()`; `reason` says why not on the device.
     */
    analysis: CustomEvent<{
        mode: AnalysisMode;
        reason: string | null;
    }>;
    mutednotice: CustomEvent<MutedNotice>;
    /**
     *   The roster after a snapshot or a change (`change` is the `joined`/`updated`/`left` message, or null).
     */
    presence: CustomEvent<{
        participants: Participant[];
        me: string | null;
        change: object | null;
    }>;
    /**
     * WebRTC signalling from another participant.
     */
    signal: CustomEvent<{
        from: string;
        data: object;
    }>;
    mutechange: CustomEvent<{
        muted: boolean;
        cause: MuteCause | null;
    }>;
    /**
     * The
     * microphone was refused (`denied`), there is none (`missing`), or it cannot be opened (`unavailable`:
     * another program holds it, the hardware failed; `message` is the browser's error, '' otherwise).
     */
    permission: CustomEvent<{
        microphone: 'denied' | 'missing' | 'unavailable';
        message: string;
    }>;
    /**
     * A device fell back to the
     * default: `message` says so.
     */
    devicefallback: CustomEvent<{
        kind: 'audioinput';
        message: string;
    }>;
    /**
     * The microphone in use ended (unplugged). The
     * client's own falls back by itself; an app's is the app's.
     */
    microphoneended: CustomEvent<{
        label: string;
    }>;
    streamchange: CustomEvent<{
        stream: MediaStream;
    }>;
    /**
     * "Test your microphone": each step
     * (`testMicrophone`).
     */
    microphonetest: CustomEvent<MicrophoneTestEvent>;
    /**
     * A host muted this
     * participant: the microphone is off already (cause `host`); `text` is "Grace muted you.".
     */
    mutedbyhost: CustomEvent<{
        by: {
            id: string;
            name: string;
        };
        text: string;
    }>;
    typingnotice: CustomEvent<TypingNotice>;
    /**
     * `/v1/vad`'s events as they come (`level`,
     * `speech_started`, `microphone_silent`, …).
     */
    vad: CustomEvent<Record<string, unknown>>;
    /**
     * A server's refusal that leaves the connection open (a mute
     * by a non-host, of someone gone), or a bad message.
     */
    error: CustomEvent<{
        message: string;
    }>;
};
/**
 * What went wrong, for a program to test.
 */
export type MicCheckErrorCode = 'no-audio-track' | 'bad-call' | 'bad-option' | 'closed' | 'test-busy' | 'in-call' | 'not-allowed' | 'no-microphone' | 'muted' | 'not-connected' | 'test-cancelled' | 'test-failed' | 'not-joined' | 'no-analysis';
/**
 * A device `openDevice` opened, or why not.
 */
export type OpenedDevice = {
    stream: MediaStream | null;
    /**
     * The chosen device was gone: this is the default one.
     */
    fellBack: boolean;
    /**
     * The user or the browser refused.
     */
    denied: boolean;
    /**
     * There is no such device at all.
     */
    missing: boolean;
    /**
     * The device could not be opened (another program holds it, the hardware
     * failed); `error` is the browser's.
     */
    unavailable: boolean;
    error: string;
};
/**
 * An EventTarget whose listeners of the events named in `M` get those events' types (and any other name the
 * plain Event). The client's base class is EventTarget itself: this only types it.
 */
export type TypedEventTarget<M> = new () => {
    addEventListener<K extends keyof M>(type: K, listener: (event: M[K]) => void, options?: boolean | AddEventListenerOptions): void;
    addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
    removeEventListener<K_1 extends keyof M>(type: K_1, listener: (event: M[K_1]) => void, options?: boolean | EventListenerOptions): void;
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
} & EventTarget;

// The shapes of what the client hands an app: its options, the participants, the microphone check, the
// notices, the microphone test and every event, as JSDoc. No code: `tsc` reads them into the SDK's
// declarations (scripts/sdk-types.sh writes types/), and the modules that build these objects cite them.

/**
 * Why the microphone is off: the user's own toggle, a host's mute, or a push-to-talk key that is up.
 * @typedef {'self' | 'host' | 'push-to-talk'} MuteCause
 */

/**
 * The connection to the server: `refused` (a refusal, said once) and `closed` are for good.
 * @typedef {'idle' | 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed'} ConnectionState
 */

/**
 * Where the microphone is analysed: in the page (no audio leaves it), or by the server.
 * @typedef {'device' | 'server'} AnalysisMode
 */

/**
 * What `new MicCheckClient(options)` takes.
 * @typedef {object} MicCheckClientOptions
 * @property {string | URL} [server] The server's address, `https://host:port`. Default: the origin this module
 *   was loaded from.
 * @property {string} [call] The call's id (1 to 64 letters, digits, `-`, `_`): connects to `/v1/call`. Without
 *   one, `/v1/vad`.
 * @property {'call' | 'vad' | 'none'} [endpoint] `call` (presence, the muted notice, the microphone check),
 *   `vad` (speech events only), or `none`: no MicCheck server at all (a static page, an app with its own media
 *   server). With `none` the page's own analysis gives the meter, speaking, "You are muted.", the typing notice,
 *   "not working" and the microphone test; `join` and `leave` say whether the page is in its call (the notices
 *   are the call's), and nothing is sent anywhere.
 * @property {string | (() => string | Promise<string>)} [token] An invitation's join token (`miccheck token`),
 *   sent with the connection; or a function that gives one (or a promise of one), asked before each try to
 *   connect. The server closes a connection when its token expires (4401, "the invitation expired; reconnect
 *   with a new one"): with a function the client asks it for a new token and reconnects, as after a lost
 *   connection (`reconnecting`, then joined again with the same devices); with a string that close is a refusal
 *   (`refused`, its reason said once). A function that throws or gives no string is a failed try, retried with
 *   backoff; a token the server refuses as it connects is a refusal either way.
 * @property {MediaStream} [stream] The app's own stream (its call SDK's local track, for instance). MicCheck
 *   listens to its first audio track and never stops it. Without one, the client opens the microphone itself
 *   (and falls back to the default one when the chosen one is gone or unplugged).
 * @property {{deviceId?: string, processing?: boolean}} [microphone] The microphone the client opens: a device
 *   id, and the browser's processing (on unless false).
 * @property {{first?: number, max?: number, factor?: number}} [backoff] Reconnection: the first wait, the
 *   longest and the factor, in milliseconds (1000, 10000, 2).
 * @property {AnalysisMode} [analysis] Where the microphone is analysed. `device` (the default for a call):
 *   MicCheck's own analysis compiled to WebAssembly runs in the page's AudioWorklet, and no audio leaves the
 *   page; the server hears the page's statements (its devices, whether it speaks). `server`: the page sends its
 *   microphone as PCM (`/v1/vad` always does). A kernel that cannot load falls back to `server`, and the
 *   `analysis` event says why.
 * @property {string | URL | Response | Promise<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module}
 *   [wasm] Where miccheck.wasm is (default: beside this module), its bytes, a Response, or a compiled module.
 */

/**
 * A participant of the call, as presence says.
 * @typedef {object} Participant
 * @property {string} id
 * @property {string} name
 * @property {boolean} audio Their microphone is on (they may be heard).
 * @property {boolean} video
 * @property {boolean} speaking MicCheck's detector hears them speak (only while their microphone is on).
 * @property {boolean} [self] Set by the page for its own participant.
 */

/**
 * The microphone check, about every 100 ms (and at once when speaking starts or ends).
 * @typedef {object} MicrophoneState
 * @property {boolean} on
 * @property {number} levelDb
 * @property {number} display The meter, 0…1 (−50…0 dBFS); 0 while off.
 * @property {boolean} speaking
 * @property {string | null} notWorking "Your microphone doesn't seem to be working. …", or null.
 * @property {string[]} warnings The check's other sentences: noisy, clipping, too quiet.
 */

/**
 * A notice's button: its label and the key the app binds to it (`{label: 'Unmute', key: 'm'}`).
 * @typedef {{label: string, key: string}} NoticeAction
 */

/**
 * "You are muted.": show it or hide it.
 * @typedef {object} MutedNotice
 * @property {boolean} show
 * @property {string} text
 * @property {number} durationMs
 * @property {MuteCause | null} cause
 * @property {NoticeAction | null} action What the notice offers: `{label: 'Unmute', key: 'm'}` (call
 *   `client.unmute()`), or null when hiding.
 * @property {string | null} [announcement] While a host's mute holds, "Grace muted you." (show it with the
 *   notice); else null.
 */

/**
 * "Your typing can be heard." (typing heard while unmuted and not speaking, at most every 2 min).
 * @typedef {object} TypingNotice
 * @property {boolean} show
 * @property {string} text
 * @property {number} durationMs
 * @property {NoticeAction | null} action `{label: 'Mute', key: 'm'}` (the app mutes), or null when hiding.
 */

/**
 * MicCheck's verdict on a microphone test before it is played back: `sentence` is what to show (the terminal
 * says the same).
 * @typedef {object} MicrophoneTestJudgement
 * @property {number} seconds The test's length asked for, in seconds.
 * @property {'clear' | 'too_quiet' | 'clipping' | 'noisy' | 'no_voice' | 'dead'} verdict
 * @property {string} sentence "Your voice came through clearly: -23.7 dBFS while you spoke, 39.2 dB above the
 *   room's noise."
 * @property {number} recordedSeconds
 * @property {number} speechSeconds
 * @property {number | null} speechLevelDb The speech's level while spoken, dBFS; null without speech.
 * @property {number | null} noiseLevelDb The room's level between words, dBFS; null when every frame was speech.
 * @property {string} [noise] The noise's kind, where MicCheck named it.
 * @property {number} [clippedPercent] For `clipping`: the share of the samples cut flat.
 * @property {number} [ceilingDb] For `clipping`: the ceiling.
 * @property {string} [reason] For `dead`: why.
 */

/**
 * The verdict `testMicrophone()` resolves with.
 * @typedef {MicrophoneTestJudgement & {playedBack: boolean}} MicrophoneTestVerdict `playedBack`: whether the
 *   recording was played back to the end (false: the speaker was off, or it was stopped).
 */

/**
 * A step of "Test your microphone": `recording` (at the start and at each whole second of audio sent, with
 * `secondsLeft`), `playing` (the verdict is known; the recording plays back), `done` (the verdict),
 * `cancelled` or `failed` (with `message`, the sentence to show).
 * @typedef {{state: 'recording', seconds: number, secondsLeft: number}
 *   | ({state: 'playing'} & MicrophoneTestJudgement)
 *   | ({state: 'done'} & MicrophoneTestVerdict)
 *   | {state: 'cancelled' | 'failed', seconds: number, message: string}} MicrophoneTestEvent
 */

/**
 * What `testMicrophone()` takes.
 * @typedef {object} MicrophoneTestOptions
 * @property {number} [seconds] 1 to 10 seconds (5).
 * @property {string} [sinkId] The output to play back through (a device id from `enumerateDevices`); '' or
 *   'default': the default one.
 * @property {boolean} [playBack] False: no playback (the speaker is off); the verdict comes at once.
 */

/**
 * The client's events by name, each a CustomEvent whose `detail` is the type given.
 * @typedef {object} MicCheckClientEventMap
 * @property {CustomEvent<{state: ConnectionState, message: string, code?: number, retryInMs?: number,
 *   attempt?: number}>} connection The connection's state; `message` is the sentence to show (a refusal once,
 *   a reconnection's wait).
 * @property {CustomEvent<{id: string, call: string, capabilities: string[], name: string | null}>} welcome
 * @property {CustomEvent<MicrophoneState>} microphone
 * @property {CustomEvent<{speaking: boolean}>} speaking
 * @property {CustomEvent<{mode: AnalysisMode, reason: string | null}>} analysis Where the microphone is
 *   analysed, once decided at `start()`; `reason` says why not on the device.
 * @property {CustomEvent<MutedNotice>} mutednotice
 * @property {CustomEvent<{participants: Participant[], me: string | null, change: object | null}>} presence
 *   The roster after a snapshot or a change (`change` is the `joined`/`updated`/`left` message, or null).
 * @property {CustomEvent<{from: string, data: object}>} signal WebRTC signalling from another participant.
 * @property {CustomEvent<{muted: boolean, cause: MuteCause | null}>} mutechange
 * @property {CustomEvent<{microphone: 'denied' | 'missing' | 'unavailable', message: string}>} permission The
 *   microphone was refused (`denied`), there is none (`missing`), or it cannot be opened (`unavailable`:
 *   another program holds it, the hardware failed; `message` is the browser's error, '' otherwise).
 * @property {CustomEvent<{kind: 'audioinput', message: string}>} devicefallback A device fell back to the
 *   default: `message` says so.
 * @property {CustomEvent<{label: string}>} microphoneended The microphone in use ended (unplugged). The
 *   client's own falls back by itself; an app's is the app's.
 * @property {CustomEvent<{stream: MediaStream}>} streamchange
 * @property {CustomEvent<MicrophoneTestEvent>} microphonetest "Test your microphone": each step
 *   (`testMicrophone`).
 * @property {CustomEvent<{by: {id: string, name: string}, text: string}>} mutedbyhost A host muted this
 *   participant: the microphone is off already (cause `host`); `text` is "Grace muted you.".
 * @property {CustomEvent<TypingNotice>} typingnotice
 * @property {CustomEvent<Record<string, unknown>>} vad `/v1/vad`'s events as they come (`level`,
 *   `speech_started`, `microphone_silent`, …).
 * @property {CustomEvent<{message: string}>} error A server's refusal that leaves the connection open (a mute
 *   by a non-host, of someone gone), or a bad message.
 */

/**
 * What went wrong, for a program to test.
 * @typedef {'no-audio-track' | 'bad-call' | 'bad-option' | 'closed' | 'test-busy' | 'in-call' | 'not-allowed'
 *   | 'no-microphone' | 'muted' | 'not-connected' | 'test-cancelled' | 'test-failed' | 'not-joined'
 *   | 'no-analysis'} MicCheckErrorCode
 */

/**
 * A device `openDevice` opened, or why not.
 * @typedef {object} OpenedDevice
 * @property {MediaStream | null} stream
 * @property {boolean} fellBack The chosen device was gone: this is the default one.
 * @property {boolean} denied The user or the browser refused.
 * @property {boolean} missing There is no such device at all.
 * @property {boolean} unavailable The device could not be opened (another program holds it, the hardware
 *   failed); `error` is the browser's.
 * @property {string} error
 */

/**
 * An EventTarget whose listeners of the events named in `M` get those events' types (and any other name the
 * plain Event). The client's base class is EventTarget itself: this only types it.
 * @template M
 * @typedef {new () => {
 *   addEventListener<K extends keyof M>(type: K, listener: (event: M[K]) => void,
 *     options?: boolean | AddEventListenerOptions): void;
 *   addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
 *     options?: boolean | AddEventListenerOptions): void;
 *   removeEventListener<K extends keyof M>(type: K, listener: (event: M[K]) => void,
 *     options?: boolean | EventListenerOptions): void;
 *   removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
 *     options?: boolean | EventListenerOptions): void;
 * } & EventTarget} TypedEventTarget
 */

export {};

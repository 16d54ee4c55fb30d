/**
 * Says this page's speaking through `send(text)`: on each change of the client's speaking or mute, and again
 * every `restateMs` (also while silent, so a receiver can tell a quiet page from a frozen one). Muted, a page
 * says it does not speak: the others do not hear it either. Returns a function that stops it.
 * @param {EventTarget & {speaking: boolean, muted: boolean}} client a MicCheckClient
 * @param {(text: string) => void} send the app's channel (its errors are the app's: one that throws is ignored)
 * @param {{restateMs?: number, now?: () => number, setInterval?: typeof setInterval,
 *   clearInterval?: typeof clearInterval}} [options] `now`: this page's clock in ms (the statements' `at`)
 */
export function stateSpeaking(client: EventTarget & {
    speaking: boolean;
    muted: boolean;
}, send: (text: string) => void, options?: {
    restateMs?: number | undefined;
    now?: (() => number) | undefined;
    setInterval?: typeof setInterval | undefined;
    clearInterval?: typeof clearInterval | undefined;
} | undefined): () => void;
/**
 * A statement's type, so that it can share a channel with the app's own messages.
 * @type {'miccheck.speaking'}
 */
export const SPEAKING_STATEMENT: 'miccheck.speaking';
/**
 * The others' statements, by the app's own id for each (a feed, a participant): who speaks now. `onChange(id,
 * speaking)` is called when somebody starts or stops: by a statement, by `forget`, or when a speaking one's last
 * statement no longer holds.
 */
export class RemoteSpeaking {
    /**
     * @param {(id: string, speaking: boolean) => void} onChange
     * @param {{holdMs?: number, maxAgeMs?: number, now?: () => number, setInterval?: typeof setInterval,
     *   clearInterval?: typeof clearInterval}} [options] `holdMs`: how long a statement holds after it came (1200);
     *   `maxAgeMs`: never longer than this after it was said (`holdMs` + 800)
     */
    constructor(onChange: (id: string, speaking: boolean) => void, options?: {
        holdMs?: number | undefined;
        maxAgeMs?: number | undefined;
        now?: (() => number) | undefined;
        setInterval?: typeof setInterval | undefined;
        clearInterval?: typeof clearInterval | undefined;
    } | undefined);
    /** @private */
    private onChange;
    /**
     * How long a statement holds after it came, in ms.
     * @readonly
     */
    readonly holdMs: number;
    /**
     * A statement never holds longer than this after it was said (at least `holdMs`), in ms.
     * @readonly
     */
    readonly maxAgeMs: number;
    /** @private */
    private now;
    /** @private */
    private every;
    /** @private */
    private stopEvery;
    /**
     * A message from `id`'s channel. Returns true when it was a speaking statement (and taken), false for any
     * other text (the app's own messages, or something malformed, which is ignored).
     * @param {string | number} id
     * @param {unknown} text
     * @returns {boolean}
     */
    heard(id: string | number, text: unknown): boolean;
    /**
     * Whether `id` speaks now.
     * @param {string | number} id
     * @returns {boolean}
     */
    speaking(id: string | number): boolean;
    /**
     * `id` left (its tile went): it no longer speaks.
     * @param {string | number} id
     */
    forget(id: string | number): void;
    /** Ends the speaking of those whose last statement no longer holds (the timer calls it). */
    expire(): void;
    /** Stops the timer, and forgets everybody (each speaking one ends). */
    close(): void;
    #private;
}

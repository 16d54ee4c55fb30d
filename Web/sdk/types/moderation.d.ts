/**
 * The page's `devices` message. Muted by push-to-talk it says so (the server then sends no muted notice);
 * muted by a host on this connection it leaves `audio` out, because the server turned it off already and
 * a plain `audio: false` would make the mute the user's own (a host's mute outlasts "don't show again").
 */
export function devicesMessage(client: any, hostMuted: any): {
    type: string;
    audio: any;
    video: any;
};
/**
 * `muted_by_host`'s fields, checked: `{by: {id, name}, text}` (the text "NAME muted you." made from the name
 * when the server sent none). Null when it is not such a message.
 */
export function mutedByHost(m: any): {
    by: {
        id: any;
        name: any;
    };
    text: any;
} | null;
/** `typing_notice`'s fields in camelCase, with the action the page offers; null without a boolean `show`. */
export function typingNotice(m: any): {
    show: any;
    text: any;
    durationMs: any;
    action: {
        label: any;
        key: "m";
    } | null;
} | null;
/**
 * A host's mute of participant `id`, checked before it is sent: the client (`may`, `joined`, `me`,
 * `participants`) must have `mute-users` from its welcome and be in the call, and `id` be someone else there.
 * @returns {{type: 'mute', id: string}}
 * @throws {MicCheckError} `not-allowed`, `not-joined` or `bad-option`
 */
export function muteRequest(id: any, client: any): {
    type: 'mute';
    id: string;
};
/** The typing notice's action, and the muted notice's (the page binds the key to the microphone's toggle). */
export const MUTE_ACTION: Readonly<{
    label: "Mute";
    key: "m";
}>;
/**
 * The client's side of the two server messages: `muted_by_host` turns the microphone off (cause `host`) and
 * says who; `typing_notice` is passed on. `hostMuted` is true from a host's mute until the user unmutes or
 * the connection is new (a new connection knows nothing of it).
 */
export class Moderation {
    /** @param {{setMuted(muted: boolean, cause: string): void, emit(type: string, detail: object): void}} client */
    constructor(client: {
        setMuted(muted: boolean, cause: string): void;
        emit(type: string, detail: object): void;
    });
    client: {
        setMuted(muted: boolean, cause: string): void;
        emit(type: string, detail: object): void;
    };
    hostMuted: boolean;
    announcement: any;
    /** A server message this handles; returns whether it was one (else an `error` event says what was wrong). */
    receive(m: any): boolean;
    /** The microphone's mute changed: an unmute, or a mute of another cause, ends the host's. */
    muteChanged(muted: any, cause: any): void;
    /**
     * A `muted_notice` from the server, passed on as a `mutednotice` event with its action and, while a host's
     * mute holds, the host's sentence. None while push-to-talk's key is up; none after "don't show again"
     * unless a host muted (the server sends those anyway).
     */
    mutedNotice(m: any, cause: any, noticeOff: any): void;
    /** A new connection (its welcome): the server there knows of no host's mute. */
    connected(): void;
    #private;
}

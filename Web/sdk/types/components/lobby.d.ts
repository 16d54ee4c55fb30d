/**
 * A kind of device the lobby offers a menu of.
 * @typedef {'audioinput' | 'videoinput' | 'audiooutput'} DeviceKind
 */
/**
 * What the lobby shows; setting a part of it keeps the rest.
 * @typedef {object} LobbyState
 * @property {string} name
 * @property {boolean} nameLocked an invitation's name, which the field shows and cannot change
 * @property {string} call
 * @property {{audio: boolean, video: boolean, speaker: boolean}} settings
 * @property {{audio: boolean, video: boolean}} allowed what the invitation lets one send
 * @property {Record<DeviceKind, {deviceId: string, label: string}[]>} devices
 * @property {Record<DeviceKind, string>} chosen
 * @property {import('../types.js').Participant[]} others the participants already in the call
 * @property {MediaStream | null} selfStream
 * @property {string} deviceNote
 * @property {string} status a connection's sentence: a refusal, "Reconnecting in N s…"
 * @property {boolean} joinDisabled
 * @property {string} [privacy] the note on capture while muted (default `CAPTURE_NOTE`; `CAPTURE_NOTE_SERVER`
 *   where the server analyses)
 */
/**
 * `<miccheck-lobby>`: "Before Joining": the preview (a tile from its factory), the meter, the toggles, the name
 * (at most 64 characters, shortened with a note), who is there, Join Call, the devices with "Test your
 * microphone" under them, and the note on capture while muted. Events: `miccheck-toggle` {kind},
 * `miccheck-choose-device` {kind, deviceId}, `miccheck-name` {name}, `miccheck-join` {name}, and the microphone
 * test's `miccheck-test-microphone`. Parts: screen, header, title, subtitle, layout, preview-panel, toggles,
 * setup-panel, name-label, name, name-note, join-panel, about, call, join, status, devices, device-label,
 * device-select, device-note, privacy.
 */
export class LobbyElement extends HTMLElement {
    connectedCallback(): void;
    set factory(arg: ViewFactory);
    /**
     * The factory that makes the preview tile, the meter and the strip (else the defaults).
     * @type {ViewFactory}
     */
    get factory(): ViewFactory;
    /**
     * The pieces made by the factory: `{preview, meter, microphoneTest, strip}` (made on the first render).
     * @type {{preview: HTMLElement, meter: HTMLElement, microphoneTest: HTMLElement, strip: HTMLElement}}
     */
    get pieces(): {
        preview: HTMLElement;
        meter: HTMLElement;
        microphoneTest: HTMLElement;
        strip: HTMLElement;
    };
    set state(arg: Partial<LobbyState>);
    /**
     * What the lobby shows (see DEFAULTS); setting a part of it keeps the rest.
     * @type {Partial<LobbyState>}
     */
    get state(): Partial<LobbyState>;
    set microphone(arg: import("../types.js").MicrophoneState | null);
    /**
     * The client's `microphone` event, for the meter.
     * @type {import('../types.js').MicrophoneState | null}
     */
    get microphone(): import("../types.js").MicrophoneState | null;
    set microphoneTest(arg: import("../types.js").MicrophoneTestEvent | {
        state: 'idle';
    } | null);
    /**
     * The client's `microphonetest` event, for "Test your microphone" (null: no test yet).
     * @type {import('../types.js').MicrophoneTestEvent | {state: 'idle'} | null}
     */
    get microphoneTest(): import("../types.js").MicrophoneTestEvent | {
        state: 'idle';
    } | null;
    /**
     * The name in the field as it would be sent: trimmed, at most 64 characters.
     * @type {string}
     */
    get name(): string;
    /** Moves the focus to the name field. */
    focusName(): void;
    #private;
}
/**
 * A kind of device the lobby offers a menu of.
 */
export type DeviceKind = 'audioinput' | 'videoinput' | 'audiooutput';
/**
 * What the lobby shows; setting a part of it keeps the rest.
 */
export type LobbyState = {
    name: string;
    /**
     * an invitation's name, which the field shows and cannot change
     */
    nameLocked: boolean;
    call: string;
    settings: {
        audio: boolean;
        video: boolean;
        speaker: boolean;
    };
    /**
     * what the invitation lets one send
     */
    allowed: {
        audio: boolean;
        video: boolean;
    };
    devices: Record<DeviceKind, {
        deviceId: string;
        label: string;
    }[]>;
    chosen: Record<DeviceKind, string>;
    /**
     * the participants already in the call
     */
    others: import('../types.js').Participant[];
    selfStream: MediaStream | null;
    deviceNote: string;
    /**
     * a connection's sentence: a refusal, "Reconnecting in N s…"
     */
    status: string;
    joinDisabled: boolean;
    /**
     * the note on capture while muted (default `CAPTURE_NOTE`; `CAPTURE_NOTE_SERVER`
     * where the server analyses)
     */
    privacy?: string | undefined;
};
import { ViewFactory } from "./factory.js";

/**
 * `<miccheck-meter>`: the level (role=meter, with a value text) and the not-working sentence. Parts: bar, level,
 * alerts, warning, warnings, warning-item.
 */
export class MeterElement extends HTMLElement {
    connectedCallback(): void;
    set state(arg: import("../types.js").MicrophoneState);
    /**
     * `{on, levelDb, display (0…1), notWorking (a sentence or null), warnings (sentences)}`.
     * @type {import('../types.js').MicrophoneState}
     */
    get state(): import("../types.js").MicrophoneState;
    #private;
}

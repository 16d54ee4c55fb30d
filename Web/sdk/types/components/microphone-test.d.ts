/**
 * `<miccheck-microphone-test>`: "Test your microphone" and its status, as the terminal says it: "Recording: say
 * a sentence or two as you would in the call." with the seconds left, "Playing back your recording…", the
 * verdict's sentence (green when clear, amber otherwise) and "Test again". The status is a polite live region.
 * Event: `miccheck-test-microphone` (the app calls `client.testMicrophone()`). Host attributes: data-state,
 * data-verdict. Parts: test, start (the button), status, message, verdict, seconds-left.
 */
export class MicrophoneTestElement extends HTMLElement {
    connectedCallback(): void;
    set state(arg: import("../types.js").MicrophoneTestEvent | {
        state: 'idle';
    });
    /**
     * The client's `microphonetest` event (`{state, secondsLeft, sentence, verdict, message, …}`), or idle.
     * @type {import('../types.js').MicrophoneTestEvent | {state: 'idle'}}
     */
    get state(): import("../types.js").MicrophoneTestEvent | {
        state: 'idle';
    };
    set available(arg: boolean);
    /**
     * False while the microphone is off: the button says why instead of starting a test.
     * @type {boolean}
     */
    get available(): boolean;
    /**
     * Whether a test records or plays back.
     * @type {boolean}
     */
    get busy(): boolean;
    #private;
}

/** A notice's element: the muted notice and the typing notice build on it. */
export class NoticeElement extends HTMLElement {
    /**
     * @param {string} css the notice's own style sheet (its colours), after the shared box's
     * @param {number} durationMs how long `open = true` shows it
     */
    constructor(css: string, durationMs: number);
    /**
     * Puts the notice's box in the shadow root, hidden, and follows the pointer and the focus on it.
     * @protected
     * @param {HTMLElement} box
     */
    protected _mount(box: HTMLElement): void;
    connectedCallback(): void;
    disconnectedCallback(): void;
    set open(arg: boolean);
    /**
     * Whether the notice shows. Setting true shows it with the defaults; false hides it.
     * @type {boolean}
     */
    get open(): boolean;
    /**
     * Labels `button` from `{label, key}` ("Unmute (m)"); null hides it. The key is the app's to handle.
     * @protected
     * @param {HTMLButtonElement} button
     * @param {{label: string, key?: string} | null} action
     */
    protected _setAction(button: HTMLButtonElement, action: {
        label: string;
        key?: string;
    } | null): void;
    /**
     * Shows the box for `durationMs` (0 or Infinity: until hidden).
     * @protected
     * @param {number} durationMs
     */
    protected _open(durationMs: number): void;
    /** Hides the notice (it stays in the DOM, a silent live region). */
    hide(): void;
    /**
     * Hides the notice and says why (the button's event).
     * @protected
     * @param {string} type the event to say it with
     */
    protected _done(type: string): void;
    #private;
}

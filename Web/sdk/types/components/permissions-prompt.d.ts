/**
 * What the permissions prompt asks for.
 * @typedef {'camera-and-microphone' | 'microphone' | 'camera'} PromptKind
 */
/**
 * `<miccheck-permissions-prompt>`: a modal dialog that takes focus, closes on Esc, and shows the browsers'
 * steps with "Open Settings". Events: `miccheck-dismiss` {kind}, `miccheck-open-settings` {kind, open}.
 * Parts: dialog, header, title, close, message, steps, linux-note, buttons, settings, dismiss.
 */
export class PermissionsPromptElement extends HTMLElement {
    disconnectedCallback(): void;
    /**
     * Whether the prompt shows.
     * @type {boolean}
     */
    get open(): boolean;
    /**
     * What it shows, or null: 'camera-and-microphone', 'microphone' or 'camera'.
     * @type {PromptKind | null}
     */
    get kind(): PromptKind | null;
    /**
     * Shows the prompt for `kind` and moves the focus into it ("Open Settings").
     * @param {PromptKind} kind
     */
    show(kind: PromptKind): void;
    /** Closes the prompt without a dismissal, and gives the focus back to where it was before. */
    hide(): void;
    #private;
}
/**
 * What the permissions prompt asks for.
 */
export type PromptKind = 'camera-and-microphone' | 'microphone' | 'camera';

/**
 * `<miccheck-typing-notice>`: "Your typing can be heard." with "Mute (m)" and a close button; role=status.
 * Events: `miccheck-mute`, `miccheck-close`. Parts: notice, text, action, close.
 */
export class TypingNoticeElement extends NoticeElement {
    constructor();
    /**
     * Shows the notice for `durationMs` (0 or Infinity: until hidden). `action` is the button that mutes,
     * labelled "Mute (m)" from `{label: 'Mute', key: 'm'}` (the key is the app's to handle); null shows none.
     * @param {{text?: string, durationMs?: number, action?: {label: string, key?: string} | null}}
     *   [notice]
     */
    show({ text, durationMs, action }?: {
        text?: string | undefined;
        durationMs?: number | undefined;
        action?: {
            label: string;
            key?: string | undefined;
        } | null | undefined;
    } | undefined): void;
    #private;
}
import { NoticeElement } from "./notice.js";

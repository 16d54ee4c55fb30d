/**
 * `<miccheck-muted-notice>`: "You are muted." with its action, "Don't show again for this call" and a close
 * button; role=status, aria-live=polite. Events: `miccheck-unmute`, `miccheck-muted-notice-off`,
 * `miccheck-close`. Parts: notice, announcement, text, action, off, close.
 */
export class MutedNoticeElement extends NoticeElement {
    constructor();
    /**
     * Shows the notice for `durationMs` (0 or Infinity: until hidden). `action` is the button that unmutes,
     * labelled "Unmute (m)" from `{label: 'Unmute', key: 'm'}`; null shows none. The key is the app's to
     * handle: the notice only names it. `announcement` (a host's "Grace muted you.") shows above, and
     * then no "Don't show again" (a host's mute is not silenced by it).
     * @param {{text?: string, durationMs?: number, action?: {label: string, key?: string} | null,
     *   announcement?: string | null}} [notice]
     */
    show({ text, durationMs, action, announcement }?: {
        text?: string | undefined;
        durationMs?: number | undefined;
        action?: {
            label: string;
            key?: string | undefined;
        } | null | undefined;
        announcement?: string | null | undefined;
    } | undefined): void;
    #private;
}
import { NoticeElement } from "./notice.js";

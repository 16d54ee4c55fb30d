/**
 * A toggle of the lobby and the call: the microphone, the camera, the speaker.
 * @typedef {'audio' | 'video' | 'speaker'} ToggleKind
 */
/**
 * What the call's toolbar shows.
 * @typedef {object} CallControlsState
 * @property {boolean} audio
 * @property {boolean} video
 * @property {boolean} speaker
 * @property {{audio: boolean, video: boolean}} allowed what the invitation lets one send
 * @property {boolean} [pushToTalk]
 * @property {boolean} [talking] push-to-talk's key is held
 */
/**
 * `<miccheck-call-controls>`: microphone, camera and speaker toggles (aria-pressed; disabled when the
 * invitation forbids), Push-to-talk and Leave, and while push-to-talk is on "Push-to-talk: hold Space to talk"
 * or "Talking". Events: `miccheck-toggle` {kind}, `miccheck-push-to-talk` {on}, `miccheck-leave`. Parts:
 * toolbar, toggle, toggle-audio, toggle-video, toggle-speaker, icon, label, push-to-talk, push-to-talk-status,
 * leave.
 */
export class CallControlsElement extends HTMLElement {
    set state(arg: CallControlsState);
    /**
     * `{audio, video, speaker, allowed: {audio, video}, pushToTalk, talking}`: what is on, what the invitation
     * lets one send, and whether push-to-talk is on and its key held.
     * @type {CallControlsState}
     */
    get state(): CallControlsState;
    #private;
}
/**
 * A toggle of the lobby and the call: the microphone, the camera, the speaker.
 */
export type ToggleKind = 'audio' | 'video' | 'speaker';
/**
 * What the call's toolbar shows.
 */
export type CallControlsState = {
    audio: boolean;
    video: boolean;
    speaker: boolean;
    /**
     * what the invitation lets one send
     */
    allowed: {
        audio: boolean;
        video: boolean;
    };
    pushToTalk?: boolean | undefined;
    /**
     * push-to-talk's key is held
     */
    talking?: boolean | undefined;
};

/**
 * A tile's Mute button's accessible name (a host's): "Mute NAME".
 * @param {string} name
 * @returns {string}
 */
export function muteLabel(name: string): string;
/**
 * The seconds a microphone test has left to record: "4 s left."
 * @param {number} n
 * @returns {string}
 */
export function secondsLeft(n: number): string;
/**
 * "Call: NAME", under "You are about to join a call."
 * @param {string} name
 * @returns {string}
 */
export function callLine(name: string): string;
/**
 * How many others are in the call, as the lobby says it.
 * @param {number} n
 * @returns {string}
 */
export function othersSentence(n: number): string;
/** Why a toggle is disabled: the invitation's role does not let this participant send it. */
export function notAllowed(kind: any): string;
/** A tile's accessible name: "Ada Lovelace (you), speaking, microphone off". */
export function tileLabel({ name, self, speaking, audio, video }: {
    name: any;
    self: any;
    speaking: any;
    audio: any;
    video: any;
}): string;
/**
 * What a screen reader says of the meter (its `aria-valuetext`): the shown level in percent and the level in
 * dBFS ("46 %, -27 dBFS"), or that the microphone is off; never the bare 0–1 fraction.
 */
export function meterValueText({ on, display, levelDb }: {
    on: any;
    display: any;
    levelDb: any;
}): string;
/** The note a page shows: capture goes on while muted, and why; MicCheck hears it in this page alone. */
export const CAPTURE_NOTE: string;
/** The note where the page's own analysis could not run and the server analyses the microphone. */
export const CAPTURE_NOTE_SERVER: string;
export const TEXT: Readonly<{
    title: "Before Joining";
    subtitle: "Setup your audio and video";
    notWorking: "Your microphone doesn't seem to be working. Make sure you have all permissions accepted.";
    aboutToJoin: "You are about to join a call.";
    join: "Join Call";
    muted: "You are muted.";
    unmute: "Unmute";
    mutedNoticeOff: "Don't show again for this call";
    close: "Close";
    leave: "Leave";
    openSettings: "Open Settings";
    dismiss: "Dismiss";
    yourName: "Your name";
    nameCut: "Names are at most 64 characters; yours was shortened.";
    meter: "Microphone level";
    meterOff: "Microphone off";
    you: "You";
    guest: "Guest";
    devices: "Devices";
    defaultDevice: "Default";
    privacy: string;
    testMicrophone: "Test your microphone";
    testAgain: "Test again";
    testRecording: "Recording: say a sentence or two as you would in the call.";
    testPlaying: "Playing back your recording…";
    testMicrophoneOff: "Turn your microphone on to test it.";
    typing: "Your typing can be heard.";
    mute: "Mute";
    pushToTalk: "Push-to-talk";
    pushToTalkHint: "Push-to-talk: hold Space to talk";
    talking: "Talking";
}>;
/** The toggles, in their order, with their labels. */
export const TOGGLES: readonly {
    kind: string;
    label: string;
    icon: string;
    offIcon: string;
}[];
/** The device menus, in their order, with their labels. */
export const DEVICE_KINDS: readonly {
    kind: string;
    label: string;
}[];
/** The permissions prompt's title and message for each kind. */
export const PERMISSION_TEXTS: Readonly<{
    'camera-and-microphone': {
        title: string;
        message: string;
    };
    camera: {
        title: string;
        message: string;
    };
    microphone: {
        title: string;
        message: string;
    };
}>;
/** The steps "Open Settings" shows, per browser, and the note about Linux (its command in code font). */
export const SETTINGS_STEPS: readonly {
    browser: string;
    steps: string[];
}[];
export const LINUX_NOTE: Readonly<{
    before: "On Linux, check also that no other program holds the camera, and that the sound server runs (";
    code: "pactl info";
    after: ").";
}>;

export class ClientSession {
    /**
     * @param {object} options the client's (types.js, `MicCheckClientOptions`)
     * @param {string} origin where the SDK was loaded from (the server by default)
     * @param {(type: string, detail: unknown) => void} emit dispatches the client's event
     */
    constructor(options: object, origin: string, emit: (type: string, detail: unknown) => void);
    state: string;
    muted: boolean;
    muteCause: null;
    video: boolean;
    joined: boolean;
    me: null;
    capabilities: null;
    microphone: null;
    speaking: boolean;
    emit: (type: string, detail: unknown) => void;
    link: ServerLink;
    roster: Roster;
    audio: LocalAudio;
    test: MicrophoneTestRunner;
    moderation: Moderation;
    rejoin: null;
    noticeOff: boolean;
    device: null;
    endpoint: any;
    server: URL | null;
    call: any;
    token: any;
    analysis: any;
    get stream(): MediaStream | null;
    get participants(): Map<string, object>;
    others(): object[];
    start(): Promise<void>;
    may(kind: any): any;
    setStream(stream: any): Promise<void>;
    openMicrophone(choice?: {}): Promise<void>;
    setMuted(muted: any, cause?: string): void;
    muteParticipant(id: any): void;
    setVideo(on: any): void;
    join(name: any): void;
    leave(): void;
    signal(to: any, data: any): void;
    mutedNoticeOff(): void;
    resume(): void;
    testMicrophone({ seconds, sinkId, playBack }?: {
        seconds?: number | undefined;
        sinkId?: string | undefined;
        playBack?: boolean | undefined;
    }): Promise<object>;
    cancelMicrophoneTest(): boolean;
    close(): void;
    sendDevices(): void;
    level(state: any): void;
    #private;
}
import { ServerLink } from "./server-link.js";
import { Roster } from "./presence.js";
import { LocalAudio } from "./local-audio.js";
import { MicrophoneTestRunner } from "./microphone-test.js";
import { Moderation } from "./moderation.js";

/** A span holding the named icon, with the given part name. */
export function icon(name: any, part?: string): HTMLSpanElement;
/** The icons by name, each an SVG string. */
export const ICONS: Readonly<{
    microphone: string;
    microphoneOff: string;
    camera: string;
    cameraOff: string;
    speaker: string;
    speakerOff: string;
    leave: string;
    close: string;
}>;

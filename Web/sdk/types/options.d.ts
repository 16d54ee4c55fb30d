/** The role an invitation (a join token given as a string) names, read without checking it; null if none. */
export function roleOf(token: any): string | null;
/**
 * The options of types.js's `MicCheckClientOptions`, checked: `endpoint` ('call' with a call id, 'vad'
 * without, or 'none': no server at all), `server` (a URL; the SDK's own origin by default; null with no server),
 * `analysis` ('device': MicCheck's kernel in the page, the default for a call, so no audio leaves it; 'server':
 * always on /v1/vad; a capture given without the kernel's commands, as tests give, is a server capture), and the
 * microphone's `choice`.
 * @param {object} options
 * @param {string} origin the origin the SDK was loaded from
 */
export function clientOptions(options: object, origin: string): {
    endpoint: any;
    server: URL | null;
    call: any;
    token: any;
    stream: any;
    backoff: any;
    choice: {
        deviceId: any;
        processing: boolean;
    };
    analysis: any;
};

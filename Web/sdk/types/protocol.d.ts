/**
 * One text message from the server, checked: the fields each type needs, participants normalised, the
 * microphone's state in camelCase. An unknown type comes back as it is (a newer server may add some).
 * @throws {ProtocolError} not JSON, no type, or a known type without its fields
 */
export function decode(text: any): any;
/**
 * What a closed connection means. The server refuses with 4000 + the HTTP status and the reason as the
 * WebSocket opens (Guides/Security.md): a refusal will not change on a retry, so it is said once and not
 * retried. Anything else (the server restarting, the network) is retried with backoff. The server also closes
 * with 4401 when the invitation expires under an open connection: `renewable` (a new token can be had) makes
 * that a lost connection, retried with the new token.
 * @param {{renewable?: boolean}} [options]
 * @returns {{refused: boolean, message: string}}
 */
export function closeMeaning(code: any, reason: any, { renewable }?: {
    renewable?: boolean | undefined;
}): {
    refused: boolean;
    message: string;
};
/** A message from the server that MicCheck's client cannot read. */
export class ProtocolError extends Error {
    /** @param {string} message */
    constructor(message: string);
}
export function encode(message: any): string;

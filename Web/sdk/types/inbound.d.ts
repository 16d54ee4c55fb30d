/** One message (a JSON text) for `session`; a malformed one is an `error` event. */
export function receive(session: any, text: any): void;

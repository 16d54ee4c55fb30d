// MicCheck in the browser, in one import: the client (a microphone's audio to `miccheck serve`, what MicCheck
// decides back as events) and the web components with their view factory. The declarations (types/) are
// written from the JSDoc by scripts/sdk-types.sh. Served by `miccheck serve` at /sdk/miccheck.js (cross-origin
// allowed); no build step.
export * from './types.js';
export { MicCheckClient } from './client.js';
export { CAPTURE_NOTE, CAPTURE_NOTE_SERVER, MicCheckError, openDevice, openMicrophone } from './microphone.js';
export { ProtocolError } from './protocol.js';
export { RemoteSpeaking, SPEAKING_STATEMENT, stateSpeaking } from './statements.js';
export * from './components.js';

/// <reference path="./elements.d.ts" />
export * from "./types.js";
export * from "./components.js";
export { MicCheckClient } from "./client.js";
export { ProtocolError } from "./protocol.js";
export { CAPTURE_NOTE, CAPTURE_NOTE_SERVER, MicCheckError, openDevice, openMicrophone } from "./microphone.js";
export { RemoteSpeaking, SPEAKING_STATEMENT, stateSpeaking } from "./statements.js";

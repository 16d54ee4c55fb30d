// What the Guides' browser snippets leave to the app, declared as an app would have them, so that
// scripts/check-web-snippets.py can type-check the snippets against the SDK's declarations.
declare global {
  /** The track the app sends in its call (its call SDK's local audio track). */
  const sentTrack: MediaStreamTrack;
  /** The app's own data channel to the others (an SFU's, or its signalling). */
  const dataChannel: RTCDataChannel;
  /** The app's tile of a participant, by the app's own id. */
  function tileOf(id: string): HTMLElement | null;
  /** The app's id of the participant a message came from. */
  function senderOf(event: MessageEvent): string;
}
export {};

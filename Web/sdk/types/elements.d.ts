// The components' tag names, so that `document.querySelector('miccheck-meter')` and
// `document.createElement('miccheck-lobby')` give their classes. The one hand-written file here: JSDoc cannot
// declare a global. scripts/sdk-types.sh writes every other declaration from the SDK's JSDoc.
import type {
  CallControlsElement, CallGridElement, LobbyElement, MeterElement, MicrophoneTestElement, MutedNoticeElement,
  ParticipantTileElement, ParticipantsStripElement, PermissionsPromptElement, TypingNoticeElement,
} from './components.js';

declare global {
  interface HTMLElementTagNameMap {
    'miccheck-meter': MeterElement;
    'miccheck-microphone-test': MicrophoneTestElement;
    'miccheck-muted-notice': MutedNoticeElement;
    'miccheck-typing-notice': TypingNoticeElement;
    'miccheck-participant-tile': ParticipantTileElement;
    'miccheck-participants-strip': ParticipantsStripElement;
    'miccheck-permissions-prompt': PermissionsPromptElement;
    'miccheck-call-grid': CallGridElement;
    'miccheck-call-controls': CallControlsElement;
    'miccheck-lobby': LobbyElement;
  }
}

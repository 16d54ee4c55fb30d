// The declarations (sdk/miccheck.d.ts) used as an app would, checked by TypeScript (Debian's node-typescript):
//   tsc -p Tests/Web/tsconfig.json
import {
  createViewFactory, MicCheckClient, MicCheckError, type LobbyElement, type MeterElement, type MutedNoticeElement,
} from '../../Sources/MicCheckServer/Resources/web/sdk/miccheck.js';

export async function embed(stream: MediaStream): Promise<void> {
  const client = new MicCheckClient({ server: 'https://miccheck.example', call: 'standup', stream });
  const factory = createViewFactory({ makeVideoParticipantView: () => document.createElement('my-tile') });
  const lobby = factory.makeLobbyView() as LobbyElement;
  const meter = factory.makeMeterView() as MeterElement;
  const notice = factory.makeMutedNoticeView() as MutedNoticeElement;
  client.addEventListener('microphone', (e) => { meter.state = e.detail; lobby.microphone = e.detail; });
  client.addEventListener('mutednotice', (e) => (e.detail.show ? notice.show(e.detail) : notice.hide()));
  client.addEventListener('presence', (e) => { lobby.state = { others: e.detail.participants }; });
  client.addEventListener('connection', (e) => {
    if (e.detail.state === 'refused') lobby.state = { status: e.detail.message, joinDisabled: true };
  });
  notice.addEventListener('miccheck-unmute', () => client.unmute());
  client.setMuted(true, 'push-to-talk');
  try {
    await client.start();
  } catch (error) {
    if (error instanceof MicCheckError && error.code === 'no-audio-track') lobby.state = { deviceNote: error.message };
  }
  client.join('Ada');
}

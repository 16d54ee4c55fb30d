export const LOBBY_CSS: string;

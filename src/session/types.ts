import 'express-session';
import type { Connection, Flash, PendingLogin } from './schema';

export type { Connection, ConnectedPage, PendingLogin } from './schema';

// Stored values are read through ./schema when a session is loaded (./serializer).
declare module 'express-session' {
  interface SessionData {
    pending?: PendingLogin[];
    connection?: Connection;
    csrf?: string;
    /** A one-time message for the next page (./schema). */
    flash?: Flash;
    /** Epoch ms; see ./schema. */
    signedOutAt?: number;
  }
}

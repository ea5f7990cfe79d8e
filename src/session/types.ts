import 'express-session';
import type { SignIn, Flash, PendingLogin } from './schema';

export type { SignIn, ConnectedPage, PendingLogin } from './schema';

// Stored values are read through ./schema when a session is loaded (./serializer).
declare module 'express-session' {
  interface SessionData {
    pending?: PendingLogin[];
    signIn?: SignIn;
    csrf?: string;
    /** A one-time message for the next page (./schema). */
    flash?: Flash;
    /** The IANA time zone the person publishes in (src/pages/schedule-time.ts): their last choice; see ./schema. */
    timeZone?: string;
    /** Epoch ms; see ./schema. */
    signedOutAt?: number;
  }
}

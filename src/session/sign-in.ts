import type { Request } from 'express';
import type { UserTokenGrant } from '../graph/client';
import type { PageAccess, PageChanges, UserAccess } from './access';
import type { TokenSealer } from './sealer';
import type { ConnectedPage, SignIn } from './types';

/**
 * The person's sign-in to the provider as kept in the session: tokens are
 * sealed on the way in and opened on the way out. Anything expired, past the
 * absolute lifetime, or that no key opens reads as "not connected". Its shape
 * was checked when the session was loaded (./schema).
 */
export class SignIns {
  constructor(
    private readonly sealer: TokenSealer,
    private readonly maxAgeMs: number,
    private readonly now: () => number,
  ) {}

  start(
    req: Request,
    grant: UserTokenGrant,
    scopes?: string[],
    identity?: { userId: string; userName?: string },
  ): void {
    req.session.signIn = {
      userToken: this.sealer.seal(grant.token, bindingOf(req)),
      expiresAt: grant.expiresAt,
      loggedInAt: this.now(),
      pages: {},
      ...(scopes ? { scopes } : {}),
      ...(identity ? { userId: identity.userId } : {}),
      ...(identity?.userName !== undefined ? { userName: identity.userName } : {}),
    };
  }

  /** The live sign-in, or undefined (and dropped) when it has run out. */
  current(req: Request): SignIn | undefined {
    const signIn = req.session?.signIn;
    if (!signIn) return undefined;
    if (!this.isLive(signIn)) {
      delete req.session.signIn;
      return undefined;
    }
    return signIn;
  }

  /**
   * The page as a live sign-in holds it: the one test of holding a page, for this request's session
   * ({@link pageAccess}) and for a session read from the store (a live stream's heartbeat) alike.
   */
  heldPage(signIn: SignIn | undefined, pageId: string): ConnectedPage | undefined {
    return signIn !== undefined && this.isLive(signIn) ? signIn.pages[pageId] : undefined;
  }

  /** Within the absolute lifetime, and the user token not expired. */
  private isLive(signIn: SignIn): boolean {
    const now = this.now();
    return now - signIn.loggedInAt <= this.maxAgeMs && (signIn.expiresAt === null || signIn.expiresAt > now);
  }

  userToken(req: Request): string | undefined {
    const signIn = this.current(req);
    return signIn ? this.openOrDrop(req, signIn.userToken) : undefined;
  }

  /** A page token counts only while the login it came from does: a user token that no longer opens ends both. */
  pageToken(req: Request, pageId: string): string | undefined {
    const page = this.current(req)?.pages[pageId];
    if (!page || this.userToken(req) === undefined) return undefined;
    return this.openOrDrop(req, page.token);
  }

  addPage(req: Request, pageId: string, token: string, name: string): void {
    const signIn = this.current(req);
    if (signIn) signIn.pages[pageId] = { token: this.sealer.seal(token, bindingOf(req)), name };
  }

  connectedPages(req: Request): { id: string; name: string }[] {
    return Object.entries(this.current(req)?.pages ?? {}).map(([id, p]) => ({ id, name: p.name }));
  }

  /** What the session holds for the person, as a value (./access). */
  userAccess(req: Request): UserAccess {
    const signIn = this.current(req);
    const userToken = signIn ? this.openOrDrop(req, signIn.userToken) : undefined;
    return {
      sessionId: req.sessionID,
      request: requestNumber(req),
      userId: signIn?.userId,
      userToken,
      scopes: userToken === undefined ? undefined : signIn?.scopes,
      pages: userToken === undefined ? [] : this.connectedPages(req),
    };
  }

  /** What the session holds for the person and one Page, as a value: each token opened once. */
  pageAccess(req: Request, pageId: string): PageAccess {
    const user = this.userAccess(req);
    const page = user.userToken === undefined ? undefined : this.heldPage(this.current(req), pageId);
    const pageToken = page ? this.openOrDrop(req, page.token) : undefined;
    // A page token no key opens ended the sign-in (openOrDrop): the person now reads as not connected.
    if (page && pageToken === undefined) return { ...this.userAccess(req), ...notHeld(pageId) };
    return {
      ...user,
      pageId,
      pageToken,
      tasks: page?.tasks,
      tokenConfirmedAt: page?.tokenConfirmedAt,
      live: page?.live === true,
      name: page?.name,
    };
  }

  /** The one place a Page's use cases write the session: what loading or connecting the page learned. */
  applyPageChanges(req: Request, pageId: string, changes: PageChanges): void {
    if (changes.connected) this.addPage(req, pageId, changes.connected.token, changes.connected.name);
    const page = this.current(req)?.pages[pageId];
    if (!page) return;
    if (changes.tokenConfirmedAt !== undefined) page.tokenConfirmedAt = changes.tokenConfirmedAt;
    if (changes.tasks !== undefined) page.tasks = [...changes.tasks];
    if (changes.live === true) page.live = true;
    else if (changes.live === false) delete page.live;
    if (changes.name !== undefined && page.name !== changes.name) page.name = changes.name;
  }

  /** The user token a stored session holds, opened outside its requests (a provider callback ending it). */
  storedUserToken(sid: string, sealed: string): string | undefined {
    return this.sealer.open(sealed, bindingOfId(sid));
  }

  drop(req: Request): void {
    delete req.session.signIn;
  }

  /** A value no key opens (tampered, or a retired key): treat as not connected. */
  private openOrDrop(req: Request, sealed: string): string | undefined {
    const token = this.sealer.open(sealed, bindingOf(req));
    if (token === undefined) this.drop(req);
    return token;
  }
}

/** A page the session does not hold. */
function notHeld(pageId: string): Omit<PageAccess, keyof UserAccess> {
  return { pageId, pageToken: undefined, tasks: undefined, tokenConfirmedAt: undefined, live: false, name: undefined };
}

/**
 * Tokens are sealed to the session id they were stored under: the id is new
 * at every login (regenerated) and does not change until logout, so a sealed
 * value copied into another session — another person's, or the same value
 * under another key in the store — does not open there.
 */
function bindingOf(req: Request): string {
  return bindingOfId(req.sessionID);
}

function bindingOfId(sid: string): string {
  return `session:${sid}`;
}

const numbers = new WeakMap<Request, number>();
let lastNumber = 0;

/** A number of this request's own, the same however often asked: not the `X-Request-Id` a client may choose. */
export function requestNumber(req: Request): number {
  let number = numbers.get(req);
  if (number === undefined) numbers.set(req, (number = ++lastNumber));
  return number;
}

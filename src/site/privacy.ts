import { Router } from 'express';
import type { AppContext } from '../context';
import { APP_SETTINGS_PATH } from '../graph/provider';

/** The privacy page (docs/architecture.md#privacy-page): what is stored, what is read, how to leave. */
export function privacyRoutes(ctx: AppContext): Router {
  const router = Router();
  const { config } = ctx;
  // In demo mode nobody operates a service: the page says so in words, not by naming unset variables.
  const view = {
    title: 'Privacy',
    demo: config.demo,
    operatorName: config.operatorName ?? (config.demo ? undefined : 'not configured'),
    operatorContact: config.operatorContact ?? (config.demo ? undefined : 'not configured'),
    // The provider's own settings page; in demo mode the emulator's, on the dialog's origin (FB_AUTH_URL).
    settingsUrl: `${new URL(config.authUrl).origin}${APP_SETTINGS_PATH}`,
    storeWhere:
      config.sessionStore === 'redis'
        ? "in the operator's Redis database, shared by the app's servers"
        : "in the app server's memory",
    idleText: duration(config.sessionIdleSec),
    maxText: duration(config.sessionMaxSec),
    pageCacheText: config.pageCacheTtlSec > 0 ? duration(config.pageCacheTtlSec) : 'no time at all (the cache is off)',
    accountsCacheText:
      config.accountsCacheTtlSec > 0 ? duration(config.accountsCacheTtlSec) : 'no time at all (the cache is off)',
    baseUrl: config.baseUrl,
    reads: readsFor(config.scopes),
    deauthorizeUrl: `${config.baseUrl}/auth/deauthorize`,
    dataDeletionUrl: `${config.baseUrl}/auth/data-deletion`,
  };
  router.get('/privacy', (_req, res) => res.render('privacy', view));
  return router;
}

/** 7200 → "2 hours", 604800 → "7 days", 60 → "1 minute". */
export function duration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, name] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, 'second'];
  const n = seconds / size;
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}

interface Read {
  what: string;
  permission?: string;
  why: string;
}

/** What each permission the app asks for lets it read, in people's words. */
const PERMISSION_READS: Readonly<Record<string, Omit<Read, 'permission'>>> = {
  pages_show_list: { what: 'the pages you manage', why: 'so you can pick one' },
  pages_read_engagement: { what: "the page's details and its own posts", why: 'to show them to you' },
  pages_read_user_content: { what: "visitors' posts and comments on the page", why: 'to show them to you' },
  pages_manage_metadata: {
    what: "a subscription to the page's changes",
    why: 'so new posts appear on an open page without a reload',
  },
  read_insights: {
    what: "the page's daily views, viewers, post engagements and follows, and each post's viewers",
    why: 'to chart them for you',
  },
};

/** The privacy page's list follows the permissions actually asked for (FB_SCOPES), so it cannot drift from them. */
export function readsFor(scopes: readonly string[]): Read[] {
  const reads: Read[] = [
    {
      what: 'your user id and name',
      why: 'to show who is signed in, and to find your sessions when you remove the app',
    },
    { what: 'the permissions you granted', why: 'to know what it may show' },
  ];
  for (const permission of scopes) {
    if (permission === 'openid') continue; // the user id and name above
    const known = PERMISSION_READS[permission];
    reads.push({
      ...(known ?? { what: 'what this permission allows', why: 'as the operator configured it' }),
      permission,
    });
  }
  return reads;
}

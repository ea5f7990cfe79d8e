import { Router } from 'express';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { APP_SETTINGS_PATH } from '../graph/provider';
import type { MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';

/** The privacy page: what is stored, what is read, how to leave. */
export function privacyRoutes(ctx: AppContext): Router {
  const router = Router();
  const { config } = ctx;
  // The page follows the configuration alone: made once per language.
  const views = new Map<Locale, object>();
  router.get('/privacy', (_req, res) => {
    const locale = res.locals.locale;
    let view = views.get(locale);
    if (view === undefined) {
      view = privacyView(config, locale);
      views.set(locale, view);
    }
    res.render('privacy', view);
  });
  return router;
}

function privacyView(config: Config, locale: Locale): object {
  const { operatorName: name, operatorContact: contact } = config;
  // What is missing is said in a sentence: a placeholder in the name's place read "run by not configured".
  const missing =
    name === undefined ? (contact === undefined ? 'both' : 'name') : contact === undefined ? 'contact' : undefined;
  const cached = (seconds: number) => (seconds > 0 ? duration(locale, seconds) : locale.t('privacy.cacheOff'));
  return {
    title: locale.t('privacy.title'),
    // In demo mode nobody operates a service: the page says so in words, not by naming unset variables.
    demo: config.demo,
    // The provider's own settings page; in demo mode the emulator's, on the dialog's origin (FB_AUTH_URL).
    settingsUrl: `${new URL(config.authUrl).origin}${APP_SETTINGS_PATH}`,
    operatorName: name,
    operatorContact: contact,
    operatorMissing: missing === undefined ? undefined : locale.t('privacy.operatorMissing', { missing }),
    // What a login in progress holds: the PKCE verifier only when FB_PKCE is on.
    pkce: config.pkce ? 'on' : 'off',
    storeWhere: config.sessionStore === 'redis' ? 'redis' : 'memory',
    idleText: duration(locale, config.sessionIdleSec),
    maxText: duration(locale, config.sessionMaxSec),
    pageCacheText: cached(config.pageCacheTtlSec),
    accountsCacheText: cached(config.accountsCacheTtlSec),
    baseUrl: config.baseUrl,
    reads: readsFor(config.scopes).map((read) => ({
      what: locale.t(read.what),
      why: locale.t(read.why),
      permission: read.permission,
    })),
    deauthorizeUrl: `${config.baseUrl}/auth/deauthorize`,
    dataDeletionUrl: `${config.baseUrl}/auth/data-deletion`,
    statusUrl: `${config.baseUrl}/auth/data-deletion/<code>`,
  };
}

/** 7200 → "2 hours", 604800 → "7 days", 60 → "1 minute", in the page's language (Intl's unit names). */
export function duration(locale: Locale, seconds: number): string {
  const units = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ] as const;
  const [size, name] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, 'second'];
  return locale.unit(seconds / size, name);
}

interface Read {
  what: MessageKey;
  permission?: string;
  why: MessageKey;
}

/** What each permission the app asks for lets it read, in people's words. */
const PERMISSION_READS: Readonly<Record<string, Omit<Read, 'permission'>>> = {
  pages_show_list: { what: 'privacy.read.pages_show_list.what', why: 'privacy.read.pages_show_list.why' },
  pages_read_engagement: { what: 'privacy.read.pages_read_engagement.what', why: 'privacy.read.toShowYou' },
  pages_read_user_content: { what: 'privacy.read.pages_read_user_content.what', why: 'privacy.read.toShowYou' },
  pages_manage_metadata: {
    what: 'privacy.read.pages_manage_metadata.what',
    why: 'privacy.read.pages_manage_metadata.why',
  },
  read_insights: { what: 'privacy.read.read_insights.what', why: 'privacy.read.read_insights.why' },
};

/** The privacy page's list follows the permissions actually asked for (FB_SCOPES), so it cannot drift from them. */
export function readsFor(scopes: readonly string[]): Read[] {
  const reads: Read[] = [
    { what: 'privacy.read.user.what', why: 'privacy.read.user.why' },
    { what: 'privacy.read.granted.what', why: 'privacy.read.granted.why' },
  ];
  for (const permission of scopes) {
    if (permission === 'openid') continue; // the user id and name above
    const known = Object.hasOwn(PERMISSION_READS, permission) ? PERMISSION_READS[permission] : undefined;
    reads.push({
      ...(known ?? { what: 'privacy.read.other.what', why: 'privacy.read.other.why' }),
      permission,
    });
  }
  return reads;
}

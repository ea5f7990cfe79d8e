import { loadConfig, ConfigError, withProvider } from '../src/config';
import { DEFAULT_API_VERSION, DEFAULT_IMAGE_ORIGINS } from '../src/graph/provider';

const REAL = {
  FB_APP_ID: '1234567890',
  FB_APP_SECRET: 'an-app-secret-value',
  SESSION_SECRET: 'x'.repeat(40),
};

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('when nothing is set, then demo mode with the documented defaults', () => {
    const config = loadConfig({});
    expect(config.demo).toBe(true);
    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.callbackUrl).toBe('http://localhost:3000/auth/callback');
    expect(config.apiVersion).toBe(DEFAULT_API_VERSION);
    // The demo runs the provider's OIDC flow with PKCE (docs/provider-interface.md#pkce), and its emulator
    // delivers webhooks, so it asks for the permission to subscribe pages; it serves insights and comments, so it asks for
    // those, and lets a manager answer and moderate the comments (docs/architecture.md#comment-actions) and publish
    // as the Page (docs/architecture.md#publishing).
    expect(config.scopes).toEqual([
      'openid',
      'pages_show_list',
      'pages_read_engagement',
      'pages_manage_metadata',
      'business_management',
      'read_insights',
      'pages_read_user_content',
      'pages_manage_engagement',
      'pages_manage_posts',
    ]);
    expect(config.webhookVerifyToken).toMatch(/^[\w-]{32}$/);
    expect(config.pkce).toBe(true);
    expect(config.oidc).toBe(true);
    expect(config.sessionStore).toBe('memory');
    expect(config.providerPort).toBe(3001);
    expect(config.servedOverHttps).toBe(false);
    expect(config.sessionSecretGenerated).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when FB_APP_ID is set with its secret and a session secret, then real-provider mode', () => {
    const config = loadConfig({
      ...REAL,
      FB_AUTH_URL: 'http://127.0.0.1:9000/',
      FB_GRAPH_URL: 'http://127.0.0.1:9001',
      FB_PAGE_ID: '42',
    });
    expect(config.demo).toBe(false);
    expect(config.authUrl).toBe('http://127.0.0.1:9000');
    expect(config.graphUrl).toBe('http://127.0.0.1:9001');
    expect(config.pageId).toBe('42');
  });

  it('when BASE_URL is https, then cookies are Secure', () => {
    expect(loadConfig({ BASE_URL: 'https://pages.example.com' }).servedOverHttps).toBe(true);
  });

  it('when FB_APP_ID is set, then PKCE is off, openid is not asked for, and the id_token would be checked against the dialog origin’s JWKS', () => {
    const config = loadConfig(REAL);
    expect(config.pkce).toBe(false);
    expect(config.oidc).toBe(false);
    expect(config.jwksUrl).toBe('https://www.facebook.com/.well-known/oauth/openid/jwks/');
    expect(config.oidcIssuer).toBe('https://www.facebook.com');
  });

  it('when FB_PKCE, FB_SCOPES with openid and FB_JWKS_URL are set, then they are used; FB_AUTH_URL moves the issuer', () => {
    const config = loadConfig({
      ...REAL,
      FB_PKCE: 'on',
      FB_SCOPES: 'openid,pages_show_list',
      FB_AUTH_URL: 'http://127.0.0.1:4101',
    });
    expect(config).toMatchObject({ pkce: true, oidc: true, oidcIssuer: 'http://127.0.0.1:4101' });
    expect(config.jwksUrl).toBe('http://127.0.0.1:4101/.well-known/oauth/openid/jwks/');
    expect(loadConfig({ ...REAL, FB_JWKS_URL: 'https://keys.example/jwks' }).jwksUrl).toBe('https://keys.example/jwks');
    expect(loadConfig({ FB_PKCE: 'off' }).pkce).toBe(false);
    expect(loadConfig({ FB_SCOPES: 'pages_show_list' }).oidc).toBe(false);
  });

  it('when EMULATOR_ACTIVITY is unset, then off; on turns the demo emulator’s posting on; anything else names it', () => {
    expect(loadConfig({}).emulatorActivity).toBe(false);
    expect(loadConfig({ EMULATOR_ACTIVITY: 'on' }).emulatorActivity).toBe(true);
    expect(loadConfig({ EMULATOR_ACTIVITY: 'off' }).emulatorActivity).toBe(false);
    expect(() => loadConfig({ EMULATOR_ACTIVITY: 'yes' })).toThrow(/^EMULATOR_ACTIVITY: must be "on" or "off"/);
  });

  it('when scopes are comma-separated, then they are split the same way', () => {
    expect(loadConfig({ FB_SCOPES: 'pages_show_list,pages_read_engagement' }).scopes).toEqual([
      'pages_show_list',
      'pages_read_engagement',
    ]);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PROVIDER_PORT: '-1' }, 'PROVIDER_PORT'],
    [{ BASE_URL: 'localhost:3000' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://example.com' }, 'BASE_URL'],
    [{ BASE_URL: 'https://example.com/app' }, 'BASE_URL'],
    [{ FB_API_VERSION: '23.0' }, 'FB_API_VERSION'],
    [{ FB_API_VERSION: 'v23' }, 'FB_API_VERSION'],
    [{ FB_APP_ID: 'abc', FB_APP_SECRET: 'secretsecret', SESSION_SECRET: 'x'.repeat(40) }, 'FB_APP_ID'],
    [{ FB_APP_ID: '123' }, 'FB_APP_SECRET'],
    [{ FB_APP_ID: '123', FB_APP_SECRET: 'secretsecret' }, 'SESSION_SECRET'],
    [{ ...REAL, SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ ...REAL, SESSION_SECRET: ',' }, 'SESSION_SECRET'],
    [{ FB_AUTH_URL: 'not a url' }, 'FB_AUTH_URL'],
    [{ FB_GRAPH_URL: 'javascript:alert(1)' }, 'FB_GRAPH_URL'],
    [{ FB_PAGE_ID: 'my-page' }, 'FB_PAGE_ID'],
    [{ FB_PKCE: 'yes' }, 'FB_PKCE'],
    [{ FB_JWKS_URL: 'file:///etc/keys' }, 'FB_JWKS_URL'],
    [{ FB_JWKS_URL: 'keys.json' }, 'FB_JWKS_URL'],
    [{ FB_SCOPES: 'pages_show_list <script>' }, 'FB_SCOPES'],
    [{ SESSION_STORE: 'postgres' }, 'SESSION_STORE'],
    [{ PAGE_CACHE_STORE: 'memcached' }, 'PAGE_CACHE_STORE'],
    [{ PAGE_CACHE_STORE: 'redis' }, 'PAGE_CACHE_STORE'],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: '::::' }, 'REDIS_URL'],
    [{ TRUST_PROXY: 'yes; rm -rf' }, 'TRUST_PROXY'],
    [{ TOKEN_ENCRYPTION_KEY: 'short' }, 'TOKEN_ENCRYPTION_KEY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('when %j, then one error naming %s', (env, variable) => {
    const err = errorOf(env);
    expect(err.variable).toBe(variable);
    expect(err.message.startsWith(`${variable}: `)).toBe(true);
    expect(err.message).not.toContain('\n');
  });

  it('when BASE_URL has no scheme, then the line shows the value given and the form it needs', () => {
    expect(errorOf({ BASE_URL: 'localhost:7120' }).message).toBe(
      'BASE_URL: must start with http:// or https://, such as http://localhost:7120, got "localhost:7120"',
    );
    expect(errorOf({ BASE_URL: 'example.com' }).message).toBe(
      'BASE_URL: must start with http:// or https://, such as https://example.com, got "example.com"',
    );
  });

  it('PAGE_CACHE_STORE follows SESSION_STORE unless set (docs/architecture.md#shared-cache)', () => {
    expect(loadConfig({}).pageCacheStore).toBe('memory');
    expect(loadConfig({ SESSION_STORE: 'redis' }).pageCacheStore).toBe('redis');
    expect(loadConfig({ SESSION_STORE: 'redis', PAGE_CACHE_STORE: 'memory' }).pageCacheStore).toBe('memory');
  });

  it('when the secret is wrong, then the error message does not echo it', () => {
    const err = errorOf({ ...REAL, FB_APP_SECRET: 'has spaces in it' });
    expect(err.message).not.toContain('has spaces in it');
  });

  describe('live updates (docs/architecture.md#live-updates)', () => {
    const configured = { FB_APP_ID: '123', FB_APP_SECRET: 'secret-value-01', SESSION_SECRET: 'x'.repeat(32) };

    it('when FB_WEBHOOK_VERIFY_TOKEN is unset outside demo mode, then webhooks are off and the scopes are the defaults', () => {
      const config = loadConfig(configured);
      expect(config.webhookVerifyToken).toBeUndefined();
      expect(config.scopes).not.toContain('pages_manage_metadata');
      expect([config.liveStreamsPerSession, config.liveStreamsMax, config.liveHeartbeatSec]).toEqual([4, 500, 25]);
    });

    it.each([
      ['FB_WEBHOOK_VERIFY_TOKEN', 'short'],
      ['FB_WEBHOOK_VERIFY_TOKEN', 'has spaces in it'],
      ['LIVE_STREAMS_PER_SESSION', '0'],
      ['LIVE_STREAMS_MAX', 'many'],
      ['LIVE_HEARTBEAT_SECONDS', '-1'],
    ])('when %s is "%s", then a one-line error names it', (name, value) => {
      expect(errorOf({ ...configured, [name]: value }).variable).toBe(name);
    });
  });

  it("when FB_IMAGE_ORIGINS is unset, then the provider's image hosts; when set, its origins, lowercased and once each", () => {
    expect(loadConfig(REAL).imageOrigins).toEqual(DEFAULT_IMAGE_ORIGINS.split(' '));
    expect(loadConfig(REAL).imageOrigins).toEqual(['https://*.fbcdn.net', 'https://platform-lookaside.fbsbx.com']);
    expect(
      loadConfig({ ...REAL, FB_IMAGE_ORIGINS: ' https://CDN.example  http://127.0.0.1:3001 https://cdn.example/ ' })
        .imageOrigins,
    ).toEqual(['https://cdn.example', 'http://127.0.0.1:3001']);
  });

  it('when an FB_IMAGE_ORIGINS entry is not an http(s) origin, then a one-line error naming the variable and the entry', () => {
    for (const bad of [
      'ftp://cdn.example',
      'https://cdn.example/path',
      'https://cdn.example?x=1',
      'https://user@cdn.example',
      'cdn.example',
      "'self'",
      'https://*',
      'https://a.*.example',
      'https://cdn.example;script-src',
      '*',
    ]) {
      const err = errorOf({ ...REAL, FB_IMAGE_ORIGINS: `https://ok.example ${bad}` });
      expect(err.variable).toBe('FB_IMAGE_ORIGINS');
      expect(err.message).not.toContain('\n');
      expect(err.message).toContain(bad.slice(0, 20));
    }
  });

  it("when demo mode points the app at its emulator, then the emulator's origin is added to the image origins", () => {
    const config = withProvider(loadConfig({}), {
      appId: '1',
      appSecret: 'x'.repeat(10),
      authUrl: 'http://localhost:3001',
      graphUrl: 'http://127.0.0.1:3001',
      imageOrigin: 'http://127.0.0.1:3001',
    });
    expect(config.imageOrigins).toEqual([...DEFAULT_IMAGE_ORIGINS.split(' '), 'http://127.0.0.1:3001']);
    expect(config).not.toHaveProperty('imageOrigin');
  });
});

import { Writable } from 'node:stream';
import request from 'supertest';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { buildContext, contextClosers, type AppContext } from '../../src/context';
import { startDemoProvider, type DemoProvider } from '../../src/demo';
import { createLogger } from '../../src/log/logger';
import { connectedAgent } from '../support/flow';
import type { Stack } from '../support/stack';
import { links } from '../support/dom';

const CAFE = SEED_IDS.pages.cafe;
const HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** Every `href` of a link whose text starts with `label`. */
const hrefsOf = (html: string, label: string) =>
  links(html)
    .filter((l) => l.text.startsWith(label))
    .map((l) => l.href);

/**
 * In demo mode the provider's web links — "View on Facebook" for a Page and for a post, and the privacy page's
 * settings link — lead to the emulator, which serves those pages (docs/provider-interface.md#web-links).
 */
describe('demo mode: links to Facebook reach the emulator', () => {
  let demo: DemoProvider;
  let ctx: AppContext;
  let stack: Pick<Stack, 'app'>;
  beforeAll(async () => {
    const quiet = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, done) => done() }) });
    demo = await startDemoProvider(loadConfig({ PROVIDER_PORT: '0', BASE_URL: 'http://127.0.0.1:3000' }), quiet);
    ctx = buildContext(demo.config, { logger: quiet });
    stack = { app: createApp(ctx) };
  });
  afterAll(async () => {
    for (const closer of contextClosers(ctx)) await closer.close();
    await demo.emulator.close();
  });

  it('when a connected Page is viewed, then its and its posts’ View on Facebook links open the emulator’s Page and post views', async () => {
    const agent = await connectedAgent(stack as Stack, CAFE, { user: SEED_IDS.users.grace });
    const page = await agent.get(`/pages/${CAFE}`).expect(200);
    const links = hrefsOf(page.text, 'View on Facebook');
    expect(links.length).toBeGreaterThan(1);
    const origin = new URL(demo.config.authUrl).origin;
    for (const href of links) {
      expect(new URL(href).origin).toBe(origin);
      expect(href).not.toContain('www.facebook.com');
      const opened = await fetch(href, { headers: { accept: HTML } });
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain('Hopper Compiler Café');
    }
  });

  it('when the privacy page is read, then it speaks to people about the demo, and its settings link reaches the emulator’s settings', async () => {
    const res = await request(stack.app).get('/privacy').expect(200);
    expect(res.text).toContain('This is a demo of Pagelight');
    expect(res.text).not.toMatch(/OPERATOR_NAME|OPERATOR_CONTACT|not set in demo mode/);
    const [settings] = hrefsOf(res.text, 'Facebook settings');
    expect(settings).toBe(`${new URL(demo.config.authUrl).origin}/settings?tab=applications`);
    const opened = await fetch(settings!, { headers: { accept: HTML } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Apps and Websites');
  });
});

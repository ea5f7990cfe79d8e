import { loadConfig, operatorWarning } from '../../src/config';
import { agentFor, startStack, type Stack } from '../support/stack';
import { hrefOf, visibleText } from '../support/words';
import { findAll, textOf } from '../support/dom';

/** docs/architecture.md#privacy-page */
describe('GET /privacy', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('when the operator is not configured, then the page says in a sentence that they have not said who they are, and the footer links it', async () => {
    stack = await startStack();
    const res = await agentFor(stack).get('/privacy').expect(200);
    const text = visibleText(res.text);
    expect(text).toContain(
      "Whoever runs this Pagelight hasn't given their name or a contact for questions about your data here yet.",
    );
    expect(text).not.toMatch(/run by not configured|not configured/);
    expect(res.text).toContain('http://app.test/auth/deauthorize');
    expect(res.text).toContain('http://app.test/auth/data-deletion');
    expect(res.text).toContain('2 hours');
    expect(res.text).toContain('7 days');
    expect(hrefOf((await agentFor(stack).get('/').expect(200)).text, 'Privacy')).toBe('/privacy');
  });

  it('when the app asks for a set of permissions, then the page lists exactly those reads, and no other', async () => {
    stack = await startStack({ env: { FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_metadata' } });
    const text = (await agentFor(stack).get('/privacy').expect(200)).text;
    const codes = findAll(text, 'code').map(textOf);
    expect(codes).toContain('pages_show_list');
    expect(codes).toContain('pages_read_engagement');
    expect(codes).toContain('pages_manage_metadata');
    expect(textOf(text)).toContain("a subscription to the page's changes (pages_manage_metadata)");
    expect(text).not.toContain('pages_read_user_content');
  });

  it('when only OPERATOR_NAME is set, then the name is given and the missing contact is said in words', async () => {
    stack = await startStack({ env: { NODE_ENV: 'production', OPERATOR_NAME: 'Ada Bakery' } });
    const text = visibleText((await agentFor(stack).get('/privacy').expect(200)).text);
    expect(text).toContain('Pagelight is run by Ada Bakery');
    expect(text).toContain("They haven't given a contact for questions about your data here yet.");
    expect(text).not.toContain('not configured');
  });

  it('when PKCE is off, then what a login in progress holds names no PKCE verifier; when on, it does', async () => {
    stack = await startStack({ env: { FB_PKCE: 'off' } });
    const off = visibleText((await agentFor(stack).get('/privacy').expect(200)).text);
    expect(off).toContain('a login in progress (a random state ), for at most 10 minutes;');
    expect(off).not.toContain('PKCE');
    await stack.close();
    stack = await startStack({ env: { FB_PKCE: 'on' } });
    const on = visibleText((await agentFor(stack).get('/privacy').expect(200)).text);
    expect(on).toContain('a login in progress (a random state and PKCE verifier), for at most 10 minutes;');
  });

  it('when OPERATOR_NAME and OPERATOR_CONTACT are set, then they are shown, escaped', async () => {
    const name = 'Ada & <Co>';
    stack = await startStack({ env: { OPERATOR_NAME: name, OPERATOR_CONTACT: 'privacy@example.org' } });
    const res = await agentFor(stack).get('/privacy').expect(200);
    expect(visibleText(res.text)).toContain(name);
    expect(res.text).toContain('privacy@example.org');
  });
});

describe('OPERATOR_NAME / OPERATOR_CONTACT', () => {
  const base = { FB_APP_ID: '1', FB_APP_SECRET: 'secret-123', SESSION_SECRET: 'x'.repeat(32) };

  it('when one holds a line break, then the start fails naming it', () => {
    expect(() => loadConfig({ ...base, OPERATOR_NAME: 'a\nb' })).toThrow(/^OPERATOR_NAME: /);
    expect(() => loadConfig({ ...base, OPERATOR_CONTACT: 'x'.repeat(201) })).toThrow(/^OPERATOR_CONTACT: /);
  });

  it('when they are unset outside demo mode, then a start-up warning names them; in demo mode none', () => {
    expect(operatorWarning(loadConfig(base))).toMatch(/OPERATOR_NAME and OPERATOR_CONTACT unset/);
    expect(operatorWarning(loadConfig({ ...base, OPERATOR_NAME: 'A', OPERATOR_CONTACT: 'b' }))).toBeUndefined();
    expect(operatorWarning(loadConfig({}))).toBeUndefined();
  });
});

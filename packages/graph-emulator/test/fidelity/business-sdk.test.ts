/**
 * facebook-nodejs-business-sdk, the provider's own SDK for Node: its API object reads a Page from the
 * emulator over a real socket, and its error type reads the emulator's error envelope. The SDK's Graph origin
 * is fixed (`FacebookAdsApi.GRAPH`); `call`'s last argument, `urlOverride`, is the one way its signature
 * offers to send a call elsewhere, so the Page read goes through `call` rather than `new Page(id).get()`.
 * docs/fidelity.md.
 */
import { FacebookAdsApi, Page } from 'facebook-nodejs-business-sdk';

/** What the SDK rejects a call with (its FacebookRequestError, which its entry point does not export). */
interface SdkRequestError {
  name: string;
  status: number;
  message: string;
  response: unknown;
}
import { startEmulator, type RunningEmulator } from '../../src';
import { CLIENT, PAGES, USERS } from '../helpers';

describe('the provider’s Node SDK against the emulator', () => {
  let emulator: RunningEmulator;
  let api: FacebookAdsApi;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], seed: 'test' });
    const { access_token: user } = emulator.controls.issueToken({
      userId: USERS.ada,
      scopes: ['pages_show_list', 'pages_read_engagement'],
    });
    const pageToken = await fetch(`${emulator.url}/v25.0/${PAGES.bakery}?fields=access_token`, {
      headers: { authorization: `Bearer ${user}` },
    });
    // crash_log off: the SDK would otherwise report this process's crashes to the provider.
    api = FacebookAdsApi.init(((await pageToken.json()) as { access_token: string }).access_token, 'en_US', false);
  });
  afterAll(() => emulator.close());

  it('when it reads a Page’s fields at its own version, then the Page object holds them', async () => {
    const fields = ['id', 'name', 'category', 'fan_count'];
    const answer = await api.call<Record<string, unknown>>(
      'GET',
      [PAGES.bakery],
      { fields: fields.join(',') },
      {},
      false,
      emulator.url,
    );
    const page = new Page(String(answer.id), answer);
    expect(page.exportData()).toMatchObject({
      id: PAGES.bakery,
      name: 'Lovelace Analytical Bakery',
      category: expect.any(String) as unknown,
      fan_count: expect.any(Number) as unknown,
    });
    expect(emulator.controls.requestLog.map((entry) => entry.path)).toContain(
      `/${FacebookAdsApi.VERSION}/${PAGES.bakery}`,
    );
  });

  it('when it asks for a field the Page does not have, then its FacebookRequestError carries the provider’s status, code and message', async () => {
    const error = await api.call('GET', [PAGES.bakery], { fields: 'no_such_field' }, {}, false, emulator.url).then(
      () => undefined,
      (err: SdkRequestError) => err,
    );
    expect(error?.name).toBe('FacebookRequestError');
    expect(error?.status).toBe(400);
    expect(error?.message).toBe('(#100) Tried accessing nonexisting field (no_such_field) on node type (Page)');
    expect(error?.response).toMatchObject({
      code: 100,
      type: 'OAuthException',
      fbtrace_id: expect.any(String) as unknown,
    });
  });
});

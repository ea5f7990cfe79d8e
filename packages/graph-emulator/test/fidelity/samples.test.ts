/**
 * The emulator's answers to the calls the provider's documentation shows, compared by shape with the
 * documentation's own sample answers (samples/*.json, each with its page): every key a sample shows is
 * in the emulator's answer with the same JSON type. docs/fidelity.md.
 */
import request from 'supertest';
import {
  CLIENT,
  graphGet,
  makeEmulator,
  PAGES,
  pageToken,
  USERS,
  userToken,
  codeFor,
  type TestEmulator,
} from '../helpers';
import { loadSamples, type Sample } from './samples';
import { shapeDifferences } from './shape';

const SAMPLES = loadSamples();
const SCOPE =
  'pages_show_list pages_read_engagement pages_read_user_content read_insights pages_manage_posts pages_manage_engagement';

function sample(name: string): Sample {
  const found = SAMPLES.get(name);
  if (found === undefined) throw new Error(`no sample ${name}`);
  return found;
}

/** The differences between `name`'s sample and `answer`, leaving out what the sample marks optional or unasked. */
function differences(name: string, answer: unknown): string[] {
  const { sample: shown, optional, unasked } = sample(name);
  return shapeDifferences(shown, answer, [...optional, ...unasked]);
}

describe('the emulator against the provider documentation’s sample answers', () => {
  let emu: TestEmulator;
  let user: string;
  let page: string;
  let postId: string;
  beforeAll(async () => {
    emu = makeEmulator();
    user = await userToken(emu.app, {}, { scope: SCOPE });
    page = await pageToken(emu.app, user, PAGES.bakery);
    const feed = await graphGet(emu.app, `/v25.0/${PAGES.bakery}/feed`, page).expect(200);
    postId = (feed.body as { data: { id: string }[] }).data[0]!.id;
  });

  it('every sample names its page and quotes it', () => {
    expect(SAMPLES.size).toBeGreaterThanOrEqual(12);
    for (const [name, { source, quote }] of SAMPLES)
      expect([name, source, quote.length > 0]).toEqual([name, source, true]);
  });

  it('when a node is read with its default fields (GET /USER-ID), then the answer has the sample’s name and id', async () => {
    const res = await graphGet(emu.app, `/v25.0/${USERS.ada}`, user).expect(200);
    expect(differences('me', res.body)).toEqual([]);
  });

  it('when /me/permissions is read after a permission was declined, then each entry has permission and status', async () => {
    const grace = await userToken(
      emu.app,
      { user: USERS.grace, perms: ['pages_show_list'] },
      { scope: 'pages_show_list email' },
    );
    const res = await graphGet(emu.app, '/v25.0/me/permissions', grace).expect(200);
    expect(differences('me-permissions', res.body)).toEqual([]);
    expect((res.body as { data: { status: string }[] }).data.map((p) => p.status)).toContain('declined');
  });

  it('when the Pages a person manages are listed (GET /user_id/accounts), then each has the sample’s token, category, category_list, name, id and tasks', async () => {
    const res = await graphGet(emu.app, `/v25.0/${USERS.ada}/accounts`, user).expect(200);
    expect(differences('user-accounts', res.body)).toEqual([]);
  });

  it('when a Page is read with fields=access_token and a user token, then the answer is its token and id', async () => {
    const res = await graphGet(emu.app, `/v25.0/${PAGES.bakery}`, user).query({ fields: 'access_token' }).expect(200);
    expect(differences('page-access-token', res.body)).toEqual([]);
  });

  it('when a Page’s feed is read, then each post has created_time, message and id', async () => {
    const res = await graphGet(emu.app, `/v25.0/${PAGES.bakery}/feed`, page).expect(200);
    expect(differences('page-feed', res.body)).toEqual([]);
  });

  it('when a post’s comments are read with fields=from,message, then each has from {name,id}, message and id, with cursors', async () => {
    const res = await graphGet(emu.app, `/v25.0/${postId}/comments`, page)
      .query({ fields: 'from,message' })
      .expect(200);
    expect(differences('post-comments', res.body)).toEqual([]);
  });

  it('when the same comments are read with created_time asked for too, then it is there as the sample shows it', async () => {
    const res = await graphGet(emu.app, `/v25.0/${postId}/comments`, page)
      .query({ fields: 'created_time,from,message' })
      .expect(200);
    expect(shapeDifferences(sample('post-comments').sample, res.body)).toEqual([]);
  });

  it('when one Page metric is read by its path (GET /{page-id}/insights/{metric}), then the answer has the sample’s series, titles, id and paging', async () => {
    const res = await graphGet(emu.app, `/v25.0/${PAGES.bakery}/insights/page_media_view`, page)
      .query({ period: 'day' })
      .expect(200);
    expect(differences('page-insights', res.body)).toEqual([]);
  });

  it('when a code is exchanged as the guide shows it (a GET with the query), then access_token, token_type and expires_in', async () => {
    const code = await codeFor(emu.app, { scope: 'pages_show_list' }, { user: USERS.alan });
    const res = await request(emu.app)
      .get('/v25.0/oauth/access_token')
      .query({ client_id: CLIENT.clientId, redirect_uri: CLIENT.redirectUri, client_secret: CLIENT.clientSecret, code })
      .expect(200);
    expect(differences('oauth-access-token', res.body)).toEqual([]);
  });

  it('when a user token is inspected with the app token, then debug_token has every field of the sample, granular_scopes included', async () => {
    const res = await request(emu.app)
      .get('/v25.0/debug_token')
      .query({ input_token: user, access_token: `${CLIENT.clientId}|${CLIENT.clientSecret}` })
      .expect(200);
    expect(differences('debug-token', res.body)).toEqual([]);
  });

  it('when a token was invalidated by a password change, then the error envelope has message, type, code, error_subcode and fbtrace_id', async () => {
    const token = emu.controls.issueToken({ userId: USERS.grace }).access_token;
    emu.controls.revokeTokens({ token, reason: 'password_changed' });
    const res = await graphGet(emu.app, '/v25.0/me', token).expect(400);
    expect(differences('error', res.body)).toEqual([]);
    expect((res.body as { error: { error_subcode: number } }).error.error_subcode).toBe(460);
  });

  it('when the Page publishes a post, then the answer is its id', async () => {
    const res = await request(emu.app)
      .post(`/v25.0/${PAGES.bakery}/feed`)
      .set('Authorization', `Bearer ${page}`)
      .type('form')
      .send({ message: 'Fresh rye at nine.' });
    expect(res.status).toBe(200);
    expect(differences('publish-post', res.body)).toEqual([]);
  });

  it('when the Page comments on a post, then the answer is the comment’s id', async () => {
    const res = await request(emu.app)
      .post(`/v25.0/${postId}/comments`)
      .set('Authorization', `Bearer ${page}`)
      .type('form')
      .send({ message: 'Thank you for coming by!' });
    expect(res.status).toBe(200);
    expect(differences('comment-on-post', res.body)).toEqual([]);
  });
});

/**
 * The token endpoint's refusals of a code, as answers captured from the provider show them: the
 * `WWW-Authenticate: OAuth "Facebook Platform" "invalid_code" "<message>"` challenge beside the JSON
 * error (docs/specification.md#code-exchange-refusals).
 */
import { CLIENT, codeFor, exchange, graphError, makeEmulator } from './helpers';

const challenge = (message: string): string => `OAuth "Facebook Platform" "invalid_code" "${message}"`;

describe('POST /oauth/access_token refusing a code', () => {
  it('when the code was used, then the invalid_code challenge names it (as CaptainFact/captain-fact-api#54 captured)', async () => {
    const { app } = makeEmulator();
    const code = await codeFor(app);
    await exchange(app, code).expect(200);
    const res = await exchange(app, code).expect(400);
    expect(res.headers['www-authenticate']).toBe(challenge('This authorization code has been used.'));
  });

  it('when the redirect_uri differs, then the invalid_code challenge carries the message (as freizl/hoauth2#19 captured)', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app), { redirect_uri: `${CLIENT.redirectUri}/x` }).expect(400);
    expect(res.headers['www-authenticate']).toBe(
      challenge(
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      ),
    );
  });

  it('when the code expired, then the same invalid_code challenge', async () => {
    const emu = makeEmulator({ codeTtlMs: 60_000 });
    const code = await codeFor(emu.app);
    emu.clock.advance(60_001);
    const res = await exchange(emu.app, code).expect(400);
    expect(res.headers['www-authenticate']).toBe(challenge('This authorization code has expired.'));
  });

  it('when the code is unknown, then the same invalid_code challenge', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, 'AQnope').expect(400);
    expect(res.headers['www-authenticate']).toBe(challenge('Invalid verification code format.'));
  });

  it('when the redirect_uri is not an absolute URI, then 191 with the invalid_request challenge (as roundrop/facebook4j-oauth-example#2 captured)', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app), { redirect_uri: 'null' }).expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 191,
      message: "redirect_uri isn't an absolute URI. Check RFC 3986.",
    });
    expect(res.headers['www-authenticate']).toBe(
      'OAuth "Facebook Platform" "invalid_request" "redirect_uri isn\'t an absolute URI. Check RFC 3986."',
    );
  });

  it('when the redirect_uri is on a domain the app did not register, then 191 "Can\'t Load URL" (as darkwhispering/facebook-sdk-codeigniter#57 reports)', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app), {
      redirect_uri: 'https://elsewhere.test/auth/callback',
    }).expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 191,
      message: expect.stringMatching(
        /^Can't Load URL: The domain of this URL isn't included in the app's domains\./,
      ) as unknown,
    });
  });

  it('when the client secret is wrong, then no challenge: the captured refusals show the JSON alone', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app), { client_secret: 'nope' }).expect(400);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

import request from 'supertest';
import { graphError, makeEmulator, PAGES, USERS } from './helpers';
import { receiverPerTest, subscribedToFeed } from './webhook-receiver';

const HOUR = 3_600_000;

/** The emulator's clock moved by a test (docs/reference.md#clock): what is due happens, as time passing would do it. */
describe('moving the clock', () => {
  const receiver = receiverPerTest();

  it('when the clock is moved past a scheduled post, then it is published and its feed webhook sent, with no Graph call', async () => {
    const { emulator, write, feedValues } = await subscribedToFeed(receiver.current);
    const later = await write('post', `${PAGES.bakery}/feed`, {
      message: 'Later',
      published: 'false',
      scheduled_publish_time: '+1 hour',
    });
    const moved = emulator.controls.moveClock({ advanceMs: 2 * HOUR });
    expect(moved).toEqual({ now: new Date(emulator.clock.t + 2 * HOUR).toISOString(), published: [later.body.id] });
    await emulator.controls.webhooksIdle();
    expect(feedValues().map(({ verb, post_id, published }) => ({ verb, post_id, published }))).toEqual([
      { verb: 'add', post_id: later.body.id, published: 0 },
      { verb: 'add', post_id: later.body.id, published: 1 },
    ]);
  });

  it('when the clock is set over HTTP, then it answers the new time, GET /clock reads it and a 2-hour token has expired', async () => {
    const { app, controls, clock } = makeEmulator({ httpControls: true, userTokenTtlSec: 7200 });
    const token = controls.issueToken({ userId: USERS.ada }).access_token;
    const at = new Date(clock.t + 3 * HOUR).toISOString();
    const res = await request(app).post('/__emulator/clock').send({ at }).expect(200);
    expect(res.body).toEqual({ now: at, published: [] });
    expect((await request(app).get('/__emulator/clock').expect(200)).body).toEqual({ now: at });
    const me = await request(app).get('/me').query({ access_token: token }).expect(400);
    expect(graphError(me.body).error_subcode).toBe(463);
  });

  it('when the clock would go back, then 400 naming the field, and the time stays', async () => {
    const { app, clock } = makeEmulator({ httpControls: true });
    const before = new Date(clock.t).toISOString();
    const res = await request(app)
      .post('/__emulator/clock')
      .send({ at: new Date(clock.t - HOUR).toISOString() })
      .expect(400);
    expect(res.body).toEqual({ error: 'at: the clock only moves forward' });
    expect((await request(app).get('/__emulator/clock').expect(200)).body).toEqual({ now: before });
  });

  it('when both or neither of advanceMs and at are given, then 400 and the time stays', async () => {
    const { app } = makeEmulator({ httpControls: true });
    await request(app).post('/__emulator/clock').send({}).expect(400);
    await request(app).post('/__emulator/clock').send({ advanceMs: 1, at: '2030-01-01T00:00:00.000Z' }).expect(400);
    await request(app).post('/__emulator/clock').send({ advanceMs: -1 }).expect(400);
  });
});

/**
 * The attacks of the security review, each thrown again at a running app (docs/architecture.md#security-rules):
 * `tried` attempts, `failures` attempts that got what the attacker wanted, `lost` legitimate people who lost
 * their page meanwhile. Part of `npm run report:reliability`.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import express from 'express';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { useViews } from '../src/http/views';
import { englishLocale } from '../src/i18n/catalogs';
import { renderPartial } from '../src/pages/fragments';
import { toFeedView } from '../src/pages/feed-view';
import { CookieClient } from '../test/support/cookie-client';
import { connectedClient } from '../test/support/login';
import { signedRequest } from '../test/support/signed-request';
import { openStream, type EventStream } from '../test/support/sse';
import { APP_SECRET, type Stack } from '../test/support/stack';

export interface Row {
  check: string;
  tried: number;
  failures: number;
  lost: number;
  note: string;
}

const BAKERY = SEED_IDS.pages.bakery;
const ADA = SEED_IDS.users.ada;
const EVENTS = `/pages/${BAKERY}/events`;

/** Posts of 100,000 hostile characters, rendered: a render over 100 ms would hold every request of the instance. */
export function hostileText(): Row {
  const app = express();
  useViews(app);
  const size = 100_000;
  const shapes = [
    'https://a.example/' + ')'.repeat(size),
    'https://a.example/x' + '.)]},'.repeat(size / 5),
    'https://a.example/' + '('.repeat(size / 2) + ')'.repeat(size / 2),
    'https://a.example/)'.repeat(size / 19),
    'http://'.repeat(size / 7),
  ];
  let slowest = 0;
  let failures = 0;
  for (const message of shapes) {
    const started = performance.now();
    const feed = toFeedView({ data: [{ id: '1_2', created_time: '2026-10-01T12:00:00+0000', message }] }, 'first');
    renderPartial(app, englishLocale(), 'posts', feed);
    const ms = performance.now() - started;
    slowest = Math.max(slowest, ms);
    if (ms > 100) failures++;
  }
  return {
    check: 'attack: posts of 100,000 hostile characters',
    tried: shapes.length,
    failures,
    lost: 0,
    note: `slowest render ${slowest.toFixed(1)} ms (was 187 s for 100,000 ")")`,
  };
}

/** One person logging in again and again to open streams: bounded, and the site keeps answering. */
export async function streamFlood(base: string): Promise<Row> {
  const sessions = 12;
  const perSession = 4;
  const people = await Promise.all(Array.from({ length: sessions }, () => connectedClient(base, BAKERY, ADA)));
  const bystander = await connectedClient(base, BAKERY, SEED_IDS.users.grace);
  const open: EventStream[] = [];
  let admitted = 0;
  try {
    for (const person of people)
      for (let i = 0; i < perSession; i++) {
        const stream = await openStream(base, EVENTS, person.cookieHeader());
        open.push(stream);
        if (stream.status === 200) admitted++;
      }
    const site = await Promise.all(['/', '/privacy', '/healthz'].map((p) => fetch(`${base}${p}`)));
    const down = site.filter((r) => r.status !== 200).length;
    const theirs = await openStream(base, EVENTS, bystander.cookieHeader());
    open.push(theirs);
    const bound = 8;
    return {
      check: 'attack: one person opens streams from many logins',
      tried: sessions * perSession,
      failures: Math.max(0, admitted - bound) + down,
      lost: theirs.status === 200 ? 0 : 1,
      note: `admitted ${admitted} of ${sessions * perSession} (LIVE_STREAMS_PER_PERSON=${bound}); site pages down: ${down}`,
    };
  } finally {
    for (const s of open) s.close();
  }
}

/** The provider's deauthorize callback: the person's open streams end at once. */
export async function streamsAfterDeauthorize(base: string): Promise<Row> {
  const tabs = await Promise.all([1, 2, 3].map(() => connectedClient(base, BAKERY, ADA)));
  const streams = await Promise.all(tabs.map((t) => openStream(base, EVENTS, t.cookieHeader())));
  try {
    const res = await fetch(`${base}/auth/deauthorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }) }).toString(),
    });
    let stillOpen = 0;
    await Promise.all(
      streams.map((s) =>
        Promise.race([s.ended, new Promise<void>((done) => setTimeout(() => (stillOpen++, done()), 5000))]),
      ),
    );
    return {
      check: 'attack: streams after the provider signed the person out',
      tried: streams.length,
      failures: stillOpen + (res.status === 200 ? 0 : 1),
      lost: 0,
      note: `streams still open 5 s after the callback: ${stillOpen}`,
    };
  } finally {
    for (const s of streams) s.close();
  }
}

/** The per-session limit against the same cookie spelled differently. */
export async function cookieSpellings(base: string, limit: number): Promise<Row> {
  const person = await connectedClient(base, BAKERY, ADA);
  const value = person.cookieHeader().replace(/^pagelight=/, '');
  const decoded = decodeURIComponent(value);
  const spellings = [
    (v: string) => `pagelight=${v}`,
    (v: string) => `pagelight =${v}`,
    (v: string) => `pagelight="${v}"`,
    () => `pagelight=${decoded.replace(/:/g, '%3a')}`,
    () => `x=1; pagelight=${encodeURIComponent(decoded)}`,
  ];
  const tries = limit * 3;
  let served = 0;
  for (let i = 0; i < tries; i++) {
    const res = await fetch(`${base}/pages`, { headers: { cookie: spellings[i % spellings.length]!(value) } });
    await res.arrayBuffer();
    if (res.status === 200) served++;
  }
  return {
    check: 'attack: one session, its cookie spelled five ways',
    tried: tries,
    failures: Math.max(0, served - limit),
    lost: 0,
    note: `served ${served} of ${tries} (SESSION_RATE_LIMIT=${limit}, counting the picker of the login)`,
  };
}

/** Compressed webhook bodies, signed or not, and hostile Host headers at the emulator's settings page. */
export async function refusedBeforeWork(base: string, stack: Stack): Promise<Row> {
  const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
  const signature = `sha256=${createHmac('sha256', APP_SECRET).update(bomb).digest('hex')}`;
  let failures = 0;
  let tried = 0;
  for (const signed of [false, true]) {
    tried++;
    const res = await fetch(`${base}/webhooks/facebook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        ...(signed ? { 'x-hub-signature-256': signature } : {}),
      },
      body: bomb,
    });
    if (res.status !== 415) failures++;
  }
  const settings = new URL('/settings/apps', stack.emulator.url);
  for (const host of ['attacker.example', 'rebound.example:80', '10.0.0.7']) {
    tried++;
    if ((await statusWithHost(settings, host)) !== 403) failures++;
  }
  const person = new CookieClient(base);
  const home = await person.get('/');
  return {
    check: 'attack: gzip webhook bodies, rebound Host at settings',
    tried,
    failures,
    lost: home.status === 200 ? 0 : 1,
    note: 'gzip bodies: 415 before reading; foreign Host: 403',
  };
}

/** GET `url` with its Host header replaced (fetch does not let a caller choose Host). */
function statusWithHost(url: URL, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

/* The second round of findings (docs/architecture.md#security-rules), each the scenario of the test that proves it. */

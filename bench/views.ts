/**
 * Each view against the calls floor (bench/calls-floor.ts): the app with the cache off, so every view makes its
 * provider calls, beside a bare Express making only those calls (read from the emulator's log of one app view)
 * and rendering nothing. App CPU per view ÷ the floor's per request, one request at a time in alternating
 * batches: what the app's own code and templates add to a view's provider calls.
 * @see docs/performance.md#each-view-against-its-provider-calls
 */
import { control } from '../test/support/emulator';
import { spawnNode, waitForOutput } from '../test/support/processes';
import type { Call } from './calls-floor';
import { alternate } from './sequential';
import { DEFAULT_SEED } from '@pagelight/graph-emulator';
import { ADA, BAKERY, CREDENTIALS, log, loginFlow, startApp, stopChild, type Bench, type Row } from './shared';

/**
 * App CPU per view ÷ the calls floor's, per view: the app's code, session and templates around the calls. Set
 * from the round that added the rows, with room for the machine's spread (docs/performance.md#targets).
 */
const VIEW_TARGETS = { page: 3.1, 'older posts': 3.2, post: 2.6, insights: 3.5 } as const;
type View = keyof typeof VIEW_TARGETS;

/** The post the post row opens: the bread class, an album of six photos with nine comments (demo seed). */
const POST = DEFAULT_SEED.pages.find((p) => p.id === BAKERY)!.feed[2]!.id;

interface LogEntry {
  kind: string;
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
}

/** A logged call without its credentials: the floor sends its own token and proof. */
function withoutCredentials(entry: LogEntry): Call {
  const strip = (values: Record<string, string>) => {
    const { access_token: _token, appsecret_proof: _proof, ...rest } = values;
    return rest;
  };
  return {
    method: entry.method === 'POST' ? 'POST' : 'GET',
    path: entry.path,
    query: strip(entry.query),
    form: strip(entry.form),
  };
}

export async function viewsAgainstCalls(bench: Bench): Promise<Row[]> {
  log('each view (cache off, L=0) against the calls floor, one request at a time');
  const app = await startApp(bench, 0, 'views', {
    FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content read_insights',
    SHUTDOWN_DRAIN_SECONDS: '0',
    // Thousands of views from one session within a minute: its read limit would measure itself.
    SESSION_RATE_LIMIT: '100000',
  });
  const cookie = await loginFlow(bench.appUrl);
  const headers = { cookie };
  const first = await fetch(`${bench.appUrl}/pages/${BAKERY}`, { headers });
  // The older-posts link the page offers: its cursor is the provider's.
  const older = /href="(\/pages\/\d+\/feed\?[^"]+)"/.exec(await first.text())?.[1]?.replace(/&amp;/g, '&');
  if (!older) throw new Error('views: the page offers no older posts');
  const paths: Record<View, string> = {
    page: `/pages/${BAKERY}`,
    'older posts': older,
    post: `/pages/${BAKERY}/posts/${POST}`,
    insights: `/pages/${BAKERY}/insights`,
  };
  const calls: Partial<Record<View, Call[]>> = {};
  for (const [view, path] of Object.entries(paths) as [View, string][]) {
    await control(bench.emulatorUrl, 'DELETE', '/log');
    const res = await fetch(`${bench.appUrl}${path}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`views: ${path} answered ${res.status}`);
    const logged = (await control(bench.emulatorUrl, 'GET', '/log')) as { data: LogEntry[] };
    calls[view] = logged.data.filter((e) => e.kind === 'graph').map(withoutCredentials);
  }
  const issued = (await control(bench.emulatorUrl, 'POST', '/tokens', { userId: ADA, pageId: BAKERY })) as {
    access_token: string;
  };
  const floor = spawnNode('calls floor', 'bench/calls-floor.ts', {
    inheritEnv: true,
    echoStderr: true,
    env: {
      PORT: String(bench.floorPort),
      GRAPH_URL: bench.emulatorUrl,
      PAGE_TOKEN: issued.access_token,
      APP_SECRET: CREDENTIALS.appSecret,
      FLOOR_CALLS: JSON.stringify(calls),
    },
  });
  bench.children.add(floor);
  try {
    await waitForOutput(floor, /floor listening/);
    const rows: Row[] = [];
    for (const [view, path] of Object.entries(paths) as [View, string][]) {
      const {
        a: appUs,
        b: floorUs,
        ratio: callsRatio,
      } = await alternate(
        { child: app, url: `${bench.appUrl}${path}`, headers, status: 200 },
        { child: floor, url: `http://127.0.0.1:${bench.floorPort}/views/${encodeURIComponent(view)}`, status: 200 },
      );
      const target = VIEW_TARGETS[view];
      rows.push({
        scenario: `${view} view ÷ its ${calls[view]!.length} provider calls alone (cache off, L=0, one at a time)`,
        result: `${callsRatio.toFixed(2)} (${appUs.toFixed(0)} µs ÷ ${floorUs.toFixed(0)} µs)`,
        callsPerView: calls[view]!.length,
        figures: { callsRatio, appCpuUsPerView: appUs, floorCpuUsPerRequest: floorUs },
        target: `≤ ${target.toFixed(2)}`,
        pass: callsRatio <= target,
      });
    }
    return rows;
  } finally {
    await stopChild(bench, floor);
    await stopChild(bench, app);
  }
}

import type { Express } from 'express';
import type { SessionStoreHandle } from '../session/store';

/**
 * Whether this instance should be sent traffic. Set once, at SIGTERM, by src/shutdown.ts: from then on
 * /readyz answers 503 while the listener keeps serving (docs/operations.md#probes-and-shutdown).
 */
export class Readiness {
  private isDraining = false;

  drain(): void {
    this.isDraining = true;
  }

  get draining(): boolean {
    return this.isDraining;
  }
}

/** What /readyz and /healthz answer: ready, or the reason not. */
function readiness(sessions: SessionStoreHandle, state: Readiness) {
  const reason = state.draining ? 'draining' : sessions.healthy() ? undefined : 'session store unavailable';
  return {
    status: reason === undefined ? 200 : 503,
    body: { status: reason === undefined ? 'ok' : 'unavailable', store: sessions.kind, ...(reason ? { reason } : {}) },
  };
}

/**
 * The probes, before the session is read so they answer whatever the store does
 * (docs/operations.md#probes-and-shutdown):
 * - `/livez`: the process serves requests. Never checks a dependency, so a Redis blip restarts nothing.
 * - `/readyz`: send traffic here: the session store answers and the process is not draining.
 * - `/healthz`: the same answer as `/readyz`, kept for existing set-ups.
 *
 * Routes of the app, not a router: a router on `/` would be entered and left by every request.
 */
export function useProbes(app: Express, sessions: SessionStoreHandle, state: Readiness): void {
  app.get('/livez', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  app.get(['/readyz', '/healthz'], (_req, res) => {
    const { status, body } = readiness(sessions, state);
    res.setHeader('Cache-Control', 'no-store');
    res.status(status).json(body);
  });
}

/** Paths of the probes: not worth an access line each (a balancer asks every few seconds). */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/livez', '/readyz', '/healthz']);

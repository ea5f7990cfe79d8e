import request from 'supertest';
import { createLogger } from '../../src/log/logger';
import { tracingFor } from '../../src/observe/tracing';
import { signInAndConnect } from '../support/flow';
import { startObservedStack } from './observed-stack';
import { SEED_IDS } from '@pagelight/graph-emulator';

// Each OpenTelemetry module records when it is first loaded; jest runs a factory only when a module is required.
const mockLoaded: string[] = [];
jest.mock('@opentelemetry/api', () => {
  mockLoaded.push('@opentelemetry/api');
  return jest.requireActual('@opentelemetry/api');
});
jest.mock('@opentelemetry/sdk-trace-node', () => {
  mockLoaded.push('@opentelemetry/sdk-trace-node');
  return jest.requireActual('@opentelemetry/sdk-trace-node');
});
jest.mock('@opentelemetry/exporter-trace-otlp-http', () => {
  mockLoaded.push('@opentelemetry/exporter-trace-otlp-http');
  return jest.requireActual('@opentelemetry/exporter-trace-otlp-http');
});

/** docs/operations.md#traces */
describe('tracing, with OTEL_EXPORTER_OTLP_ENDPOINT unset', () => {
  it('when the app is built and serves a login and a page view, then no OpenTelemetry module is loaded', async () => {
    const stack = await startObservedStack({});
    try {
      expect(await tracingFor(stack.ctx.config, createLogger({ level: 'silent' }))).toBeUndefined();
      const owner = request.agent(stack.app);
      await signInAndConnect(owner, SEED_IDS.pages.bakery);
      await owner.get(`/pages/${SEED_IDS.pages.bakery}`).expect(200);
      expect(stack.ctx.tracing).toBeUndefined();
      expect(mockLoaded).toEqual([]);
    } finally {
      await stack.close();
    }
  });

  it('when the mocks are asked for a module, then they record it (the check above can fail)', () => {
    jest.requireMock<object>('@opentelemetry/api');
    expect(mockLoaded).toEqual(['@opentelemetry/api']);
  });
});

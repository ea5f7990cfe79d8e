/** What a Graph node or edge handler gets to work with. */
import type { Request } from 'express';
import type { Context } from '../context';
import type { Caller } from './auth';
import type { LinkParts } from './paging';

export interface GraphCall {
  ctx: Context;
  req: Request;
  caller: Caller;
  params: Record<string, string>;
  /** The `vX.Y` prefix of the request, if it had one. */
  version: string | undefined;
}

/** Where next/previous links of an edge point, and what they repeat. */
export function edgeLinks(call: GraphCall, nodeId: string, edge: string): LinkParts {
  const prefix = call.version === undefined ? '' : `/${call.version}`;
  const carry: Record<string, string> = { access_token: call.caller.token };
  if (call.params.fields !== undefined) carry.fields = call.params.fields;
  // The configured origin, not the Host header: a forged Host must not choose where links point.
  return { base: `${call.ctx.publicUrl}${prefix}/${nodeId}/${edge}`, carry };
}

/**
 * Loaded into the app process by the bench only (`node --expose-gc --require bench/heap-probe.js`), never by the
 * app: a loopback endpoint on BENCH_HEAP_PORT that collects garbage and answers the heap in use, for the streams
 * scenario's heap per connection (bench/live.ts). Production has neither this file nor --expose-gc.
 */
'use strict';
const http = require('node:http');

const port = Number(process.env.BENCH_HEAP_PORT);
if (!port || typeof global.gc !== 'function') {
  throw new Error('heap-probe: needs BENCH_HEAP_PORT and node --expose-gc');
}
const server = http.createServer((req, res) => {
  if (req.url !== '/heap') {
    res.statusCode = 404;
    res.end();
    return;
  }
  // Twice: objects freed by the first collection's finalizers go in the second.
  global.gc();
  global.gc();
  const { heapUsed } = process.memoryUsage();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ heapUsed }));
});
server.listen(port, '127.0.0.1');
// The probe must not keep the app alive once it is asked to stop.
server.unref();

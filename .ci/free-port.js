/** The CI scripts' one way to pick a loopback port: bind port 0, read what the system gave, release it. */
const { createServer } = require('node:net');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = { freePort };

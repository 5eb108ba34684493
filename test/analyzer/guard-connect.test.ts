// The connector's own guard: it connects only to checked addresses, and checks the address
// actually connected to once more (defence in depth behind the DNS check).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { guardedConnector, type ConnectionInfo, type GuardPolicy } from '../../src/analyzer/fetch/connect.js';
import { FetchError } from '../../src/analyzer/types.js';

describe('guardedConnector', () => {
  let server: Server;
  let port = 0;
  const accepted: Socket[] = [];
  before(async () => {
    server = createServer((s) => {
      accepted.push(s);
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const s of accepted) s.destroy();
    await new Promise((r) => server.close(r));
  });

  const connect = (policy: GuardPolicy, addresses: string[]) =>
    new Promise<{ err: Error | null; socket: Socket | null; info: ConnectionInfo }>((resolve) => {
      const info: ConnectionInfo = { fresh: false, connectMs: null, tlsMs: null, alpn: null };
      const connector = guardedConnector(
        { host: 'site.test', addresses, dnsMs: 0 },
        policy,
        info,
        new AbortController().signal,
      );
      connector({ hostname: 'site.test', protocol: 'http:', port: String(port) }, (err, socket) =>
        resolve({ err, socket, info }),
      );
    });
  const lookup = async () => [];

  test('the connected address is checked again after the TCP connect', async () => {
    const asked: string[] = [];
    // allowed before connecting, refused when the connected socket's address is checked
    const classify = (ip: string) => {
      asked.push(ip);
      return asked.length >= 2 ? 'a test-refused address' : null;
    };
    const before = accepted.length;
    const { err, socket } = await connect({ allowPrivateHosts: false, classify, lookup }, ['127.0.0.1']);
    assert.equal(socket, null);
    assert.ok(err instanceof FetchError);
    assert.equal(err.code, 'blocked_address');
    assert.equal(
      err.message,
      'The host site.test resolves to 127.0.0.1, a test-refused address; Pagegrade does not fetch private or reserved addresses. For intranet use, set PAGEGRADE_ALLOW_PRIVATE_HOSTS=1 where Pagegrade runs.',
    );
    assert.deepEqual(asked, ['127.0.0.1', '127.0.0.1']);
    await new Promise((r) => setTimeout(r, 50));
    // at most the TCP handshake happened: not one byte was sent over it
    assert.ok(accepted.length <= before + 1);
    assert.ok(accepted.slice(before).every((s) => s.bytesRead === 0));
  });

  test('a refused address is never connected to; the next allowed one is not tried either', async () => {
    const before = accepted.length;
    const classify = (ip: string) => (ip === '127.0.0.1' ? 'a loopback address' : null);
    const { err } = await connect({ allowPrivateHosts: false, classify, lookup }, ['127.0.0.1']);
    assert.ok(err instanceof FetchError && err.code === 'blocked_address');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(accepted.length, before, 'no TCP connection was made');
  });

  test('falls back to the next address when one refuses the connection; records connect time', async () => {
    const classify = () => null;
    // 127.0.0.2 has no listener on this port (connection refused), 127.0.0.1 does
    const { err, socket, info } = await connect({ allowPrivateHosts: false, classify, lookup }, [
      '127.0.0.2',
      '127.0.0.1',
    ]);
    assert.equal(err, null);
    assert.equal(socket?.remoteAddress, '127.0.0.1');
    assert.equal(info.fresh, true);
    assert.ok(info.connectMs !== null && info.connectMs >= 0);
    assert.equal(info.tlsMs, null);
    socket?.destroy();
  });
});

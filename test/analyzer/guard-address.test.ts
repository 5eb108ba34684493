// The address guard: the table of refused and allowed forms, numeric host normalisation, and
// fetches that must be refused before any connection (the fixture server sees no request).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyAddress, fetchPage, normalizeHost } from '../../src/analyzer/fetch/index.js';
import { FetchError } from '../../src/analyzer/types.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

// [address, expected: null = allowed, or a substring of the refusal]
const TABLE: [string, string | null][] = [
  // IPv4 special-purpose
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.0.0.9', 'IETF protocol'],
  ['192.88.99.1', '6to4 relay'],
  ['192.31.196.1', 'AS112'],
  // IPv6 special-purpose
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['100::1', 'discard'],
  ['5f00::1', 'SRv6'],
  ['fec0::1', 'site-local'],
  ['4000::1', 'outside IPv6 global unicast'],
  ['2001:2::1', 'IETF protocol'],
  // IPv4 hidden in IPv6
  ['::ffff:127.0.0.1', 'IPv4-mapped IPv6 address embedding 127.0.0.1, a loopback'],
  ['::ffff:7f00:1', 'embedding 127.0.0.1'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::127.0.0.1', 'IPv4-compatible'],
  ['::8.8.8.8', 'IPv4-compatible'],
  ['64:ff9b::127.0.0.1', 'NAT64 address embedding 127.0.0.1'],
  ['64:ff9b::a00:1', 'NAT64 address embedding 10.0.0.1, a private'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002:7f00:1::1', '6to4 address embedding 127.0.0.1'],
  ['2002:808:808::1', '6to4 address embedding 8.8.8.8'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo address embedding 192.0.2.45'],
  // allowed
  ['8.8.8.8', null],
  ['1.1.1.1', null],
  ['93.184.216.34', null],
  ['172.32.0.1', null],
  ['172.15.255.255', null],
  ['100.128.0.1', null],
  ['100.63.255.255', null],
  ['192.169.0.1', null],
  ['11.0.0.1', null],
  ['223.255.255.255', null],
  ['2606:4700:4700::1111', null],
  ['2001:4860:4860::8888', null],
  ['2a00:1450:4001::1', null],
  ['2001:200::1', null],
  ['::ffff:8.8.8.8', null],
  ['64:ff9b::808:808', null],
  // not addresses at all
  ['example.com', 'not a valid IP address'],
  ['', 'not a valid IP address'],
];

describe('classifyAddress', () => {
  for (const [ip, expected] of TABLE) {
    test(`${ip || '(empty)'} → ${expected ?? 'allowed'}`, () => {
      const got = classifyAddress(ip);
      if (expected === null) assert.equal(got, null);
      else {
        assert.notEqual(got, null, `${ip} should be refused`);
        assert.ok(got!.includes(expected), `${ip}: "${got}" should mention "${expected}"`);
      }
    });
  }
  test('the table covers at least 30 forms', () => assert.ok(TABLE.length >= 30));
});

// URL host forms: WHATWG URL normalises the numeric forms; normalizeHost relies on it.
const HOSTS: [string, string, 0 | 4 | 6, boolean][] = [
  // [input host, normalised, family, refused]
  ['2130706433', '127.0.0.1', 4, true],
  ['0177.0.0.1', '127.0.0.1', 4, true],
  ['0x7f.1', '127.0.0.1', 4, true],
  ['127.1', '127.0.0.1', 4, true],
  ['0x7f000001', '127.0.0.1', 4, true],
  ['017700000001', '127.0.0.1', 4, true],
  ['10.1', '10.0.0.1', 4, true],
  ['192.168.257', '192.168.1.1', 4, true],
  ['3232235777', '192.168.1.1', 4, true],
  ['0x8.8.8.8', '8.8.8.8', 4, false],
  ['[::ffff:127.0.0.1]', '::ffff:7f00:1', 6, true],
  ['[0:0:0:0:0:0:0:1]', '::1', 6, true],
  ['::1', '::1', 6, true],
  ['[2606:4700:4700:0:0:0:0:1111]', '2606:4700:4700::1111', 6, false],
  ['LOCALHOST.', 'localhost', 0, false],
  ['Example.COM', 'example.com', 0, false],
];

describe('normalizeHost', () => {
  for (const [input, host, family, refused] of HOSTS) {
    test(`${input} → ${host}`, () => {
      const n = normalizeHost(input);
      assert.deepEqual(n, { host, family });
      if (family !== 0) assert.equal(classifyAddress(host) !== null, refused);
    });
  }
  test('invalid hosts', () => {
    assert.equal(normalizeHost(''), null);
    assert.equal(normalizeHost('1.2.3.4.5'), null);
    assert.equal(normalizeHost('exa mple.com'), null);
  });
});

describe('fetchPage refuses before connecting', () => {
  let site: FixtureServer;
  before(async () => {
    site = await startFixtureServer();
  });
  after(() => site.close());

  const expectBlocked = async (url: string, options: Parameters<typeof fetchPage>[1], pattern: RegExp) => {
    const before = site.requests.length;
    await assert.rejects(fetchPage(url, options), (err: unknown) => {
      assert.ok(err instanceof FetchError);
      assert.equal(err.code, 'blocked_address');
      assert.match(err.message, pattern);
      assert.match(err.message, /Pagegrade does not fetch private or reserved addresses\. For intranet use, set PAGEGRADE_ALLOW_PRIVATE_HOSTS=1 where Pagegrade runs\.$/);
      return true;
    });
    assert.equal(site.requests.length, before, 'the fixture server saw a request');
  };

  test('numeric host forms of 127.0.0.1 in URLs', async () => {
    for (const h of ['127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.1', '127.1', '[::ffff:127.0.0.1]']) {
      await expectBlocked(`http://${h}:${site.port}/`, {}, /loopback/);
    }
  });

  test('localhost, through the system resolver (/etc/hosts), is refused', async () => {
    await expectBlocked(
      `http://localhost:${site.port}/`,
      {},
      /^The host localhost resolves to (127\.0\.0\.1|::1), a loopback address;/,
    );
  });

  test('[::1] is refused', async () => {
    await expectBlocked(`http://[::1]:${site.port}/`, {}, /The address ::1 is a loopback address/);
  });

  test('a hostname that resolves to a private address', async () => {
    await expectBlocked(
      `http://intranet.example:${site.port}/`,
      { lookup: async () => [{ address: '127.0.0.1', family: 4 }] },
      /^The host intranet\.example resolves to 127\.0\.0\.1, a loopback address;/,
    );
    await expectBlocked(
      `http://rebind.example:${site.port}/`,
      { lookup: async () => [{ address: '10.0.0.7', family: 4 }] },
      /resolves to 10\.0\.0\.7, a private address/,
    );
  });

  test('one private answer among public ones refuses the host', async () => {
    await expectBlocked(
      `http://mixed.example:${site.port}/`,
      {
        lookup: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '::ffff:192.168.0.1', family: 6 },
        ],
      },
      /resolves to ::ffff:192\.168\.0\.1, an IPv4-mapped IPv6 address embedding 192\.168\.0\.1, a private address/,
    );
  });

  test('only http and https', async () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      await assert.rejects(
        fetchPage(url),
        (err: unknown) => err instanceof FetchError && err.code === 'invalid_url',
      );
    }
  });

  test('a redirect from an allowed host to a refused one is refused', async (t) => {
    // Test seam: "public.test" resolves to 127.0.0.1 and classifyAddress treats exactly
    // 127.0.0.1 as public; every other address keeps the real rules (guard on).
    const seam = {
      lookup: async (h: string) => [{ address: h === 'public.test' ? '127.0.0.1' : '10.1.2.3', family: 4 }],
      classifyAddress: (ip: string) => (ip === '127.0.0.1' ? null : classifyAddress(ip)),
    };
    site.route('/ok', html(goodPage(`http://public.test:${site.port}`)));
    site.route('/to-loopback', { status: 302, headers: { location: `http://127.0.0.2:${site.port}/ok` } });
    site.route('/to-intranet', {
      status: 301,
      headers: { location: `http://intranet.test:${site.port}/ok` },
    });
    site.route('/to-decimal', { status: 307, headers: { location: `http://2130706434:${site.port}/ok` } });

    // the seam lets the allowed host through…
    const ok = await fetchPage(`http://public.test:${site.port}/ok`, seam);
    assert.equal(ok.status, 200);

    for (const [path, pattern] of [
      ['/to-loopback', /The address 127\.0\.0\.2 is a loopback address/],
      ['/to-intranet', /The host intranet\.test resolves to 10\.1\.2\.3, a private address/],
      ['/to-decimal', /The address 127\.0\.0\.2 is a loopback address/],
    ] as const) {
      await t.test(path, async () => {
        const before = site.requests.length;
        await assert.rejects(fetchPage(`http://public.test:${site.port}${path}`, seam), (err: unknown) => {
          assert.ok(err instanceof FetchError);
          assert.equal(err.code, 'blocked_address');
          assert.match(err.message, pattern);
          return true;
        });
        // the redirect was requested; its refused target (/ok) never was (site files for
        // public.test may have started alongside, and are dropped)
        const seen = site.requests.slice(before);
        assert.ok(seen.includes(path));
        assert.ok(!seen.includes('/ok'), `requests: ${seen.join(' ')}`);
      });
    }
  });

  test('allowPrivateHosts lets loopback through', async () => {
    site.route('/page', html(goodPage(site.origin)));
    const snap = await fetchPage(`${site.origin}/page`, { allowPrivateHosts: true });
    assert.equal(snap.status, 200);
  });
});

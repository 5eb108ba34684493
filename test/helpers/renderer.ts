// A Renderer (src/render/browser.ts) for tests: Debian's Chromium, the test DNS (`*.test` and
// localhost are 127.0.0.1) and the guard off as in testServicesConfig (allowPrivateHosts), a
// short budget. Tests that exercise the guard build their own with the guard on.
import { Renderer, type RendererOptions } from '../../src/render/browser.js';
import { CHROMIUM } from './chromium.js';
import { testLookup } from './config.js';

export function testRenderer(overrides: Partial<RendererOptions> = {}): Renderer {
  return new Renderer({
    executablePath: CHROMIUM,
    concurrency: 2,
    timeoutMs: 20_000,
    maxRequests: 100,
    maxBytes: 10_000_000,
    network: { allowPrivateHosts: true, allowHosts: [], lookup: testLookup },
    userAgent: 'Pagegrade-test',
    idleCapMs: 1000,
    ...overrides,
  });
}

// Chromium and its flags: how the shared headless browser is launched (playwright-core on
// Debian's /usr/bin/chromium), and the in-process proxy sink it is pointed at — the browser has
// no network of its own: every request is intercepted (visit.ts) and anything that escapes
// interception (preconnects, workers) reaches the sink, which accepts and closes every
// connection, loopback NOT bypassed (`<-loopback>`). Decisions: docs/rendering.md.
import { createRequire } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import type * as PlaywrightCore from 'playwright-core';

const requirePackage = createRequire(import.meta.url);

/** How Chromium is started on a server (no sandbox, no GPU, no background traffic of its own):
 * the renderer's base, and what bench/render.ts gives Lighthouse's Chromium for a fair match. */
export const HEADLESS_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const CHROMIUM_ARGS = [
  ...HEADLESS_ARGS,
  '--dns-prefetch-disable',
  `--disable-features=${[
    // Chromium keeps only the last --disable-features, and playwright-core passes its own list
    // before ours: that list is repeated here (playwright-core 1.65), or ours would switch its
    // entries back on (the network time query and optimization hints then reached the sink)
    'AvoidUnnecessaryBeforeUnloadCheckSync',
    'DestroyProfileOnBrowserClose',
    'HttpsUpgrades',
    'HttpsFirstBalancedModeAutoEnable',
    'LensOverlay',
    'MediaRouter',
    'PaintHolding',
    'ThirdPartyStoragePartitioning',
    'AvoidCorsURLLoaderRestartOnRedirect',
    'OptimizationHints',
    'NetworkTimeServiceQuerying',
    'AimEnabled',
    'PreconnectToSearch',
    'TcpPortRandomizationWin',
    'msForceBrowserSignIn',
    'msEdgeUpdateLaunchServicesPreferredVersion',
    // ours
    'NetworkPrediction',
    'InterestFeedContentSuggestions',
  ].join(',')}`,
];

/** How long a launch may take before it fails (a page's render budget starts after it). */
export const LAUNCH_TIMEOUT_MS = 60_000;

/** Launches Chromium with its flags, its traffic sent to the proxy sink on `proxyPort`. */
export async function launchChromium(executablePath: string, proxyPort: number): Promise<Browser> {
  // required, not import()ed: a CommonJS package, and the bundled CLI runs as CommonJS
  // compiled by vm.Script, where a dynamic import() has no loader (scripts/build.mjs)
  const { chromium } = requirePackage('playwright-core') as typeof PlaywrightCore;
  return chromium.launch({
    executablePath,
    timeout: LAUNCH_TIMEOUT_MS,
    args: [
      ...CHROMIUM_ARGS,
      `--proxy-server=http://127.0.0.1:${proxyPort}`,
      // no implicit bypass for localhost/loopback: everything goes to the sink
      '--proxy-bypass-list=<-loopback>',
    ],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** The proxy Chromium is given: it forwards nothing, and records what reached it. */
export class ProxySink {
  private server: Server | null = null;
  private port = 0;
  private readonly sockets = new Set<Socket>();
  /** connections that reached the sink proxy (anything that escaped interception) */
  connections = 0;
  /** the first line of what each of them asked for (preconnects ask nothing) */
  readonly requests: string[] = [];

  /** Listens on a loopback port (once) and returns it. */
  async start(): Promise<number> {
    if (this.server) return this.port;
    const sink = createServer((socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
      // the first line (CONNECT host:port / GET url) names what escaped; nothing is ever forwarded
      socket.once('data', (chunk: Buffer) => {
        if (this.requests.length < 100) this.requests.push(chunk.toString('latin1').split('\r\n')[0]!);
        socket.destroy();
      });
      socket.setTimeout(1000, () => socket.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      sink.once('error', reject);
      sink.listen(0, '127.0.0.1', resolve);
    });
    sink.unref();
    this.server = sink;
    this.port = (sink.address() as { port: number }).port;
    return this.port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = null;
  }
}

/** Closes a browser context, or gives up waiting after `ms`. */
export async function closeWithin(context: BrowserContext, ms: number): Promise<void> {
  await Promise.race([context.close().catch(() => undefined), sleep(ms)]);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

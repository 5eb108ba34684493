// The renderer as the server, the worker and the CLI build it from the configuration. Nothing
// starts until the first rendered audit (Chromium is launched then, and kept warm).
import { DEFAULT_USER_AGENT } from '../analyzer/fetch/index.js';
import type { Config } from '../config.js';
import { Renderer } from './browser.js';

export { Renderer, chromiumProcesses, descendants } from './browser.js';
export { INSTALL_HINT } from './hint.js';

export function rendererFromConfig(
  config: Pick<
    Config,
    | 'chromiumPath'
    | 'renderConcurrency'
    | 'renderTimeoutMs'
    | 'renderMaxRequests'
    | 'renderMaxBytes'
    | 'allowPrivateHosts'
    | 'allowHosts'
    | 'userAgent'
  >,
): Renderer {
  return new Renderer({
    executablePath: config.chromiumPath,
    concurrency: config.renderConcurrency,
    timeoutMs: config.renderTimeoutMs,
    maxRequests: config.renderMaxRequests,
    maxBytes: config.renderMaxBytes,
    network: { allowPrivateHosts: config.allowPrivateHosts, allowHosts: config.allowHosts },
    userAgent: config.userAgent ?? DEFAULT_USER_AGENT,
  });
}

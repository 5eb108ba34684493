// A cookie jar over app.inject: requests act like one browser (sessions, CSRF tokens), for
// tests of the web pages without a real browser.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';

export class Browser {
  readonly cookies = new Map<string, { value: string; path: string }>();
  constructor(
    private readonly app: App,
    readonly ip = '127.0.0.1',
  ) {}

  cookieHeader(url: string): string {
    const path = url.split('?')[0]!;
    return [...this.cookies]
      .filter(
        ([, c]) =>
          path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/',
      )
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
  }

  async request(opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    const cookie = this.cookieHeader(opts.url);
    const res = await this.app.inject({
      remoteAddress: this.ip,
      ...opts,
      headers: { ...(cookie ? { cookie } : {}), ...(opts.headers ?? {}) },
    });
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
    return res;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  /** GETs `url` and returns the CSRF token of its first form. */
  async csrf(url: string): Promise<string> {
    const res = await this.get(url);
    const m = /name="_csrf" value="([^"]+)"/.exec(res.body);
    if (!m) throw new Error(`no CSRF token on ${url} (${res.statusCode})`);
    return m[1]!;
  }

  async login(key: string): Promise<LightMyRequestResponse> {
    const token = await this.csrf('/login');
    return this.post('/login', { _csrf: token, key, next: '/dashboard' });
  }
}

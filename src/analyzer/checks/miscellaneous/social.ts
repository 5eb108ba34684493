import type { CheckDefinition } from '../types.js';
import { stripWww } from '../../url.js';

/** host (without www.) → network name */
const NETWORKS = new Map<string, string>(
  Object.entries({
    'facebook.com': 'Facebook',
    'fb.com': 'Facebook',
    'twitter.com': 'X (Twitter)',
    'x.com': 'X (Twitter)',
    'instagram.com': 'Instagram',
    'linkedin.com': 'LinkedIn',
    'youtube.com': 'YouTube',
    'youtu.be': 'YouTube',
    'pinterest.com': 'Pinterest',
    'tiktok.com': 'TikTok',
    'threads.net': 'Threads',
    'threads.com': 'Threads',
    'bsky.app': 'Bluesky',
    'mastodon.social': 'Mastodon',
    'reddit.com': 'Reddit',
    'tumblr.com': 'Tumblr',
    'vk.com': 'VK',
    'weibo.com': 'Weibo',
    't.me': 'Telegram',
    'wa.me': 'WhatsApp',
    'discord.gg': 'Discord',
    'snapchat.com': 'Snapchat',
    'github.com': 'GitHub',
    'xing.com': 'XING',
  }),
);

/** The host of a resolved (normalised) http(s) URL, by string: no URL parsing per link. */
function hostOf(url: string): string | null {
  const start = url.indexOf('//');
  if (start === -1) return null;
  let end = start + 2;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 47 || c === 63 || c === 35) break; // / ? #
    end++;
  }
  let host = url.slice(start + 2, end);
  const at = host.lastIndexOf('@');
  if (at !== -1) host = host.slice(at + 1);
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && host.indexOf(']') < colon) host = host.slice(0, colon);
  return host;
}

function networkOfHost(hostname: string): string | null {
  let host = stripWww(hostname);
  if (host === hostname && (host.startsWith('m.') || host.startsWith('mobile.')))
    host = host.slice(host.indexOf('.') + 1);
  const direct = NETWORKS.get(host);
  if (direct) return direct;
  // country and regional subdomains: de.linkedin.com
  const last = host.lastIndexOf('.');
  const second = last > 0 ? host.lastIndexOf('.', last - 1) : -1;
  return second > 0 ? (NETWORKS.get(host.slice(second + 1)) ?? null) : null;
}

const check: CheckDefinition = {
  id: 'social',
  category: 'miscellaneous',
  priority: 'low',
  title: 'The page links to social networks',
  failTitle: 'The page has no links to social networks',
  howToFix:
    "Link to the site's profiles on the social networks its audience uses (usually in the header or footer).",
  failsWhen:
    'no link to Facebook, X/Twitter, Instagram, LinkedIn, YouTube, Pinterest, TikTok, Threads, Bluesky, Mastodon, Reddit, Tumblr, VK, Weibo, Telegram, WhatsApp, Discord, Snapchat, GitHub or XING',
  needsContent: true,
  run(a) {
    const found = new Set<string>();
    const byHost = new Map<string, string | null>();
    for (const x of a.anchors) {
      if (x.internal !== false || x.url === null) continue;
      const host = hostOf(x.url);
      if (host === null) continue;
      let n = byHost.get(host);
      if (n === undefined) {
        n = networkOfHost(host);
        byHost.set(host, n);
      }
      if (n !== null) found.add(n);
    }
    if (found.size === 0)
      return { passed: false, message: 'The page links to no social network profiles.', value: [] };
    const list = [...found];
    return { passed: true, message: `The page links to ${list.join(', ')}.`, value: list };
  },
};

export default check;

// A throwaway self-signed certificate for https fixture servers, made with the system's openssl;
// a string (the reason, for t.skip) where openssl cannot make one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `altName`: the certificate's subjectAltName, e.g. `DNS:site.test` or `IP:127.0.0.1`. */
export function makeCert(altName: string): { key: Buffer; cert: Buffer } | string {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        `/CN=${altName.split(':')[1]}`,
        '-addext',
        `subjectAltName=${altName}`,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } catch (err) {
    return `openssl could not make a test certificate (${String(err)})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

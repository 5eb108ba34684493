// The PDF branding through the API, over every dialect: GET (empty until set), PUT (JSON and
// form; fields left out stay, '' and null clear), DELETE; validation names the field and what
// it allows (a bad colour: the #rrggbb format; a logo over 256 KB: the limit and its size; a
// GIF or text: the types allowed; a type that lies about its data); a read-only key may read
// but not write, a project-limited key neither; one user never sees another's branding. The
// repository on both dialects directly too. Every response is checked against the OpenAPI
// document (harness.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  findBranding,
  saveBranding,
  deleteBranding,
  findBrandingsOfReport,
} from '../../src/store/branding.repository.js';
import { buildReport } from '../helpers/factories.js';
import { forEachDialect, withBody } from '../helpers/api-harness.js';

/** A 1×1 PNG (70 bytes). */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0f766e"/></svg>',
).toString('base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64').toString(
  'base64',
);

interface BrandingJson {
  name: string | null;
  accent_color: string | null;
  contact: string | null;
  prepared_for: string | null;
  logo: { type: string; bytes: number; data_url: string } | null;
  updated_at: string | null;
}

forEachDialect('branding API', (h) => {
  const url = '/api/v1/account/branding';
  const get = async (auth = h().alice.auth) => {
    const res = await h().request({ method: 'GET', url, headers: auth });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: BrandingJson }).data;
  };

  test('GET is empty until set; PUT sets, GET reads it back; fields left out stay', async () => {
    assert.deepEqual(await get(), {
      name: null,
      accent_color: null,
      contact: null,
      prepared_for: null,
      logo: null,
      updated_at: null,
    });
    let res = await h().request(
      withBody(
        'PUT',
        url,
        h().alice.auth,
        {
          name: '  Acme Web Agency ',
          accent_color: '#0F766E',
          contact: 'audits@acme.example',
          prepared_for: 'Example Ltd',
          logo: `data:image/png;base64,${PNG_1X1}`,
        },
        'json',
      ),
    );
    assert.equal(res.statusCode, 200, res.body);
    const put = (res.json() as { data: BrandingJson }).data;
    assert.equal(put.name, 'Acme Web Agency');
    assert.equal(put.accent_color, '#0f766e');
    assert.deepEqual(put.logo, {
      type: 'image/png',
      bytes: 70,
      data_url: `data:image/png;base64,${PNG_1X1}`,
    });
    assert.ok(put.updated_at);
    assert.deepEqual(await get(), put);

    // form-encoded, one field: the others stay; bare base64 SVG is read as SVG
    res = await h().request(
      withBody('PUT', url, h().alice.auth, { contact: 'hello@acme.example', logo: SVG }),
    );
    assert.equal(res.statusCode, 200, res.body);
    const after = await get();
    assert.equal(after.contact, 'hello@acme.example');
    assert.equal(after.name, 'Acme Web Agency');
    assert.equal(after.logo?.type, 'image/svg+xml');
    assert.ok(after.logo?.data_url.startsWith('data:image/svg+xml;base64,'));
  });

  test('null and empty strings clear single fields; DELETE clears all', async () => {
    let res = await h().request(
      withBody('PUT', url, h().alice.auth, { prepared_for: null, logo: null }, 'json'),
    );
    assert.equal(res.statusCode, 200, res.body);
    let b = await get();
    assert.equal(b.prepared_for, null);
    assert.equal(b.logo, null);
    assert.equal(b.name, 'Acme Web Agency');
    res = await h().request(withBody('PUT', url, h().alice.auth, { name: '' }));
    assert.equal(res.statusCode, 200, res.body);
    b = await get();
    assert.equal(b.name, null);
    res = await h().request({ method: 'DELETE', url, headers: h().alice.auth });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { object: 'branding', deleted: true });
    assert.equal((await get()).updated_at, null);
  });

  test('validation: each bad field is named with what it allows; nothing is saved', async () => {
    const bad = async (fields: Record<string, string>, field: string, pattern: RegExp) => {
      const res = await h().request(withBody('PUT', url, h().alice.auth, fields, 'json'));
      assert.equal(res.statusCode, 422, res.body);
      const body = res.json() as { message: string; errors: Record<string, string[]> };
      assert.match(body.errors[field]?.[0] ?? '', pattern, JSON.stringify(body));
      return body;
    };
    await bad({ accent_color: 'teal' }, 'accent_color', /accent_color.*#rrggbb/);
    await bad({ accent_color: '#12345' }, 'accent_color', /#rrggbb/);
    const big = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(300 * 1024)]).toString('base64');
    await bad({ logo: `data:image/png;base64,${big}` }, 'logo', /at most 256 KB; this one is 301 KB/);
    await bad(
      { logo: `data:image/gif;base64,${GIF}` },
      'logo',
      /PNG, JPEG or SVG.*image\/gif is not one of them/,
    );
    await bad({ logo: GIF }, 'logo', /PNG, JPEG or SVG/);
    await bad({ logo: 'not base64 at all!' }, 'logo', /PNG, JPEG or SVG/);
    await bad(
      { logo: `data:image/jpeg;base64,${PNG_1X1}` },
      'logo',
      /said to be image\/jpeg, but its data is image\/png/,
    );
    await bad({ logo: 'data:image/svg+xml,<svg></svg>' }, 'logo', /base64/);
    await bad({ name: 'x'.repeat(101) }, 'name', /name must not be longer than 100 characters/);
    const both = await bad({ accent_color: 'red', contact: 'y'.repeat(201) }, 'contact', /200 characters/);
    assert.ok(both.errors.accent_color);
    assert.equal((await get()).updated_at, null, 'nothing saved');
  });

  test('keys: read-only reads, cannot write; project-limited gets 403; users are apart', async () => {
    const ro = await h().services.keys.create(h().alice.id, { scope: 'read' });
    const roAuth = { authorization: `Bearer ${ro.key}` };
    await get(roAuth);
    let res = await h().request(withBody('PUT', url, roAuth, { name: 'x' }, 'json'));
    assert.equal(res.statusCode, 403, res.body);
    const limited = await h().services.keys.create(h().alice.id, { projects: ['example.com'] });
    res = await h().request({ method: 'GET', url, headers: { authorization: `Bearer ${limited.key}` } });
    assert.equal(res.statusCode, 403, res.body);
    res = await h().request(withBody('PUT', url, h().bob.auth, { name: 'Bob & Co' }, 'json'));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await get()).name, null, "alice does not get bob's");
    assert.equal((await get(h().bob.auth)).name, 'Bob & Co');
    res = await h().request({ method: 'GET', url });
    assert.equal(res.statusCode, 401);
  });

  test('the repository: save, replace, read by report owner, delete', async () => {
    const db = h().database.db;
    const userId = h().bob.id;
    await saveBranding(
      db,
      userId,
      {
        name: 'B',
        accentColor: '#000000',
        contact: null,
        preparedFor: 'P',
        logoType: 'image/png',
        logoData: PNG_1X1,
      },
      '2026-11-27T01:00:00.000Z',
    );
    await saveBranding(
      db,
      userId,
      { name: 'B2', accentColor: null, contact: 'c', preparedFor: null, logoType: null, logoData: null },
      '2026-11-27T02:00:00.000Z',
    );
    const row = await findBranding(db, userId);
    assert.deepEqual(row, {
      userId,
      name: 'B2',
      accentColor: null,
      contact: 'c',
      preparedFor: null,
      logoType: null,
      logoData: null,
      updatedAt: '2026-11-27T02:00:00.000Z',
    });
    const report = await buildReport(h().services, { id: userId });
    assert.equal((await findBrandingsOfReport(db, report.id)).org?.name, 'B2');
    assert.equal((await findBrandingsOfReport(db, report.id)).project, null);
    assert.deepEqual(await findBrandingsOfReport(db, 2_000_000_000), { org: null, project: null });
    assert.equal(await deleteBranding(db, userId), true);
    assert.equal(await deleteBranding(db, userId), false);
    assert.equal(await findBranding(db, userId), null);
  });
});

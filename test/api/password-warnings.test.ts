// A password sent without privacy 2 is ignored as the SPEC says, and the answer says so in
// `warnings` (issue 13 item 3) — store and update, over every dialect, checked against the
// served OpenAPI document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { forEachDialect, withBody } from '../helpers/api-harness.js';

interface Answer {
  data: { id: number; privacy: number; has_password: boolean };
  warnings?: { code: string; field: string; message: string }[];
}

forEachDialect('password warnings', (h) => {
  test('store: a password without privacy 2 is not applied, and the answer warns', async () => {
    const res = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, {
        url: `${h().site('warn')}/`,
        password: 's3cret',
      }),
    );
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as Answer;
    assert.equal(body.data.privacy, 0);
    assert.equal(body.data.has_password, false, 'stored as the SPEC says: public, no password');
    assert.deepEqual(
      body.warnings?.map((w) => [w.code, w.field]),
      [['password_ignored', 'password']],
    );
    assert.match(body.warnings![0]!.message, /privacy is 2/);

    // privacy 1 with a password: the same
    const priv = await h().request(
      withBody(
        'POST',
        '/api/v1/reports',
        h().alice.auth,
        { url: `${h().site('warn')}/`, privacy: 1, password: 'x' },
        'json',
      ),
    );
    assert.equal(priv.statusCode, 201);
    assert.equal((priv.json() as Answer).warnings?.[0]?.code, 'password_ignored');

    // nothing to warn about: no password, or privacy 2 with one
    const plain = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('warn')}/` }),
    );
    assert.equal((plain.json() as Answer).warnings, undefined);
    const protectedOne = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, {
        url: `${h().site('warn')}/`,
        privacy: 2,
        password: 'pw',
      }),
    );
    assert.equal(protectedOne.statusCode, 201);
    assert.equal((protectedOne.json() as Answer).warnings, undefined);
    assert.equal((protectedOne.json() as Answer).data.has_password, true);

    // update: a password on a public report (no privacy given) is ignored and warned about
    const id = (plain.json() as Answer).data.id;
    const upd = await h().request(
      withBody('PATCH', `/api/v1/reports/${id}`, h().alice.auth, { password: 'later' }),
    );
    assert.equal(upd.statusCode, 200, upd.body);
    assert.equal((upd.json() as Answer).data.has_password, false);
    assert.equal((upd.json() as Answer).warnings?.[0]?.code, 'password_ignored');
    const setPw = await h().request(
      withBody('PATCH', `/api/v1/reports/${id}`, h().alice.auth, { privacy: 2, password: 'now' }),
    );
    assert.equal((setPw.json() as Answer).warnings, undefined);

    assert.ok((await checkAgainstOpenApi(h())) >= 6, 'the answers match the documented schemas');
  });

  test('the OpenAPI document describes warnings on store and update', async () => {
    const doc = (await h().app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
      >;
    };
    const text = JSON.stringify([
      doc.paths['/api/v1/reports']!.post!.responses['201'],
      doc.paths['/api/v1/reports/{id}']!.patch!.responses['200'],
    ]);
    assert.equal((text.match(/password_ignored/g) ?? []).length >= 2, true, 'an example on each');
    assert.match(text, /"warnings"/);
  });
});

// The layer map's rules (scripts/layers.cjs): no arrow back up, no arrow between rooms of one
// floor, no circle, no test code in src, and a service feature reaches another feature only
// through its face (types.ts, <feature>.service.ts). Run by test/architecture.test.ts.
'use strict';
const { LAYERS, pathPattern } = require('./scripts/layers.cjs');

const climbs = LAYERS.map((from) => {
  const above = LAYERS.filter((to) => to.floor > from.floor || (to.floor === from.floor && to.room !== from.room));
  return {
    name: `no-climb-from-${from.room}`,
    comment: `${from.room} (floor ${from.floor}) imports only its own room and lower floors`,
    severity: 'error',
    from: { path: pathPattern(from.paths) },
    to: { path: above.length ? pathPattern(above.flatMap((r) => r.paths)) : '^$' },
  };
});

module.exports = {
  forbidden: [
    ...climbs,
    {
      name: 'no-circular',
      comment: 'no two files import each other, directly or around a circle',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-src',
      comment: 'src never imports the tests or their helpers',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
    {
      name: 'feature-faces',
      comment: 'a service feature reaches another one only through its face: types.ts or its service',
      severity: 'error',
      from: { path: '^src/services/([^/]+)/' },
      to: {
        path: '^src/services/([^/]+)/',
        pathNot: ['^src/services/$1/', '^src/services/(shared|audit|access)/', '^src/services/[^/]+/(types|[a-z-]+\\.service)\\.ts$'],
      },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
  },
};

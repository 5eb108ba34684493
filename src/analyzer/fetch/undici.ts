// undici's Client and Pool, loaded from their own modules rather than the package's index: the
// index loads all of undici (fetch, WebSocket, caches, mocks: 110 modules, the largest part of a
// CLI audit's start), and the fetcher needs these two and the request API. What the index does
// for them is done here too: the request/stream/pipeline/connect/upgrade methods are put on
// Dispatcher.prototype (the same assignment, harmless when the index has run as well).
// undici has no `exports` map, so the paths are public; test/analyzer/undici-deep.test.ts fails
// if an upgrade moves them, in a process that never loads the index.
import type { Client as ClientType, Pool as PoolType } from 'undici';
import api from 'undici/lib/api/index.js';
import ClientModule from 'undici/lib/dispatcher/client.js';
import DispatcherModule from 'undici/lib/dispatcher/dispatcher.js';
import PoolModule from 'undici/lib/dispatcher/pool.js';

Object.assign(DispatcherModule.prototype, api);

export const Client: typeof ClientType = ClientModule;
export const Pool: typeof PoolType = PoolModule;
export type Client = ClientType;
export type Pool = PoolType;

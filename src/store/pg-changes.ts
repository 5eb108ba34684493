// Live changes between processes on PostgreSQL's LISTEN/NOTIFY, for deployments on PostgreSQL
// without Redis whose workers run in other processes (`pagegrade worker`): the same bus as
// src/store/redis.ts createChangeBus (src/services/shared/changes.ts), with the database as the
// wire. A worker NOTIFYs that a batch moved (through the pool: one short statement), the process
// serving its events stream LISTENs on a connection of its own and hears it.
//
// NOTIFY is scoped to the database, so deployments (and test databases) sharing one server never
// hear each other. The LISTEN connection reconnects with a growing delay when it drops (a server
// restart, pg_terminate_backend, a network cut); once it is back every topic followed here is
// woken once, since a change may have been missed meanwhile (a message is a hint to look again,
// never the data: a lost one costs only the events stream's 2 s fallback).
import { createRequire } from 'node:module';
import type PgModule from 'pg';
import { sql } from 'kysely';
import type { Db } from './database.js';
import { KEYS_TOPIC, type KeyChangeWatch } from './key-changes.js';

/** The NOTIFY channel of live changes (an identifier: letters and underscores only). */
export const PG_CHANGES_CHANNEL = 'pagegrade_changes';
/** The LISTEN connection's application_name (pg_stat_activity shows it). */
export const PG_CHANGES_APPLICATION = 'pagegrade changes';
/** Reconnection delays: the first, doubled each failure up to the last. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** A NOTIFY payload is at most 8000 bytes; a topic is a few dozen (`batch:123`). */
const MAX_TOPIC_BYTES = 7_999;

export interface PgChangeBus {
  publish(topic: string): void;
  subscribe(topic: string, onChange: () => void): () => void;
  /** resolves once the LISTEN connection is listening (the first time); tests and boot wait on it */
  ready(): Promise<void>;
  /**
   * true while the LISTEN connection is up and listening: what the database notifies is heard.
   * False before the first connection, from a drop until the reconnection, and once closed.
   */
  listening(): boolean;
  close(): Promise<void>;
}

// pg is loaded only here and in database.ts's createDb, both for a PostgreSQL URL
const loadPg = (): typeof PgModule => createRequire(import.meta.url)('pg') as typeof PgModule;

/**
 * The bus over `databaseUrl`'s LISTEN/NOTIFY. `db` (that database's pool) sends the NOTIFYs;
 * the LISTEN connection is a client of its own (a pooled one would be handed to others). A
 * change is also heard in this process at once, whether the database delivers it or not.
 */
export function createPgChangeBus(databaseUrl: string, db: Db): PgChangeBus {
  const { Client } = loadPg();
  const listeners = new Map<string, Set<() => void>>();
  const hear = (topic: string) => {
    for (const l of [...(listeners.get(topic) ?? [])]) l();
  };
  let client: PgModule.Client | null = null;
  let listening = false;
  let closed = false;
  let everConnected = false;
  let delay = RECONNECT_FIRST_MS;
  let timer: NodeJS.Timeout | null = null;
  let markReady!: () => void;
  const readyOnce = new Promise<void>((resolve) => (markReady = resolve));

  const scheduleReconnect = () => {
    if (closed || timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new Client({ connectionString: databaseUrl, application_name: PG_CHANGES_APPLICATION });
    client = c;
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (client === c) {
        client = null;
        listening = false;
      }
      c.removeAllListeners('notification');
      void c.end().catch(() => {});
      scheduleReconnect();
    };
    // an error (the server went away, the backend was terminated) or the end: connect again
    c.on('error', drop);
    c.on('end', drop);
    c.on('notification', (n) => {
      if (n.channel === PG_CHANGES_CHANNEL && n.payload) hear(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${PG_CHANGES_CHANNEL}`);
    } catch {
      drop();
      return;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    delay = RECONNECT_FIRST_MS;
    // `dropped` may have been set while LISTEN was answered (the connection lost again)
    if (client !== c) return;
    listening = true;
    // back after a drop: what changed meanwhile was not heard, so every follower looks again
    if (everConnected) for (const topic of [...listeners.keys()]) hear(topic);
    everConnected = true;
    markReady();
  }
  void connect();

  return {
    publish(topic) {
      hear(topic);
      if (Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return;
      // a failed NOTIFY (the database away) loses only the hint: the fallback looks anyway
      void sql`SELECT pg_notify(${PG_CHANGES_CHANNEL}, ${topic})`.execute(db).catch(() => {});
    },
    subscribe(topic, onChange) {
      const set = listeners.get(topic) ?? new Set();
      set.add(onChange);
      listeners.set(topic, set);
      return () => {
        set.delete(onChange);
        if (set.size === 0) listeners.delete(topic);
      };
    },
    ready: () => readyOnce,
    listening: () => listening,
    async close() {
      closed = true;
      listening = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('end');
        c.removeAllListeners('notification');
        await c.end().catch(() => {});
      }
    },
  };
}

/**
 * The key caches' signal on PostgreSQL (key-changes.ts): the triggers' NOTIFY `keys`, heard on
 * `bus`, moves the generation; while the LISTEN connection is down (or not up yet) there is none,
 * so the caches read every key (the reconnection wakes the topic: the generation moves again).
 */
export function pgKeyChanges(bus: PgChangeBus): KeyChangeWatch {
  let generation = 0;
  bus.subscribe(KEYS_TOPIC, () => generation++);
  return { generation: () => (bus.listening() ? generation : null) };
}

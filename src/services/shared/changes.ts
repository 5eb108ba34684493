// Changes that a page follows live (a running batch's progress): `publish(topic)` says that
// something changed, `subscribe(topic, cb)` hears it. In one process, an emitter; across
// processes (workers elsewhere), Redis pub/sub when REDIS_URL is set (src/store/redis.ts,
// createChangeBus), else PostgreSQL's LISTEN/NOTIFY on PostgreSQL (src/store/pg-changes.ts,
// createPgChangeBus). A message is a hint to look again, never the data: a listener reads the
// state itself, so a lost message costs only the fallback's delay (the events stream looks
// every 2 s anyway).
import { EventEmitter } from 'node:events';

export interface ChangeBus {
  publish(topic: string): void;
  /** returns the unsubscribe function */
  subscribe(topic: string, onChange: () => void): () => void;
}

/** The bus of one process. */
export function localChangeBus(): ChangeBus {
  const emitter = new EventEmitter();
  // one listener per open events stream: no leak warning at a few dozen viewers
  emitter.setMaxListeners(0);
  return {
    publish(topic) {
      emitter.emit(topic);
    },
    subscribe(topic, onChange) {
      emitter.on(topic, onChange);
      return () => emitter.off(topic, onChange);
    },
  };
}

/** The topic of one batch's progress. */
export const batchTopic = (batchId: number): string => `batch:${batchId}`;

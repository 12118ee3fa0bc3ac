import { afterEach, describe, expect, it } from 'vitest';
import { SessionPool } from './session-pool.js';

/** A session that records whether it was closed. */
class Session {
  closed = false;
  async close(): Promise<void> {
    this.closed = true;
  }
}

let time = 0;
let pool: SessionPool<Session>;

function createPool(idleTimeoutMs = 1000): SessionPool<Session> {
  time = 0;
  pool = new SessionPool<Session>({ idleTimeoutMs, now: () => time });
  return pool;
}

/** Adds sessions `ids`, one time unit apart, and returns them by id. */
function addSessions(...ids: string[]): Record<string, Session> {
  const sessions: Record<string, Session> = {};
  for (const id of ids) {
    sessions[id] = new Session();
    pool.add(id, sessions[id]);
    time += 1;
  }
  return sessions;
}

afterEach(() => pool.closeAll());

describe('SessionPool', () => {
  it('closes a session idle for the timeout when it is looked up, and forgets its id', () => {
    createPool(1000);
    const { a } = addSessions('a');
    time = 999;
    expect(pool.get('a')).toBe(a);
    time = 1999;
    expect(pool.get('a')).toBeUndefined();
    expect(a?.closed).toBe(true);
    expect(pool.size).toBe(0);
  });

  it('counts any request as activity', () => {
    createPool(1000);
    const { a } = addSessions('a');
    time = 900;
    pool.touch('a');
    time = 1800;
    expect(pool.get('a')).toBe(a);
  });

  it('never expires a session with a call in flight, and counts idleness from the end of its last call', () => {
    createPool(1000);
    const { a } = addSessions('a');
    const endCall = pool.begin('a', 1);
    time = 5000;
    expect(pool.get('a')).toBe(a);
    endCall();
    time = 5999;
    expect(pool.get('a')).toBe(a);
    time = 6000;
    expect(pool.get('a')).toBeUndefined();
  });

  it('ends a cancelled call by id; a stale end does not end a later call reusing the id', () => {
    createPool(1000);
    addSessions('a', 'b');
    const staleEnd = pool.begin('a', 7);
    pool.end('a', 7);
    pool.begin('a', 7);
    staleEnd();
    pool.begin('b', 1);
    expect(pool.evictLongestIdle()).toBe(false);
  });

  it('evicts the session idle the longest, skipping those with a call in flight', () => {
    createPool(60_000);
    const sessions = addSessions('a', 'b', 'c');
    pool.begin('a', 1);
    pool.touch('b');
    expect(pool.evictLongestIdle()).toBe(true);
    expect(pool.get('c')).toBeUndefined();
    expect(sessions.c?.closed).toBe(true);
    expect(pool.evictLongestIdle()).toBe(true);
    expect(sessions.b?.closed).toBe(true);
    expect(pool.evictLongestIdle()).toBe(false);
    expect(sessions.a?.closed).toBe(false);
    expect(pool.size).toBe(1);
  });

  it('closes every session on closeAll', async () => {
    createPool();
    const sessions = addSessions('a', 'b');
    pool.begin('a', 1);
    await pool.closeAll();
    expect(Object.values(sessions).map((session) => session.closed)).toEqual([true, true]);
    expect(pool.size).toBe(0);
  });
});

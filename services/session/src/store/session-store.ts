import { AuthError } from "@auth/errors";
import { type Clock, issueToken, type KeyValueStore, newRecordId, readToken, sameHash } from "@auth/kv";
import type { SessionState } from "@auth/proto/session";

export interface SessionRecord {
  sessionId: string;
  companyId: string;
  userId: string;
  state: SessionState;
  loginId: string;
  profileMnemocode?: string;
  passwordChangeRequired: boolean;
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
}

export interface Lifetimes {
  /** Milliseconds a session lives in a given state. */
  of(state: SessionState): number;
}

/** How long an expired token is still told apart from an unknown one (DESIGN.md: a day at least). */
export const expiredTokenMemoryMs = 24 * 60 * 60 * 1000;

export type Introspection =
  | { status: "active"; session: SessionRecord }
  | { status: "expired" }
  | { status: "invalid" };

export interface NewSession {
  companyId: string;
  userId: string;
  state: SessionState;
  loginId: string;
  profileMnemocode?: string;
  passwordChangeRequired: boolean;
  /** The company's lifetime for the state; the service's default when absent. */
  lifetimeSeconds?: number;
}

/** What a move to the next state may change besides the state. */
export interface SessionChanges {
  profileMnemocode?: string;
  passwordChangeRequired?: boolean;
  lifetimeSeconds?: number;
}

const sessionKey = (sessionId: string) => `session:${sessionId}`;
const userKey = (companyId: string, userId: string) => `user-sessions:${companyId}:${userId}`;

/**
 * Sessions under one key each, found through the session id inside the token and checked against
 * the stored token hash. Every change is a compare-and-set on that key, so of two racing requests
 * with the same token only one can move the session on.
 */
export class SessionStore {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
    private readonly lifetimes: Lifetimes,
  ) {}

  async create({
    lifetimeSeconds,
    ...session
  }: NewSession): Promise<{ token: string; session: SessionRecord }> {
    const sessionId = newRecordId();
    const issued = issueToken(sessionId);
    const now = this.clock.now();
    const record: SessionRecord = {
      ...session,
      sessionId,
      tokenHash: issued.hash,
      createdAt: now,
      expiresAt: now + this.#lifetime(session.state, lifetimeSeconds),
    };
    await this.kv.set(sessionKey(sessionId), JSON.stringify(record), this.#keyLifetime(record));
    await this.kv.addToSet(userKey(record.companyId, record.userId), sessionId, this.#keyLifetime(record));
    return { token: issued.token, session: record };
  }

  async introspect(token: string): Promise<Introspection> {
    const found = await this.#find(token);
    if (!found) return { status: "invalid" };
    if (found.record.expiresAt <= this.clock.now()) return { status: "expired" };
    return { status: "active", session: found.record };
  }

  /** Moves the session from `from` to `to` under a new token; the presented token stops working. */
  async advance(
    token: string,
    from: SessionState,
    to: SessionState,
    changes: SessionChanges = {},
  ): Promise<{ token: string; session: SessionRecord }> {
    const found = await this.#find(token);
    if (!found) throw new AuthError("auth.token.invalid");
    const { raw, record } = found;
    const now = this.clock.now();
    if (record.expiresAt <= now) throw new AuthError("auth.token.expired");
    if (record.state !== from) throw new AuthError("auth.session.invalid");
    const issued = issueToken(record.sessionId);
    const next: SessionRecord = {
      ...record,
      state: to,
      tokenHash: issued.hash,
      expiresAt: now + this.#lifetime(to, changes.lifetimeSeconds),
      profileMnemocode: changes.profileMnemocode ?? record.profileMnemocode,
      passwordChangeRequired: changes.passwordChangeRequired ?? record.passwordChangeRequired,
    };
    const swapped = await this.kv.compareAndSet(
      sessionKey(record.sessionId),
      raw,
      JSON.stringify(next),
      this.#keyLifetime(next),
    );
    // Another request with the same token changed the session first.
    if (!swapped) throw new AuthError("auth.token.invalid");
    await this.kv.addToSet(userKey(next.companyId, next.userId), next.sessionId, this.#keyLifetime(next));
    return { token: issued.token, session: next };
  }

  /** Invalidates the token's session; false when the token was not known. */
  async revoke(token: string): Promise<boolean> {
    const found = await this.#find(token);
    if (!found) return false;
    const removed = await this.kv.compareAndSet(sessionKey(found.record.sessionId), found.raw, null, 0);
    await this.kv.removeFromSet(userKey(found.record.companyId, found.record.userId), found.record.sessionId);
    return removed;
  }

  /** Ends a session by its id, whatever its token and state. */
  async end(sessionId: string): Promise<void> {
    const raw = await this.kv.take(sessionKey(sessionId));
    if (raw === null) return;
    const record = JSON.parse(raw) as SessionRecord;
    await this.kv.removeFromSet(userKey(record.companyId, record.userId), sessionId);
  }

  /** Invalidates every session of the user; returns how many were still known. */
  async revokeUser(companyId: string, userId: string): Promise<number> {
    const key = userKey(companyId, userId);
    const sessionIds = await this.kv.setMembers(key);
    let revoked = 0;
    for (const sessionId of sessionIds) {
      if (await this.kv.delete(sessionKey(sessionId))) revoked += 1;
      await this.kv.removeFromSet(key, sessionId);
    }
    return revoked;
  }

  /** The user's sessions still known (active or expired), oldest first. */
  async listUser(companyId: string, userId: string): Promise<SessionRecord[]> {
    const sessionIds = await this.kv.setMembers(userKey(companyId, userId));
    const raws = await Promise.all(sessionIds.map((sessionId) => this.kv.get(sessionKey(sessionId))));
    return raws
      .filter((raw): raw is string => raw !== null)
      .map((raw) => JSON.parse(raw) as SessionRecord)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  #lifetime(state: SessionState, lifetimeSeconds: number | undefined): number {
    return lifetimeSeconds ? lifetimeSeconds * 1000 : this.lifetimes.of(state);
  }

  async #find(token: string): Promise<{ raw: string; record: SessionRecord } | null> {
    const presented = readToken(token);
    if (!presented) return null;
    const raw = await this.kv.get(sessionKey(presented.id));
    if (raw === null) return null;
    const record = JSON.parse(raw) as SessionRecord;
    if (!sameHash(record.tokenHash, presented.hash)) return null;
    return { raw, record };
  }

  #keyLifetime(record: SessionRecord): number {
    return record.expiresAt - this.clock.now() + expiredTokenMemoryMs;
  }
}

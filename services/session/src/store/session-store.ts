import { AuthError } from "@auth/errors";
import type { OriginOf } from "@auth/events";
import {
  type Clock,
  type Counter,
  issueToken,
  type KeyNamedByValue,
  type KeyValueStore,
  keyFromToken,
  newRecordId,
  readToken,
  sameHash,
  seal,
  unseal,
  type Write,
} from "@auth/kv";
import { type RequiredDisclaimer, SessionState } from "@auth/proto/session";
import type { Factor } from "../authentication.js";
import type { PendingRight, RightCheck } from "./check-budget.js";
import { deviceIdHashOf } from "./known-devices.js";
import { type Ending, endEvents, stateEvents } from "./session-events.js";

export interface SessionRecord {
  sessionId: string;
  companyId: string;
  /** Empty for a password-free login's session until a passkey names its user (create, advance). */
  userId: string;
  state: SessionState;
  loginId: string;
  profileMnemocode?: string;
  passwordChangeRequired: boolean;
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  /** The user's credential generation the session started with; absent in sessions from before it. */
  credentialGeneration?: string;
  /** The request that claimed the session for a password change (claimCredentialChange). */
  changeClaim?: ChangeClaim;
  /** The request whose move gave the session its token, when it named itself (advance). */
  movedBy?: MovedBy;
  /** The disclaimers the user owed when the session started; dropped when it moves on. */
  disclaimersRequired?: RequiredDisclaimer[];
  /** The client's User-Agent (shown, see `shownUserAgent`) and address when the session started. */
  userAgent?: string;
  clientAddress?: string;
  /**
   * The last recorded use of the session: as stored, its last move (absent: its start); as read,
   * the later of that and the use an introspection recorded under a key of its own (`seenKey`).
   */
  lastSeenAt?: number;
  /** The end of the session's absolute lifetime, when the company sets one. */
  absoluteExpiresAt?: number;
  /** The inactivity timeout in milliseconds, when the company sets one. */
  idleMs?: number;
  /** The factors the session rests on, in the order passed; absent before the first. */
  factors?: Factor[];
  /** The SHA-256 of the client's X-Device-Id, when it sent one of the right shape (known-devices.ts). */
  deviceIdHash?: string;
  /** When the session became authorized: what the session cap ends the oldest by. */
  authorizedAt?: number;
}

/** The company's limits of a session besides its token's lifetime (docs/security.md, "Session lifetimes"). */
export interface SessionLimits {
  /** Seconds from the session's start after which it ends, whatever its state. */
  absoluteLifetimeSeconds?: number;
  /** Seconds of no use after which it ends. */
  idleTimeoutSeconds?: number;
}

/** A session's password change as identity asks for it (credentialChangeOf). */
export interface CredentialChange {
  companyId: string;
  userId: string;
  state: SessionState;
  passwordChecked: boolean;
  /** Absent until the session is claimed. */
  claimId?: string;
}

/**
 * Who claimed a session for a password change: a retry key, or none (then no request may resume it);
 * and how many other sessions of the user the claim ended, told again to a request that resumes it.
 */
export interface ChangeClaim {
  retryKey?: string;
  ended?: number;
}

/**
 * The request that moved a session, so that it may be answered the move again (docs/decisions.md,
 * "Idempotency-Key"): the token it presented (its hash), its retry key, and the token the move
 * issued, sealed with a key derived from the presented one.
 */
export interface MovedBy {
  tokenHash: string;
  retryKey: string;
  sealedToken: string;
}

/** What a move's token is sealed for (packages/kv, sealed.ts). */
const movedTokenPurpose = "session moved by a request";

export interface Lifetimes {
  /** Milliseconds a session lives in a given state. */
  of(state: SessionState): number;
}

/**
 * How long an expired token is still told apart from an unknown one: a day at least
 * (docs/api-contract.md, "Tokens and sessions").
 */
export const expiredTokenMemoryMs = 24 * 60 * 60 * 1000;

/**
 * A use of a token is recorded (lastSeenAt) at most this often, so that a consumer that introspects
 * on every request does not write on every request (docs/security.md, "Session lifetimes").
 */
export const lastSeenIntervalMs = 60_000;

/** Client input shown to the user: no control or format characters, at most 256 characters. */
export function shownUserAgent(userAgent: string): string {
  return Array.from(userAgent.replace(/[\p{Cc}\p{Cf}]/gu, ""))
    .slice(0, 256)
    .join("")
    .trim();
}

export type Introspection =
  | { status: "active"; session: SessionRecord }
  | { status: "expired" }
  | { status: "invalid" };

export interface NewSession extends SessionLimits {
  companyId: string;
  /**
   * Empty for a password-free login's session (docs/decisions.md, "Passkeys"): it starts in
   * checkpassword on no check, and takes its user from the passkey its first move rests on.
   */
  userId: string;
  state: SessionState;
  loginId: string;
  profileMnemocode?: string;
  passwordChangeRequired: boolean;
  /** The company's lifetime for the state; the service's default when absent. */
  lifetimeSeconds?: number;
  /** The user's credential generation when the secret the session starts on was checked. */
  credentialGeneration?: string;
  disclaimersRequired?: RequiredDisclaimer[];
  /** The client's User-Agent header as sent, and address. */
  userAgent?: string;
  clientAddress?: string;
  /** The client's X-Device-Id header; only its hash is kept, and only of one of the right shape. */
  deviceId?: string;
  /** The right check the session starts on: the user's, and its first factor. */
  rightCheck?: RightCheck;
  /** Writes made in the step that writes the session (Recorded). */
  recorded?: Recorded;
  /** A lock-out read in the step that writes the session (LockOutRead). */
  lockOut?: LockOutRead;
}

/**
 * A counter read in the step that writes the session (the budget's lock-out: check-budget.ts):
 * at its ceiling nothing is written, and what `refused` makes of it is thrown.
 */
export interface LockOutRead {
  key: string;
  ceiling: number;
  refused(counter: Counter): Promise<Error>;
}

/**
 * Writes made in the step that writes the session, only when it is written, from the session as
 * written (the device of a sign-in: known-devices.ts); their answers come back as `recorded`.
 */
export type Recorded = (session: SessionRecord) => readonly Write[];

/** What a move to the next state may change besides the state. */
export interface SessionChanges extends SessionLimits {
  profileMnemocode?: string;
  passwordChangeRequired?: boolean;
  lifetimeSeconds?: number;
  /** The session has just changed its user's password, after claimCredentialChange. */
  renewCredentialGeneration?: boolean;
  /** The right check the move rests on, reported already: the session's user's, and its next factor. */
  rightCheck?: RightCheck;
  /**
   * Or the right check to report in the move's step, read while the session is (docs/performance.md,
   * "Redis round trips per login"); it fails when there is no check to rest on.
   */
  report?: () => Promise<PendingRight>;
  /** Writes made in the step that moves the session (Recorded). */
  recorded?: Recorded;
}

/** A move made ready (advance): the session as read and as it moves, or the answer of its earlier move. */
type Move =
  | { again: { token: string; session: SessionRecord } }
  | { raw: string; record: SessionRecord; next: SessionRecord; token: string };

const sessionKey = (sessionId: string) => `session:${sessionId}`;
const userKey = (companyId: string, userId: string) => `user-sessions:${companyId}:${userId}`;
const generationKeyParts = <Part>(companyId: Part, userId: Part) => ["credentials:", companyId, ":", userId];
const generationKey = (companyId: string, userId: string) => generationKeyParts(companyId, userId).join("");
/** A session's user's generation key, named by the session's value (read with it in one step). */
const sessionsGeneration: KeyNamedByValue = {
  from: 0,
  parts: generationKeyParts({ field: "companyId" }, { field: "userId" }),
};
const revokedKey = (sessionId: string) => `revoked:${sessionId}`;
/**
 * The last use an introspection recorded: a key of its own, so that recording a use never races a
 * move of the session (whose compare-and-set it would make fail).
 */
const seenKey = (sessionId: string) => `seen:${sessionId}`;

/** A stored session as read (#read): its value, its record, its user's credential generation now. */
interface Read {
  raw: string;
  record: SessionRecord;
  generation: string;
}

/**
 * False when the user's password changed since the session started (or while it was starting);
 * a session of no user has no credentials to change.
 */
function ofCurrentGeneration({ record, generation }: Read): boolean {
  return record.userId === "" || (record.credentialGeneration ?? "") === generation;
}

/** Which request revoked a session: the token it presented (its hash) and its retry key. */
interface RevokedBy {
  tokenHash: string;
  retryKey: string;
}
/**
 * A generation is kept this long after the last session that took it started: longer than any
 * session lives (30 days at most, and a day of memory), so that no session outlives its generation.
 */
const generationLifetimeMs = 400 * 24 * 60 * 60_000;

/**
 * Sessions under one key each, found through the session id inside the token and checked against
 * the stored token hash. Every change is a compare-and-set on that key, so of two racing requests
 * with the same token only one can move the session on.
 *
 * Every session carries its user's credential generation, and a session whose generation is no
 * longer the user's is invalid (docs/security.md, "A password change"): a password change gives the
 * user a new one before and after the write, so that no session from before it survives, nor one
 * that started on the old password while the change was under way.
 */
export class SessionStore {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
    private readonly lifetimes: Lifetimes,
  ) {}

  /** The store's time: what sessions' times are measured against. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Starts a session. `generation`: the user's credential generation as the caller has just read
   * it (the budget's lock-out check names its counter by it), so that it is not read twice.
   */
  async create(
    {
      lifetimeSeconds,
      credentialGeneration: checkedWith,
      disclaimersRequired = [],
      absoluteLifetimeSeconds,
      idleTimeoutSeconds,
      userAgent = "",
      clientAddress = "",
      deviceId,
      rightCheck,
      recorded,
      lockOut,
      ...session
    }: NewSession,
    originOf: OriginOf,
    generation?: string,
  ): Promise<{ token: string; session: SessionRecord; recorded: boolean[]; counter?: Counter }> {
    const userless = session.userId === "";
    if (userless) assertMayStartWithoutUser(session.state, rightCheck, checkedWith);
    assertOfUser(rightCheck, session.userId);
    assertMayEnter(undefined, session.state, rightCheck?.factor ? [rightCheck.factor] : []);
    const credentialGeneration = userless
      ? ""
      : (generation ?? (await this.generationOf(session.companyId, session.userId)));
    if (checkedWith !== undefined && checkedWith !== credentialGeneration) {
      throw new AuthError("auth.credentials.invalid", {
        detail: "the password changed since it was checked",
      });
    }
    await this.#keepGeneration(session.companyId, session.userId, credentialGeneration);
    const sessionId = newRecordId();
    const issued = issueToken(sessionId);
    const now = this.clock.now();
    const absoluteExpiresAt = absoluteLifetimeSeconds ? now + absoluteLifetimeSeconds * 1000 : undefined;
    const deviceIdHash = deviceIdHashOf(deviceId);
    const record: SessionRecord = {
      ...session,
      sessionId,
      tokenHash: issued.hash,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: capped(now + this.#lifetime(session.state, lifetimeSeconds), absoluteExpiresAt),
      credentialGeneration,
      userAgent: shownUserAgent(userAgent),
      clientAddress,
      ...(absoluteExpiresAt !== undefined ? { absoluteExpiresAt } : {}),
      ...(idleTimeoutSeconds ? { idleMs: idleTimeoutSeconds * 1000 } : {}),
      ...(disclaimersRequired.length > 0 ? { disclaimersRequired } : {}),
      ...(rightCheck?.factor ? { factors: [rightCheck.factor] } : {}),
      ...(deviceIdHash !== undefined ? { deviceIdHash } : {}),
      ...(session.state === SessionState.AUTHORIZED ? { authorizedAt: now } : {}),
    };
    const own: Write[] = [
      {
        op: "set",
        key: sessionKey(sessionId),
        value: JSON.stringify(record),
        ttlMs: this.#keyLifetime(record),
        ...stateEvents(undefined, record, originOf),
      },
      ...(userless ? [] : [this.#listed(record)]),
    ];
    const writes = [...own, ...(recorded?.(record) ?? [])];
    if (!lockOut) {
      const made = await this.kv.writeInOrder(writes);
      return { token: issued.token, session: record, recorded: made.slice(own.length) };
    }
    const { counter, made } = await this.kv.writeInOrderBelow(lockOut, writes);
    if (!made) throw await lockOut.refused(counter);
    return { token: issued.token, session: record, recorded: made.slice(own.length), counter };
  }

  /** Keeps the user's generation as long as a session that takes it may live ("" needs no keeping). */
  async #keepGeneration(companyId: string, userId: string, generation: string): Promise<void> {
    if (generation === "") return;
    await this.kv.compareAndSet(
      generationKey(companyId, userId),
      generation,
      generation,
      generationLifetimeMs,
    );
  }

  /** What the token stands for; a use of an active session, recorded at most once a lastSeenIntervalMs. */
  async introspect(token: string): Promise<Introspection> {
    const found = await this.#find(token);
    if (!found) return { status: "invalid" };
    const now = this.clock.now();
    if (endOf(found.record) <= now) return { status: "expired" };
    return { status: "active", session: await this.#seen(found.record, now) };
  }

  /**
   * The token's authorized session and the active authorized sessions of its user, oldest first:
   * for the user's own session management. A login under way is not listed: anyone who knows a
   * login ID can start one, and would write its user agent into the user's list.
   */
  async listOwn(token: string): Promise<{ current: SessionRecord; sessions: SessionRecord[] }> {
    const current = await this.#authorized(token);
    const now = this.clock.now();
    const sessions = (await this.listUser(current.companyId, current.userId)).filter(
      (record) => record.state === SessionState.AUTHORIZED && endOf(record) > now,
    );
    return { current, sessions };
  }

  /**
   * Ends one session of the token's user that listOwn lists (auth.session.notfound when the id
   * names none: a session of another user is answered as an unknown one), or every other session
   * of the user, in any state; returns how many ended.
   */
  async endOwn(
    token: string,
    target: { sessionId: string } | { others: true },
    originOf: OriginOf,
  ): Promise<number> {
    const ending: Ending = { reason: "ended_by_user", originOf };
    if ("others" in target) {
      const current = await this.#authorized(token);
      return this.#endSessionsOf(current.companyId, current.userId, ending, current.sessionId);
    }
    const { sessions } = await this.listOwn(token);
    if (!sessions.some((record) => record.sessionId === target.sessionId))
      throw new AuthError("auth.session.notfound");
    await this.end(target.sessionId, ending);
    return 1;
  }

  /**
   * Moves the session from `from` to `to` under a new token; the presented token stops working.
   * With a retry key the moved session keeps the new token for that request: the same token and
   * retry key presented again get the same move's answer while the session stays as it left it.
   * A session of no user moves only as it takes one (#adopt).
   */
  async advance(
    token: string,
    from: SessionState,
    to: SessionState,
    changes: SessionChanges,
    originOf: OriginOf,
    retryKey?: string,
  ): Promise<{ token: string; session: SessionRecord; recorded: boolean[] }> {
    const [found, pending] = await Promise.all([this.#find(token), changes.report?.()]);
    const rightCheck = pending?.right ?? changes.rightCheck;
    // A check is reported whatever becomes of the move: alone when none is made.
    const reportAlone = async () => {
      if (pending) await this.kv.writeInOrder([pending.take, ...pending.rest]);
    };
    let move: Move;
    try {
      move = await this.#move(token, found, from, to, { ...changes, rightCheck }, retryKey);
    } catch (error) {
      await reportAlone();
      throw error;
    }
    if ("again" in move) {
      await reportAlone();
      return { ...move.again, recorded: [] };
    }
    const { raw, record, next } = move;
    const recorded = changes.recorded?.(next) ?? [];
    const taken = pending ? 1 : 0;
    // The check taken first (a report that lost to another ends everything), then the session's
    // compare-and-set, which skips only its own writes when it loses, then the report's rest.
    const made = await this.kv.writeInOrder([
      ...(pending ? [pending.take] : []),
      {
        op: "compareAndSet",
        key: sessionKey(record.sessionId),
        expected: raw,
        next: JSON.stringify(next),
        ttlMs: this.#keyLifetime(next),
        guards: 1 + recorded.length,
        ...stateEvents(record.state, next, originOf),
      },
      this.#listed(next),
      ...recorded,
      ...(pending?.rest ?? []),
    ]);
    if (pending && !made[0])
      throw new AuthError("auth.token.invalid", { detail: "no reserved check to rest on" });
    // Another request with the same token changed the session first.
    if (!made[taken]) throw new AuthError("auth.token.invalid");
    return { token: move.token, session: next, recorded: made.slice(taken + 2, taken + 2 + recorded.length) };
  }

  /** The move of the session as found, checked; refused with the error the move answers. */
  async #move(
    token: string,
    found: Read | null,
    from: SessionState,
    to: SessionState,
    changes: SessionChanges,
    retryKey: string | undefined,
  ): Promise<Move> {
    const { rightCheck } = changes;
    if (!found) {
      const again = retryKey === undefined ? undefined : await this.#movedBy(token, retryKey);
      if (again) return { again };
      throw new AuthError("auth.token.invalid");
    }
    const { raw } = found;
    const now = this.clock.now();
    if (endOf(found.record) <= now) throw new AuthError("auth.token.expired");
    if (found.record.state !== from) throw new AuthError("auth.session.invalid");
    const record = found.record.userId === "" ? await this.#adopt(found.record, rightCheck) : found.record;
    assertOfUser(rightCheck, record.userId);
    const factors = [...(record.factors ?? []), ...(rightCheck?.factor ? [rightCheck.factor] : [])];
    assertMayEnter(record.state, to, factors);
    let { credentialGeneration } = record;
    if (changes.renewCredentialGeneration) {
      credentialGeneration = newRecordId();
      if (!(await this.#swapGeneration(record, credentialGeneration)))
        throw new AuthError("auth.token.invalid");
    }
    const issued = issueToken(record.sessionId);
    // The step that moves the session has recorded the disclaimers it owed; an earlier move's
    // request is answered no more.
    const {
      changeClaim: _finished,
      disclaimersRequired: _accepted,
      movedBy: _earlier,
      ...unclaimed
    } = record;
    const absoluteExpiresAt = changes.absoluteLifetimeSeconds
      ? record.createdAt + changes.absoluteLifetimeSeconds * 1000
      : record.absoluteExpiresAt;
    const idleMs = changes.idleTimeoutSeconds ? changes.idleTimeoutSeconds * 1000 : record.idleMs;
    const next: SessionRecord = {
      ...unclaimed,
      credentialGeneration,
      state: to,
      tokenHash: issued.hash,
      lastSeenAt: now,
      ...(absoluteExpiresAt !== undefined ? { absoluteExpiresAt } : {}),
      ...(idleMs !== undefined ? { idleMs } : {}),
      ...(factors.length > 0 ? { factors } : {}),
      ...(to === SessionState.AUTHORIZED && record.state !== to ? { authorizedAt: now } : {}),
      expiresAt: capped(now + this.#lifetime(to, changes.lifetimeSeconds), absoluteExpiresAt),
      profileMnemocode: changes.profileMnemocode ?? record.profileMnemocode,
      passwordChangeRequired: changes.passwordChangeRequired ?? record.passwordChangeRequired,
      ...(retryKey !== undefined
        ? {
            movedBy: {
              tokenHash: record.tokenHash,
              retryKey,
              sealedToken: seal(keyFromToken(token, movedTokenPurpose), issued.token),
            },
          }
        : {}),
    };
    return { raw, record, next, token: issued.token };
  }

  /**
   * A password-free login's session with the user of the passkey its move rests on, when the
   * authenticator verified the user (docs/decisions.md, "Passkeys"), and the user's credential
   * generation, unless it changed since the passkey was checked (auth.credentials.invalid). Any
   * other move of a session of no user is refused with auth.session.invalid.
   */
  async #adopt(record: SessionRecord, rightCheck: RightCheck | undefined): Promise<SessionRecord> {
    const factor = rightCheck?.factor;
    if (!rightCheck?.userId || factor?.kind !== "passkey" || !factor.userVerified)
      throw new AuthError("auth.session.invalid", {
        detail: "a session of no user moves only on a user-verified passkey",
      });
    const credentialGeneration = await this.generationOf(record.companyId, rightCheck.userId);
    if (rightCheck.credentialGeneration !== credentialGeneration)
      throw new AuthError("auth.credentials.invalid", {
        detail: "the user's credentials changed since the passkey was checked",
      });
    await this.#keepGeneration(record.companyId, rightCheck.userId, credentialGeneration);
    return { ...record, userId: rightCheck.userId, credentialGeneration };
  }

  /** The answer of the move the request (token and retry key) made, while the session stays as it left it. */
  async #movedBy(
    token: string,
    retryKey: string,
  ): Promise<{ token: string; session: SessionRecord } | undefined> {
    const presented = readToken(token);
    const found = presented && (await this.#read(presented.id));
    const movedBy = found?.record.movedBy;
    if (!presented || !found || !movedBy) return undefined;
    if (!sameHash(movedBy.tokenHash, presented.hash) || movedBy.retryKey !== retryKey) return undefined;
    if (!ofCurrentGeneration(found)) return undefined;
    return {
      token: unseal(keyFromToken(token, movedTokenPurpose), movedBy.sealedToken),
      session: found.record,
    };
  }

  /**
   * Invalidates the token's session; false when the token was not known. With a retry key the
   * session remembers for a day which request revoked it: that request, sent again with the same
   * token, is answered true again.
   */
  async revoke(token: string, originOf: OriginOf, retryKey?: string): Promise<boolean> {
    const found = await this.#find(token);
    if (!found) return retryKey !== undefined && (await this.#revokedBy(token, retryKey));
    const { sessionId, companyId, userId } = found.record;
    const removed = await this.kv.compareAndSet(
      sessionKey(sessionId),
      found.raw,
      null,
      0,
      endEvents(found.record, { reason: "logout", originOf }),
    );
    if (removed && retryKey !== undefined) await this.#rememberRevokedBy(found.record, retryKey);
    await this.kv.removeFromSet(userKey(companyId, userId), sessionId);
    return removed;
  }

  async #rememberRevokedBy({ sessionId, tokenHash }: SessionRecord, retryKey: string): Promise<void> {
    const revoked: RevokedBy = { tokenHash, retryKey };
    await this.kv.set(revokedKey(sessionId), JSON.stringify(revoked), expiredTokenMemoryMs);
  }

  async #revokedBy(token: string, retryKey: string): Promise<boolean> {
    const presented = readToken(token);
    if (!presented) return false;
    const raw = await this.kv.get(revokedKey(presented.id));
    if (raw === null) return false;
    const revoked = JSON.parse(raw) as RevokedBy;
    return sameHash(revoked.tokenHash, presented.hash) && revoked.retryKey === retryKey;
  }

  /**
   * Ends a session by its id, whatever its token and state. Removed as it was read, so that its
   * event names its user: a session that moved meanwhile is read again.
   */
  async end(sessionId: string, ending: Ending): Promise<void> {
    for (;;) {
      const raw = await this.kv.get(sessionKey(sessionId));
      if (raw === null) return;
      const record = JSON.parse(raw) as SessionRecord;
      const [ended] = await this.kv.writeInOrder([
        {
          op: "compareAndSet",
          key: sessionKey(sessionId),
          expected: raw,
          next: null,
          ttlMs: 0,
          ...endEvents(record, ending),
        },
        { op: "removeFromSet", key: userKey(record.companyId, record.userId), member: sessionId },
      ]);
      if (ended) return;
    }
  }

  /**
   * Invalidates every session of the user, those starting meanwhile included (a new credential
   * generation); returns how many were still known. With the retry key of the password change that
   * ends them, the session that change claimed remembers, as revoke's does, that it ended it.
   */
  async revokeUser(companyId: string, userId: string, ending: Ending, retryKey?: string): Promise<number> {
    if (retryKey !== undefined) {
      for (const { record } of await this.#sessionsOf(companyId, userId)) {
        if (record.changeClaim?.retryKey === retryKey) await this.#rememberRevokedBy(record, retryKey);
      }
    }
    await this.kv.set(generationKey(companyId, userId), newRecordId(), generationLifetimeMs);
    return this.#endSessionsOf(companyId, userId, ending);
  }

  /**
   * Claims the token's session for one request that changes the user's password, and makes it the
   * only session of its user: a new credential generation that only it carries. Of racing claims
   * one wins and the others get auth.token.invalid, as does any later claim, unless it repeats the
   * winner's retry key: then the change is resumed (`resumed`), not made again. `ended`: how many
   * other sessions the claim ended.
   */
  async claimCredentialChange(
    token: string,
    originOf: OriginOf,
    retryKey?: string,
  ): Promise<{ resumed: boolean; ended: number }> {
    const found = await this.#find(token);
    if (!found) throw new AuthError("auth.token.invalid");
    const { raw, record } = found;
    if (endOf(record) <= this.clock.now()) throw new AuthError("auth.token.expired");
    if (!changeStates.has(record.state)) throw new AuthError("auth.session.invalid");
    if (record.changeClaim) {
      const sameRequest = retryKey !== undefined && record.changeClaim.retryKey === retryKey;
      if (!sameRequest) throw new AuthError("auth.token.invalid", { detail: "claimed by another request" });
      return { resumed: true, ended: record.changeClaim.ended ?? 0 };
    }
    const credentialGeneration = newRecordId();
    if (!(await this.#swapGeneration(record, credentialGeneration)))
      throw new AuthError("auth.token.invalid");
    // The others are invalid from the swap on (their generation is gone): they end, counted for the claim.
    const ended = await this.#endSessionsOf(
      record.companyId,
      record.userId,
      { reason: "password_changed", originOf },
      record.sessionId,
    );
    const claimed: SessionRecord = { ...record, credentialGeneration, changeClaim: { retryKey, ended } };
    if (
      !(await this.kv.compareAndSet(
        sessionKey(record.sessionId),
        raw,
        JSON.stringify(claimed),
        this.#keyLifetime(claimed),
      ))
    ) {
      throw new AuthError("auth.token.invalid");
    }
    return { resumed: false, ended };
  }

  /**
   * The password change the token's session may make: whose it is, whether it checked the password
   * itself, and its claim (claimCredentialChange, named by the generation it took), while the
   * session is active and in a state of changeStates; undefined for any other token. Identity
   * writes a password only for a claimed session (docs/security.md, "Trust between the services"),
   * and compares it with the current one only for a session that checked that (docs/decisions.md,
   * "Passwords"). Reads only: no use is recorded.
   */
  async credentialChangeOf(token: string): Promise<CredentialChange | undefined> {
    const found = await this.#find(token);
    if (!found) return undefined;
    const { record } = found;
    if (endOf(record) <= this.clock.now() || !changeStates.has(record.state)) return undefined;
    return {
      companyId: record.companyId,
      userId: record.userId,
      state: record.state,
      passwordChecked: (record.factors ?? []).some((factor) => factor.kind === "password"),
      claimId: record.changeClaim ? (record.credentialGeneration ?? "") : undefined,
    };
  }

  /**
   * Ends the session's user's oldest authorized sessions, by authorization time (tie by id), beyond
   * the newest `cap` (docs/decisions.md, "Session cap"); returns how many it ended. Decided from the
   * sessions listed now, a subset of those that exist: a session among the user's newest `cap` is
   * never among a listing's oldest. The session that just authorized ends only when `cap` others
   * authorized after it, in parallel.
   */
  async endOldest(session: SessionRecord, cap: number, ending: Ending): Promise<number> {
    const now = this.clock.now();
    const authorized = (await this.listUser(session.companyId, session.userId))
      .filter((record) => record.state === SessionState.AUTHORIZED && endOf(record) > now)
      .sort(byAuthorization);
    const oldest = authorized.slice(0, Math.max(0, authorized.length - cap));
    for (const { sessionId } of oldest) await this.end(sessionId, ending);
    return oldest.length;
  }

  /** The user's credential generation now ("" until the first change). */
  async generationOf(companyId: string, userId: string): Promise<string> {
    return (await this.kv.get(generationKey(companyId, userId))) ?? "";
  }

  /** The user's sessions still known (active or expired), oldest first. */
  async listUser(companyId: string, userId: string): Promise<SessionRecord[]> {
    const generation = await this.generationOf(companyId, userId);
    return (await this.#sessionsOf(companyId, userId))
      .map(({ record }) => record)
      .filter((record) => (record.credentialGeneration ?? "") === generation)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The stored sessions the user's set names, whatever their generation. */
  async #sessionsOf(companyId: string, userId: string) {
    const sessionIds = await this.kv.setMembers(userKey(companyId, userId));
    const found = await Promise.all(sessionIds.map((sessionId) => this.#read(sessionId)));
    return found.filter((read) => read !== null);
  }

  /**
   * Deletes the user's known sessions but one; returns how many there were. Their end is one event,
   * recorded with the first that ends: none when none did.
   */
  async #endSessionsOf(companyId: string, userId: string, ending: Ending, keep?: string): Promise<number> {
    const key = userKey(companyId, userId);
    const events = endEvents({ companyId, userId }, ending);
    let ended = 0;
    for (const sessionId of await this.kv.setMembers(key)) {
      if (sessionId === keep) continue;
      if (await this.kv.delete(sessionKey(sessionId), ended === 0 ? events : undefined)) ended += 1;
      await this.kv.removeFromSet(key, sessionId);
    }
    return ended;
  }

  /** Replaces the user's generation only while it is still the session's: of racing changes, one wins. */
  async #swapGeneration(record: SessionRecord, next: string): Promise<boolean> {
    const key = generationKey(record.companyId, record.userId);
    const current = record.credentialGeneration ?? "";
    return current === ""
      ? this.kv.setIfAbsent(key, next, generationLifetimeMs)
      : this.kv.compareAndSet(key, current, next, generationLifetimeMs);
  }

  /** The token's session, active and authorized: auth.token.invalid, .expired or auth.session.invalid. */
  async #authorized(token: string): Promise<SessionRecord> {
    const found = await this.introspect(token);
    if (found.status === "invalid") throw new AuthError("auth.token.invalid");
    if (found.status === "expired") throw new AuthError("auth.token.expired");
    if (found.session.state !== SessionState.AUTHORIZED) throw new AuthError("auth.session.invalid");
    return found.session;
  }

  /** Records a use of the session when the last one recorded is older than lastSeenIntervalMs. */
  async #seen(record: SessionRecord, now: number): Promise<SessionRecord> {
    if (now - (record.lastSeenAt ?? record.createdAt) < lastSeenIntervalMs) return record;
    await this.kv.set(seenKey(record.sessionId), String(now), this.#keyLifetime(record));
    return { ...record, lastSeenAt: now };
  }

  /**
   * The stored session (`raw`, for compare-and-set) with its last recorded use, and its user's
   * credential generation now, read in the same step.
   */
  async #read(sessionId: string): Promise<Read | null> {
    const {
      values: [raw, seen],
      named: generation,
    } = await this.kv.getEachNaming([sessionKey(sessionId), seenKey(sessionId)], sessionsGeneration);
    if (raw === null || raw === undefined) return null;
    const record = JSON.parse(raw) as SessionRecord;
    const lastSeenAt = Math.max(record.lastSeenAt ?? record.createdAt, Number(seen ?? 0));
    return { raw, record: { ...record, lastSeenAt }, generation: generation ?? "" };
  }

  #lifetime(state: SessionState, lifetimeSeconds: number | undefined): number {
    return lifetimeSeconds ? lifetimeSeconds * 1000 : this.lifetimes.of(state);
  }

  async #find(token: string): Promise<Read | null> {
    const presented = readToken(token);
    if (!presented) return null;
    const found = await this.#read(presented.id);
    if (!found) return null;
    if (!sameHash(found.record.tokenHash, presented.hash)) return null;
    if (!ofCurrentGeneration(found)) return null;
    return found;
  }

  /** The session in its user's list, which lives as long as the session's key at least. */
  #listed(record: SessionRecord): Write {
    return {
      op: "addToSet",
      key: userKey(record.companyId, record.userId),
      member: record.sessionId,
      ttlMs: this.#keyLifetime(record),
    };
  }

  #keyLifetime(record: SessionRecord): number {
    return record.expiresAt - this.clock.now() + expiredTokenMemoryMs;
  }
}

/**
 * The states a session changes its user's password in (claimCredentialChange): a login's and a
 * recovery's, and the signed-in user's own change (docs/api-contract.md, "Changing the password").
 */
const changeStates: ReadonlySet<SessionState> = new Set([
  SessionState.SETPASSWORD,
  SessionState.RECOVERY_SETPASSWORD,
  SessionState.AUTHORIZED,
]);

/**
 * A recovery's states: a session that is in one moves only to another, so it never authorizes
 * (docs/decisions.md, "Sessions and tokens").
 */
const recoveryStates: ReadonlySet<SessionState> = new Set([
  SessionState.RECOVERY_CHECKOTP,
  SessionState.RECOVERY_CHECKQUESTION,
  SessionState.RECOVERY_SETPASSWORD,
]);

/**
 * The states a session enters only on a login factor the session service recorded itself: authorized,
 * and setpassword, whose claim would otherwise let anyone who can call the service set a password
 * and then log in with it.
 */
const factorStates: ReadonlySet<SessionState> = new Set([SessionState.AUTHORIZED, SessionState.SETPASSWORD]);

/**
 * A session is authorized (or may set a password outside a recovery) only on proof the session
 * service recorded itself: a right check it reserved, or a provider's login identity recorded
 * (docs/security.md, "Trust between the services"), so that a caller's certificate alone mints no
 * session for a user no one authenticated. A recovery session never leaves recovery: it never
 * authorizes. `from` is undefined for a session that starts; `factors` are the session's with the
 * move's right check added. Refused with auth.session.invalid: nothing is created or moved.
 */
function assertMayEnter(from: SessionState | undefined, to: SessionState, factors: readonly Factor[]): void {
  if (from !== undefined && recoveryStates.has(from) && !recoveryStates.has(to))
    throw new AuthError("auth.session.invalid", { detail: "a recovery session moves only within recovery" });
  if (factorStates.has(to) && factors.length === 0)
    throw new AuthError("auth.session.invalid", {
      detail: "no login factor the session service recorded (right_check_id)",
    });
}

/**
 * A session of no user (a password-free login's) starts in checkpassword, on no check: nothing is
 * known of whom it is for until a passkey's assertion names the user (auth.session.invalid).
 */
function assertMayStartWithoutUser(
  state: SessionState,
  rightCheck: RightCheck | undefined,
  credentialGeneration: string | undefined,
): void {
  if (state !== SessionState.CHECKPASSWORD || rightCheck || credentialGeneration !== undefined)
    throw new AuthError("auth.session.invalid", {
      detail: "a session of no user starts in checkpassword on no check",
    });
}

/**
 * A right check a session starts or moves on must be of the session's user: another user's is
 * refused as a token that is not the session's would be, and nothing is created or moved.
 */
function assertOfUser(rightCheck: RightCheck | undefined, userId: string): void {
  if (rightCheck && rightCheck.userId !== userId)
    throw new AuthError("auth.token.invalid", { detail: "the right check is not the session user's" });
}

/** Oldest authorization first; of two at the same millisecond, the lower id. */
function byAuthorization(a: SessionRecord, b: SessionRecord): number {
  const at = (record: SessionRecord) => record.authorizedAt ?? record.createdAt;
  return at(a) - at(b) || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0);
}

/** A token's end, capped by the session's absolute lifetime. */
function capped(tokenEnd: number, absoluteExpiresAt: number | undefined): number {
  return absoluteExpiresAt === undefined ? tokenEnd : Math.min(tokenEnd, absoluteExpiresAt);
}

/** When the session ends unless used before: its last use plus the inactivity timeout, if any. */
export function idleEndOf(record: SessionRecord): number | undefined {
  return record.idleMs === undefined ? undefined : (record.lastSeenAt ?? record.createdAt) + record.idleMs;
}

/** When the session stops being active: its token's lifetime (capped by the absolute one) or idleness. */
export function endOf(record: SessionRecord): number {
  return Math.min(record.expiresAt, idleEndOf(record) ?? Number.POSITIVE_INFINITY);
}

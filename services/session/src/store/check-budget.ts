import { createHash } from "node:crypto";
import type { EventOrigin } from "@auth/events";
import { type Clock, type Counter, type KeyValueStore, newRecordId, type Write } from "@auth/kv";
import type { Factor } from "../authentication.js";
import { lockoutEvents } from "./session-events.js";

/** The company's limits (the identity service's policy). */
export interface CheckPolicy {
  captchaAfterFailures: number;
  lockoutAfterFailures: number;
  failureWindowSeconds: number;
}

/** Whose failures a check counts: a user's, or an unknown login ID's (normalised). */
export type Subject = { userId: string } | { loginId: string };

/** The kinds of secret, each with a budget of its own per subject. */
export type SecretKind = "password" | "smsCode" | "appCode" | "backupCode" | "passkey" | "controlAnswer";

const secondFactors: readonly SecretKind[] = ["smsCode", "appCode", "backupCode", "passkey"];
const secretKinds: readonly SecretKind[] = ["password", ...secondFactors, "controlAnswer"];

/**
 * The failures a right secret forgets: its own kind's, and a right second factor those of every
 * second factor, since it is what authorizes the session. Never another kind's: a right password
 * leaves a second factor's failures counted (docs/security.md, "Guesses per hour at one user").
 */
const forgottenBy: Record<SecretKind, readonly SecretKind[]> = {
  password: ["password"],
  smsCode: secondFactors,
  appCode: secondFactors,
  backupCode: secondFactors,
  passkey: secondFactors,
  controlAnswer: ["controlAnswer"],
};

/** Whose budgets a check spends. */
export interface Holder {
  companyId: string;
  subject: Subject;
  /**
   * The user's credential generation now (session-store.ts): a user's budgets belong to it, so that
   * new credentials start fresh ones. Not read for a login ID.
   */
  credentialGeneration: string;
}

/** A recovery session ends after this many wrong control answers (docs/decisions.md, "Recovery"). */
export const answersPerRecoverySession = 3;

/**
 * A user's password is refused after this many wrong ones without a right one, whatever the
 * windows (NIST SP 800-63B-4 3.2.2), until the user's credentials change: a run belongs to a
 * credential generation, which a new password (recovery, an operator) replaces
 * (docs/security.md, "A run of wrong passwords").
 */
export const passwordFailuresInARun = 100;
/** How long a run of wrong passwords is remembered from its first. */
const passwordRunLifetimeMs = 365 * 24 * 60 * 60_000;

/** A check under way in a session, which holds the session's marker until it is reported. */
export interface SessionTurn {
  key: string;
  checkId: string;
}

export interface Reservation extends Holder {
  kind: SecretKind;
  /** A password sent with a captcha the identity service accepted. */
  captchaPassed: boolean;
  /** The recovery session a control answer spends; its lifetime bounds its counters. */
  session?: { sessionId: string; ttlMs: number };
  /** The turn of the session the check happens in (takeTurn): the check takes its id, and ends it. */
  turn?: SessionTurn;
}

export type ReserveOutcome = (
  | { outcome: "allowed"; checkId: string; captchaRequired: boolean }
  | { outcome: "lockedOut"; retryAfterSeconds: number; captchaRequired: boolean }
  | { outcome: "captchaNeeded"; captchaRequired: true }
  | { outcome: "sessionSpent"; captchaRequired: boolean }
  | { outcome: "sessionBusy"; captchaRequired: false }
) & {
  /** The recovery session whose last answer this was: it ends now. */
  endSession?: string;
};

/** A reserved check, or a login a provider verified (recordFederatedLogin), until its report. */
interface CheckRecord {
  kind: SecretKind | "federated";
  companyId: string;
  /** The user the check is for; absent for a login ID's. */
  userId?: string;
  /** When the check was reserved; for a federated login, when the provider authenticated the user. */
  at: number;
  multiFactor?: boolean;
  /** A secret's: the failure counter it took one of, and the counters a right one forgets. */
  failuresKey?: string;
  forgets?: string[];
  /** A password of a user: the run of wrong passwords it counts in. */
  runKey?: string;
  sessionId?: string;
  sessionTtlMs?: number;
  /**
   * The check took the last failure of its kind before the lock-out (of the window, or of the run
   * of wrong passwords): wrong, it locks the subject out until this time.
   */
  locksUntil?: number;
  /** The marker of the session the check holds (takeTurn). */
  turnKey?: string;
  /**
   * A passkey's: the user's credential generation when it was reserved, which a password-free
   * login's session takes with the user (session-store.ts, advance).
   */
  credentialGeneration?: string;
  /** A passkey's: what identity's verified assertion proved (recordPasskeyProof); without it, no factor. */
  proof?: PasskeyProof;
}

/** What a passkey's assertion identity verified proved (RecordPasskeyProof). */
export interface PasskeyProof {
  userVerified: boolean;
  backedUp: boolean;
}

/** A wrong check that locked its subject out: the user's, when the subject is one. */
export interface LockOut {
  companyId: string;
  userId?: string;
  kind: SecretKind;
  /** When checks of the kind are allowed again (ms since the epoch). */
  until: number;
}

/** A check reported right: whose it was and the factor it proved, for the session that rests on it. */
export interface RightCheck {
  /** Absent for a login ID's. */
  userId?: string;
  /** Absent for a control answer, which is no login factor (a recovery session never authorizes). */
  factor?: Factor;
  /** A passkey's: the user's credential generation when the check was reserved. */
  credentialGeneration?: string;
}

/**
 * A right check read for the move that rests on it, whose report the move's own step makes
 * (docs/performance.md, "Redis round trips per login"): `take` (a compare-and-set, which loses only
 * to another report of it) first, `rest` (the failures it forgets, its turn's end) after the move.
 */
export interface PendingRight {
  right: RightCheck;
  take: Write;
  rest: readonly Write[];
}

export interface Report {
  /** The recovery session whose last wrong answer this was: it ends now. */
  endSession?: string;
  lockedOut?: LockOut;
  right?: RightCheck;
}

const hashOf = (text: string) => createHash("sha256").update(text).digest("base64url");
// Login IDs are e-mails and phone numbers: keys hold a hash of the subject, not the personal data.
const failuresKey = ({ companyId, subject, credentialGeneration }: Holder, kind: SecretKind) =>
  `check-failures:${companyId}:${kind}:${hashOf(
    "userId" in subject ? `user:${subject.userId}:${credentialGeneration}` : `login:${subject.loginId}`,
  )}`;
const runKey = (companyId: string, userId: string, generation: string) =>
  `password-run:${companyId}:${hashOf(`${userId}:${generation}`)}`;
const checkKey = (checkId: string) => `check:${checkId}`;
const answersKey = (sessionId: string) => `answers:${sessionId}`;
const wrongAnswersKey = (sessionId: string) => `wrong-answers:${sessionId}`;
// Only the token's holder can take a session's turn: its id alone (listed to the user) cannot.
const turnKey = (sessionToken: string) => `session-check:${hashOf(sessionToken)}`;
/** A reserved check waits this long for its report; unreported, it stays counted as failed. */
const checkLifetimeMs = 10 * 60_000;
/** A check holds its session's turn this long at most, should its report never come. */
const turnLifetimeMs = 30_000;

/**
 * The budgets of secret checks (docs/security.md, "Guesses per hour at one user"): failures per
 * subject and kind of secret in a window that opens at the first, the lock-out at the company's
 * count, the captcha and the run of wrong passwords for passwords, and the control answers of a
 * recovery session. Every check is reserved before its secret is compared, by one atomic increment
 * that refuses beyond the budget, so that no burst of parallel requests gets more checks than the
 * budget has, and a session checks one secret at a time.
 */
export class CheckBudget {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether the holder's budget of the kind is locked out, and whether its next password needs a
   * captcha. A run of wrong passwords is left out: it refuses passwords alone, when they are
   * reserved, so that the steps before them and recovery stay open.
   */
  async status(holder: Holder, kind: SecretKind, policy: CheckPolicy) {
    return this.statusOf(holder, kind, policy, await this.kv.readCounter(failuresKey(holder, kind)));
  }

  /**
   * The counter of the holder's failures of the kind, with the count that locks it out: what a
   * session's start reads in the step that writes it (writeInOrderBelow), refused at that count.
   */
  lockOutCounter(holder: Holder, kind: SecretKind, policy: CheckPolicy) {
    return { key: failuresKey(holder, kind), ceiling: policy.lockoutAfterFailures };
  }

  /** status, from the counter of the holder's failures of the kind as read. */
  async statusOf(holder: Holder, kind: SecretKind, policy: CheckPolicy, { count, ttlMs }: Counter) {
    const lockedOut = count >= policy.lockoutAfterFailures;
    return {
      lockedOut,
      retryAfterSeconds: lockedOut ? Math.ceil(ttlMs / 1000) : 0,
      captchaRequired:
        kind === "password"
          ? count >= policy.captchaAfterFailures
          : await this.#captchaRequired(holder, policy),
    };
  }

  /**
   * Takes the session's one check at a time: undefined while another check of the same token is
   * under way. An allowed check keeps the turn until it is reported; endTurn gives back any other.
   */
  async takeTurn(sessionToken: string): Promise<SessionTurn | undefined> {
    const turn = { key: turnKey(sessionToken), checkId: newRecordId() };
    return (await this.kv.setIfAbsent(turn.key, turn.checkId, turnLifetimeMs)) ? turn : undefined;
  }

  /** Ends the turn, unless it expired and passed to a later check. */
  async endTurn(turn: SessionTurn): Promise<void> {
    await this.kv.writeInOrder([turnEnd(turn)]);
  }

  async reserve(reservation: Reservation, policy: CheckPolicy): Promise<ReserveOutcome> {
    const { kind, session } = reservation;
    const key = failuresKey(reservation, kind);
    if (session) {
      const answer = await this.kv.incrementBelow(
        answersKey(session.sessionId),
        session.ttlMs,
        answersPerRecoverySession,
      );
      if (!answer.counted) {
        return { outcome: "sessionSpent", captchaRequired: await this.#captchaRequired(reservation, policy) };
      }
    }
    // Only a password can bring a captcha; without one that passed, it gets the checks below the
    // captcha's count, and the lock-out bounds every kind.
    const needsCaptchaPast = kind === "password" && !reservation.captchaPassed;
    const ceiling = needsCaptchaPast
      ? Math.min(policy.captchaAfterFailures, policy.lockoutAfterFailures)
      : policy.lockoutAfterFailures;
    // A user's password also spends the run, first: a burst never gets past it either. Both are
    // counted in one step, or neither.
    const run =
      kind === "password" && "userId" in reservation.subject
        ? runKey(reservation.companyId, reservation.subject.userId, reservation.credentialGeneration)
        : undefined;
    const window = { key, windowMs: policy.failureWindowSeconds * 1000, ceiling };
    const checkId = reservation.turn?.checkId ?? newRecordId();
    const record: CheckRecord = {
      kind,
      companyId: reservation.companyId,
      ...("userId" in reservation.subject ? { userId: reservation.subject.userId } : {}),
      at: this.clock.now(),
      failuresKey: key,
      forgets: [
        ...forgottenBy[kind].map((forgotten) => failuresKey(reservation, forgotten)),
        ...(run ? [run] : []),
      ],
      ...(run !== undefined ? { runKey: run } : {}),
      ...(session ? { sessionId: session.sessionId, sessionTtlMs: session.ttlMs } : {}),
      ...(reservation.turn ? { turnKey: reservation.turn.key } : {}),
      ...(kind === "passkey" ? { credentialGeneration: reservation.credentialGeneration } : {}),
    };
    // The check is recorded in the step that counts it (docs/performance.md, "Redis round trips
    // per login"); the lock-out it may make is known once it is counted.
    const spent = await this.kv.incrementEachBelow(
      run === undefined
        ? [window]
        : [{ key: run, windowMs: passwordRunLifetimeMs, ceiling: passwordFailuresInARun }, window],
      [{ op: "set", key: checkKey(checkId), value: JSON.stringify(record), ttlMs: checkLifetimeMs }],
    );
    const [inRun, counted] = run === undefined ? [undefined, spent.counters[0]] : spent.counters;
    if (counted === undefined) {
      // The run refused: the window was not counted.
      return {
        outcome: "lockedOut",
        retryAfterSeconds: Math.ceil((inRun?.ttlMs ?? 0) / 1000),
        captchaRequired: await this.#captchaRequired(reservation, policy),
      };
    }
    const runEnd =
      spent.counted && inRun?.count === passwordFailuresInARun ? this.clock.now() + inRun.ttlMs : undefined;
    const captchaRequired =
      kind === "password"
        ? counted.count >= policy.captchaAfterFailures
        : await this.#captchaRequired(reservation, policy);
    if (!spent.counted) {
      // A refused answer still spends its session's answer, as a wrong one.
      const endSession =
        session && (await this.#wrongAnswer(session.sessionId, session.ttlMs))
          ? session.sessionId
          : undefined;
      return counted.count >= policy.lockoutAfterFailures
        ? {
            outcome: "lockedOut",
            retryAfterSeconds: Math.ceil(counted.ttlMs / 1000),
            captchaRequired,
            endSession,
          }
        : { outcome: "captchaNeeded", captchaRequired: true, endSession };
    }
    // The check that takes the last failure of the window or of the run: wrong, it locks out. Its
    // caller has not got its id yet, so no report reads it before this.
    const windowEnd =
      counted.count === policy.lockoutAfterFailures ? this.clock.now() + counted.ttlMs : undefined;
    const locksUntil = Math.max(windowEnd ?? 0, runEnd ?? 0);
    if (locksUntil > 0) {
      await this.kv.set(checkKey(checkId), JSON.stringify({ ...record, locksUntil }), checkLifetimeMs);
    }
    return { outcome: "allowed", checkId, captchaRequired };
  }

  /**
   * Records a login a provider verified, as a right check for the session that starts on it. Its
   * time is the provider's, but never later than now: a provider's clock ahead of ours would make
   * the login look fresh for longer.
   */
  async recordFederatedLogin(login: {
    companyId: string;
    userId: string;
    authenticatedAt?: number;
    multiFactor: boolean;
  }): Promise<string> {
    const now = this.clock.now();
    const record: CheckRecord = {
      kind: "federated",
      companyId: login.companyId,
      userId: login.userId,
      at: Math.min(login.authenticatedAt ?? now, now),
      ...(login.multiFactor ? { multiFactor: true } : {}),
    };
    const checkId = newRecordId();
    await this.kv.set(checkKey(checkId), JSON.stringify(record), checkLifetimeMs);
    return checkId;
  }

  /**
   * Records on a reserved passkey check of the company, not yet reported and without a proof, what
   * identity's verified assertion proved; false, and nothing recorded, for any other check.
   */
  async recordPasskeyProof(companyId: string, checkId: string, proof: PasskeyProof): Promise<boolean> {
    const raw = await this.kv.get(checkKey(checkId));
    if (raw === null) return false;
    const record = JSON.parse(raw) as CheckRecord;
    if (record.kind !== "passkey" || record.companyId !== companyId || record.proof) return false;
    const ttlMs = record.at + checkLifetimeMs - this.clock.now();
    if (ttlMs <= 0) return false;
    const proven: CheckRecord = { ...record, proof };
    // Not if it was reported meanwhile.
    return this.kv.compareAndSet(checkKey(checkId), raw, JSON.stringify(proven), ttlMs);
  }

  /** Forgets the holder's failures of every kind. */
  async forget(holder: Holder): Promise<void> {
    await this.kv.writeInOrder(secretKinds.map((kind) => ({ op: "delete", key: failuresKey(holder, kind) })));
  }

  /**
   * What a reserved check found; any report ends the check's turn in its session. A report comes
   * once (a second, or one for an unknown check, does nothing and returns nothing). Returns the
   * recovery session to end, when a wrong answer was its last, whether a wrong secret locked the
   * subject out, and what a right check proved. A passkey check is right only with identity's
   * proof (recordPasskeyProof): reported right without one, it counts as wrong.
   *
   * The wrong check that locks a user out records auth.account.locked (by `origin`) with the write
   * that takes the check: of any number of parallel reports, only the one that takes it, and only
   * for the one check that took the budget's last failure.
   */
  async report(checkId: string, said: "right" | "wrong" | "unchecked", origin: EventOrigin): Promise<Report> {
    const taken = await this.#take(checkId, said, origin);
    if (!taken) return {};
    const { record, result, lockOut } = taken;
    if (result === "right") return { right: rightOf(record) };
    if (result === "unchecked") {
      if (record.failuresKey) await this.kv.decrement(record.failuresKey);
      if (record.runKey) await this.kv.decrement(record.runKey);
      if (record.sessionId) await this.kv.decrement(answersKey(record.sessionId));
      return {};
    }
    const lockedOut = lockOut ? { lockedOut: lockOut } : {};
    if (record.sessionId && (await this.#wrongAnswer(record.sessionId, record.sessionTtlMs ?? 0))) {
      return { endSession: record.sessionId, ...lockedOut };
    }
    return lockedOut;
  }

  /**
   * A check said right, read for the move that rests on it, which makes its report
   * (PendingRight); none when there is no check to rest on. A passkey check without its proof is
   * reported wrong here, with the lock-out it may make.
   */
  async readRight(
    checkId: string,
    origin: EventOrigin,
  ): Promise<{ pending?: PendingRight; lockedOut?: LockOut }> {
    const read = await this.#read(checkId, "right", origin);
    if (!read) return {};
    if (read.result !== "right")
      return { lockedOut: (await this.report(checkId, "right", origin)).lockedOut };
    return { pending: { right: rightOf(read.record), take: read.take, rest: read.rest } };
  }

  /**
   * Takes the reserved check, with what it found and the lock-out a wrong one makes, whose event
   * goes with the write; undefined when there is none to take. Read, then removed only as it was
   * read: a check its passkey's proof changed meanwhile is read again. Once it is taken, the
   * failures a right one forgets are forgotten and its session's turn ends, in the same call.
   */
  async #take(checkId: string, said: "right" | "wrong" | "unchecked", origin: EventOrigin) {
    for (;;) {
      const read = await this.#read(checkId, said, origin);
      if (!read) return undefined;
      const [taken] = await this.kv.writeInOrder([read.take, ...read.rest]);
      if (taken) return read;
    }
  }

  /**
   * The reserved check as read, what it found, and the writes that report it: `take`, then `rest`
   * once it is taken (#take); undefined when there is none.
   */
  async #read(checkId: string, said: "right" | "wrong" | "unchecked", origin: EventOrigin) {
    const raw = await this.kv.get(checkKey(checkId));
    if (raw === null) return undefined;
    const record = JSON.parse(raw) as CheckRecord;
    // Only identity verifies an assertion: a passkey check said right without its proof is wrong.
    const result = said === "right" && record.kind === "passkey" && !record.proof ? "wrong" : said;
    const lockOut = result === "wrong" ? lockOutOf(record) : undefined;
    const forgotten = result === "right" ? (record.forgets ?? []) : [];
    const take: Write = {
      op: "compareAndSet",
      key: checkKey(checkId),
      expected: raw,
      next: null,
      ttlMs: 0,
      ...(lockOut && lockoutEvents(lockOut, origin)),
    };
    const rest: Write[] = [
      ...forgotten.map((key): Write => ({ op: "delete", key })),
      ...(record.turnKey ? [turnEnd({ key: record.turnKey, checkId })] : []),
    ];
    return { record, result, lockOut, take, rest };
  }

  /** Whether the holder's next password needs a captcha: for a check of another kind. */
  async #captchaRequired(holder: Holder, policy: CheckPolicy): Promise<boolean> {
    const { count } = await this.kv.readCounter(failuresKey(holder, "password"));
    return count >= policy.captchaAfterFailures;
  }

  /** Counts a wrong answer of a recovery session; true when it was the last the session may give. */
  async #wrongAnswer(sessionId: string, ttlMs: number): Promise<boolean> {
    const { count } = await this.kv.increment(wrongAnswersKey(sessionId), Math.max(ttlMs, 1));
    return count >= answersPerRecoverySession;
  }
}

/** The end of a session's turn: unless it expired and passed to a later check. */
const turnEnd = ({ key, checkId }: SessionTurn): Write => ({
  op: "compareAndSet",
  key,
  expected: checkId,
  next: null,
  ttlMs: 0,
});

/** What a check reported right proved. */
function rightOf(record: CheckRecord): RightCheck {
  return {
    userId: record.userId,
    factor: factorOf(record),
    ...(record.credentialGeneration !== undefined
      ? { credentialGeneration: record.credentialGeneration }
      : {}),
  };
}

/** The lock-out a check makes, reported wrong: one that took the last failure of its budget. */
function lockOutOf(record: CheckRecord): LockOut | undefined {
  if (record.locksUntil === undefined || record.kind === "federated") return undefined;
  const { companyId, userId, kind, locksUntil: until } = record;
  return { companyId, userId, kind, until };
}

/** The login factor a right check proved: none for a control answer, nor for a passkey without its proof. */
function factorOf(record: CheckRecord): Factor | undefined {
  if (record.kind === "controlAnswer") return undefined;
  if (record.kind === "passkey") {
    if (!record.proof) return undefined;
    const { userVerified, backedUp } = record.proof;
    return { kind: "passkey", at: record.at, userVerified, backedUp };
  }
  return { kind: record.kind, at: record.at, ...(record.multiFactor ? { multiFactor: true } : {}) };
}

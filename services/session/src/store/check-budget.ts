import { createHash } from "node:crypto";
import { type KeyValueStore, newRecordId } from "@auth/kv";

/** The company's limits (the identity service's policy). */
export interface CheckPolicy {
  captchaAfterFailures: number;
  lockoutAfterFailures: number;
  failureWindowSeconds: number;
}

/** Whose failures a check counts: a user's, or an unknown login ID's (normalised). */
export type Subject = { userId: string } | { loginId: string };

export type SecretKind = "password" | "otp" | "backupCode" | "controlAnswer";

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

export interface Reservation {
  companyId: string;
  subject: Subject;
  kind: SecretKind;
  /** A password sent with a captcha the identity service accepted. */
  captchaPassed: boolean;
  /** The recovery session a control answer spends; its lifetime bounds its counters. */
  session?: { sessionId: string; ttlMs: number };
  /** The user's credential generation now (session-store.ts): the run of wrong passwords it counts in. */
  credentialGeneration: string;
}

export type ReserveOutcome = (
  | { outcome: "allowed"; checkId: string; captchaRequired: boolean }
  | { outcome: "lockedOut"; retryAfterSeconds: number; captchaRequired: boolean }
  | { outcome: "captchaNeeded"; captchaRequired: true }
  | { outcome: "sessionSpent"; captchaRequired: boolean }
) & {
  /** The recovery session whose last answer this was: it ends now. */
  endSession?: string;
};

interface CheckRecord {
  failuresKey: string;
  /** A password of a user: the run of wrong passwords it counts in. */
  runKey?: string;
  kind: SecretKind;
  sessionId?: string;
  sessionTtlMs?: number;
  /** The check took the subject's last failure before the lock-out: wrong, it locks the subject out. */
  last?: boolean;
  /** With last, the company and, for a user's subject, the user: told of the lock-out. */
  companyId?: string;
  userId?: string;
}

/** A wrong check that locked its subject out: the user's, when the subject is one. */
export interface LockOut {
  companyId: string;
  userId?: string;
}

// Login IDs are e-mails and phone numbers: keys hold a hash of the subject, not the personal data.
const failuresKey = (companyId: string, subject: Subject) =>
  `check-failures:${companyId}:${createHash("sha256")
    .update("userId" in subject ? `user:${subject.userId}` : `login:${subject.loginId}`)
    .digest("base64url")}`;
const runKey = (companyId: string, userId: string, generation: string) =>
  `password-run:${companyId}:${createHash("sha256").update(`${userId}:${generation}`).digest("base64url")}`;
const checkKey = (checkId: string) => `check:${checkId}`;
const answersKey = (sessionId: string) => `answers:${sessionId}`;
const wrongAnswersKey = (sessionId: string) => `wrong-answers:${sessionId}`;
/** A reserved check waits this long for its report; unreported, it stays counted as failed. */
const checkLifetimeMs = 10 * 60_000;

/**
 * The budgets of secret checks (docs/security.md, "Guesses per hour"): failures per subject in a
 * window that opens at the first, the lock-out and the captcha at the company's counts, and the
 * control answers of a recovery session. Every check is reserved before its secret is compared, by
 * one atomic increment that refuses beyond the budget, so that no burst of parallel requests gets
 * more checks than the budget has; a right secret forgets the failures.
 */
export class CheckBudget {
  constructor(private readonly kv: KeyValueStore) {}

  /**
   * Whether the subject is locked out, and whether its next password needs a captcha. A run of
   * wrong passwords is left out: it refuses passwords alone, when they are reserved, so that the
   * steps before them and recovery stay open.
   */
  async status(companyId: string, subject: Subject, policy: CheckPolicy) {
    const { count, ttlMs } = await this.kv.readCounter(failuresKey(companyId, subject));
    return {
      lockedOut: count >= policy.lockoutAfterFailures,
      retryAfterSeconds: count >= policy.lockoutAfterFailures ? Math.ceil(ttlMs / 1000) : 0,
      captchaRequired: count >= policy.captchaAfterFailures,
    };
  }

  async reserve(reservation: Reservation, policy: CheckPolicy): Promise<ReserveOutcome> {
    const key = failuresKey(reservation.companyId, reservation.subject);
    const { session } = reservation;
    if (session) {
      const answer = await this.kv.incrementBelow(
        answersKey(session.sessionId),
        session.ttlMs,
        answersPerRecoverySession,
      );
      if (!answer.counted) return { outcome: "sessionSpent", captchaRequired: false };
    }
    // Only a password can bring a captcha; without one that passed, it gets the checks below the
    // captcha's count, and the lock-out bounds every kind.
    const needsCaptchaPast = reservation.kind === "password" && !reservation.captchaPassed;
    const ceiling = needsCaptchaPast
      ? Math.min(policy.captchaAfterFailures, policy.lockoutAfterFailures)
      : policy.lockoutAfterFailures;
    // A user's password also spends the run, first: a burst never gets past it either.
    const run =
      reservation.kind === "password" && "userId" in reservation.subject
        ? runKey(reservation.companyId, reservation.subject.userId, reservation.credentialGeneration)
        : undefined;
    let runCount = 0;
    if (run !== undefined) {
      const inRun = await this.kv.incrementBelow(run, passwordRunLifetimeMs, passwordFailuresInARun);
      runCount = inRun.count;
      if (!inRun.counted) {
        const { captchaRequired } = await this.status(reservation.companyId, reservation.subject, policy);
        return { outcome: "lockedOut", retryAfterSeconds: Math.ceil(inRun.ttlMs / 1000), captchaRequired };
      }
    }
    const counted = await this.kv.incrementBelow(key, policy.failureWindowSeconds * 1000, ceiling);
    const captchaRequired = counted.count >= policy.captchaAfterFailures;
    if (!counted.counted) {
      if (run !== undefined) await this.kv.decrement(run);
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
    const checkId = newRecordId();
    const record: CheckRecord = {
      failuresKey: key,
      ...(run !== undefined ? { runKey: run } : {}),
      kind: reservation.kind,
      ...(session ? { sessionId: session.sessionId, sessionTtlMs: session.ttlMs } : {}),
      // The check that takes the last failure of the window or of the run: wrong, it locks out.
      ...(counted.count === policy.lockoutAfterFailures || runCount === passwordFailuresInARun
        ? {
            last: true,
            companyId: reservation.companyId,
            ...("userId" in reservation.subject ? { userId: reservation.subject.userId } : {}),
          }
        : {}),
    };
    await this.kv.set(checkKey(checkId), JSON.stringify(record), checkLifetimeMs);
    return { outcome: "allowed", checkId, captchaRequired };
  }

  /** Forgets the subject's failures. */
  async forget(companyId: string, subject: Subject): Promise<void> {
    await this.kv.delete(failuresKey(companyId, subject));
  }

  /**
   * What a reserved check found. A report comes once (a second, or one for an unknown check, does
   * nothing). Returns the recovery session to end, when a wrong answer was its last, and whether a
   * wrong secret locked the subject out.
   */
  async report(
    checkId: string,
    result: "right" | "wrong" | "unchecked",
  ): Promise<{ endSession?: string; lockedOut?: LockOut }> {
    const raw = await this.kv.take(checkKey(checkId));
    if (raw === null) return {};
    const record = JSON.parse(raw) as CheckRecord;
    if (result === "right") {
      await this.kv.delete(record.failuresKey);
      if (record.runKey) await this.kv.delete(record.runKey);
      return {};
    }
    if (result === "unchecked") {
      await this.kv.decrement(record.failuresKey);
      if (record.runKey) await this.kv.decrement(record.runKey);
      if (record.sessionId) await this.kv.decrement(answersKey(record.sessionId));
      return {};
    }
    const lockedOut = record.last
      ? { lockedOut: { companyId: record.companyId ?? "", userId: record.userId } }
      : {};
    if (record.sessionId && (await this.#wrongAnswer(record.sessionId, record.sessionTtlMs ?? 0))) {
      return { endSession: record.sessionId, ...lockedOut };
    }
    return lockedOut;
  }

  /** Counts a wrong answer of a recovery session; true when it was the last the session may give. */
  async #wrongAnswer(sessionId: string, ttlMs: number): Promise<boolean> {
    const { count } = await this.kv.increment(wrongAnswersKey(sessionId), Math.max(ttlMs, 1));
    return count >= answersPerRecoverySession;
  }
}

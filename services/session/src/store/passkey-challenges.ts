import { randomBytes } from "node:crypto";
import { AuthError } from "@auth/errors";
import type { KeyValueStore } from "@auth/kv";
import { PasskeyCeremony, SessionState } from "@auth/proto/session";
import { endOf, type SessionRecord, type SessionStore } from "./session-store.js";

/** The ceremonies a challenge may be issued for. */
export type Ceremony = PasskeyCeremony.LOGIN | PasskeyCeremony.REGISTRATION;

/** The states a session is in for each ceremony: a login's steps, or an authorized session's enrolment. */
const statesOf: Record<Ceremony, ReadonlySet<SessionState>> = {
  [PasskeyCeremony.LOGIN]: new Set([SessionState.CHECKPASSWORD, SessionState.CHECKOTP]),
  [PasskeyCeremony.REGISTRATION]: new Set([SessionState.AUTHORIZED]),
};

/** A session's challenge, with what it was issued for. */
interface StoredChallenge {
  challenge: string;
  ceremony: Ceremony;
  /** The session's state at issue: a session that moved on since has no challenge. */
  state: SessionState;
}

// By the session id: one challenge per session, whatever its token (a move rotates it).
const challengeKey = (sessionId: string) => `passkey-challenge:${sessionId}`;

/**
 * The WebAuthn challenges of sessions, for identity's ceremonies (docs/decisions.md, "Passkeys"):
 * one per session, replaced by a newer one, gone with the session, and taken in one atomic step so
 * that it serves one assertion or registration only.
 */
export class PasskeyChallenges {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly sessions: SessionStore,
  ) {}

  /**
   * A new challenge (32 random bytes, base64url) bound to the token's session, which must be active
   * and in a state of the ceremony (auth.session.invalid otherwise); it replaces the session's
   * earlier one and lives as long as the session does.
   */
  async issue(token: string, ceremony: Ceremony): Promise<{ challenge: string; session: SessionRecord }> {
    const session = await this.#active(token);
    if (!statesOf[ceremony].has(session.state))
      throw new AuthError("auth.session.invalid", { detail: "the session's state has no such ceremony" });
    const stored: StoredChallenge = {
      challenge: randomBytes(32).toString("base64url"),
      ceremony,
      state: session.state,
    };
    const ttlMs = endOf(session) - this.sessions.now();
    if (ttlMs <= 0) throw new AuthError("auth.token.expired");
    await this.kv.set(challengeKey(session.sessionId), JSON.stringify(stored), ttlMs);
    return { challenge: stored.challenge, session };
  }

  /**
   * Takes the token's session's challenge, once: it is answered only when it was issued for the
   * ceremony and the session is still in the state it was issued in. The session is answered
   * whatever became of its challenge.
   */
  async take(token: string, ceremony: Ceremony): Promise<{ challenge?: string; session: SessionRecord }> {
    const session = await this.#active(token);
    const raw = await this.kv.take(challengeKey(session.sessionId));
    if (raw === null) return { session };
    const stored = JSON.parse(raw) as StoredChallenge;
    if (stored.ceremony !== ceremony || stored.state !== session.state) return { session };
    return { challenge: stored.challenge, session };
  }

  /** The token's active session: auth.token.invalid or auth.token.expired otherwise. */
  async #active(token: string): Promise<SessionRecord> {
    const found = await this.sessions.introspect(token);
    if (found.status === "invalid") throw new AuthError("auth.token.invalid");
    if (found.status === "expired") throw new AuthError("auth.token.expired");
    return found.session;
  }
}

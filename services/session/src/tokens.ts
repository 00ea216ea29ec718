import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const sessionIdBytes = 16;
const secretBytes = 32;

export interface IssuedToken {
  /** Given to the client once; never stored. */
  token: string;
  /** What the store keeps. */
  hash: string;
}

export interface PresentedToken {
  sessionId: string;
  hash: string;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function newSessionId(): string {
  return randomBytes(sessionIdBytes).toString("base64url");
}

/**
 * A token is the session id and 256 random bits, base64url: opaque to clients, and the session
 * id inside lets the store find the session under one key (one Redis Cluster slot).
 */
export function issueToken(sessionId: string): IssuedToken {
  const token = Buffer.concat([Buffer.from(sessionId, "base64url"), randomBytes(secretBytes)]).toString(
    "base64url",
  );
  return { token, hash: hashToken(token) };
}

/** Reads a token a client presented; null when it cannot be one of ours. */
export function readToken(token: string): PresentedToken | null {
  if (!/^[A-Za-z0-9_-]{64}$/.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length !== sessionIdBytes + secretBytes) return null;
  return { sessionId: bytes.subarray(0, sessionIdBytes).toString("base64url"), hash: hashToken(token) };
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

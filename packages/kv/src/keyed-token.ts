import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const idBytes = 16;
const secretBytes = 32;

export interface IssuedToken {
  /** Given to the client once; never stored. */
  token: string;
  /** What the store keeps. */
  hash: string;
}

export interface PresentedToken {
  /** The id of the record the token belongs to. */
  id: string;
  hash: string;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** 128 random bits, base64url: the id of a record that a token unlocks. */
export function newRecordId(): string {
  return randomBytes(idBytes).toString("base64url");
}

/**
 * A token is a record id and 256 random bits, base64url: opaque to clients, and the id inside
 * lets the store find its record under one key (one Redis Cluster slot) and compare the hash.
 */
export function issueToken(recordId: string): IssuedToken {
  const token = Buffer.concat([Buffer.from(recordId, "base64url"), randomBytes(secretBytes)]).toString(
    "base64url",
  );
  return { token, hash: hashToken(token) };
}

/** Reads a token a client presented; null when it cannot be one of ours. */
export function readToken(token: string): PresentedToken | null {
  if (!/^[A-Za-z0-9_-]{64}$/.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length !== idBytes + secretBytes) return null;
  return { id: bytes.subarray(0, idBytes).toString("base64url"), hash: hashToken(token) };
}

/** Compares two token hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

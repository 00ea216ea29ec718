import { createHash } from "node:crypto";
import type { KeyValueStore } from "@auth/kv";

export interface FailureCount {
  failures: number;
  retryAfterSeconds: number;
}

// Login IDs are e-mails and phone numbers: keys hold their hash, not the personal data.
const failureKey = (companyId: string, loginId: string) =>
  `login-failures:${companyId}:${createHash("sha256").update(loginId).digest("base64url")}`;

const toCount = ({ count, ttlMs }: { count: number; ttlMs: number }): FailureCount => ({
  failures: count,
  retryAfterSeconds: Math.ceil(ttlMs / 1000),
});

/** Failed secret attempts per login ID, in a window that starts at the first failure. */
export class LoginFailures {
  constructor(private readonly kv: KeyValueStore) {}

  async read(companyId: string, loginId: string): Promise<FailureCount> {
    return toCount(await this.kv.readCounter(failureKey(companyId, loginId)));
  }

  async record(companyId: string, loginId: string, windowSeconds: number): Promise<FailureCount> {
    return toCount(await this.kv.increment(failureKey(companyId, loginId), windowSeconds * 1000));
  }

  async reset(companyId: string, loginId: string): Promise<void> {
    await this.kv.delete(failureKey(companyId, loginId));
  }
}

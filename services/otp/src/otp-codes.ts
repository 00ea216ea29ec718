import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

/** Six digits from the CSPRNG. */
export function generateOtp(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/**
 * OTPs have only a million values, so a plain hash would be reversed at once: they are stored as
 * an HMAC under a secret the store never sees.
 */
export class OtpHasher {
  constructor(private readonly secret: Buffer) {}

  hash(otp: string): string {
    return createHmac("sha256", this.secret).update(otp).digest("base64url");
  }

  matches(otp: string, storedHash: string): boolean {
    const presented = Buffer.from(this.hash(otp));
    const stored = Buffer.from(storedHash);
    return presented.length === stored.length && timingSafeEqual(presented, stored);
  }
}

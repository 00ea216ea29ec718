import { randomBytes } from "node:crypto";
import type { SecretBox } from "@auth/runtime";

/** A webhook's sealed secrets, as its row keeps them. */
export interface SealedSecrets {
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
}

/** A new signing secret: "whsec_" and 24 random bytes in base64, as Standard Webhooks reads it. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** Until when the secret a rotation replaced still signs; undefined once only the current one does. */
export function previousSecretSignsUntil(secrets: SealedSecrets, now: Date): Date | undefined {
  const until = secrets.previousSecretExpiresAt;
  return secrets.previousSecretSealed !== null && until !== null && until.getTime() > now.getTime()
    ? until
    : undefined;
}

/**
 * The secrets that sign at `now`, opened: the current one, then the one a rotation replaced while
 * its overlap lasts (docs/decisions.md, "Audit trail and webhooks").
 */
export function signingSecrets(secrets: SealedSecrets, box: SecretBox, now: Date): string[] {
  const previous = previousSecretSignsUntil(secrets, now) ? secrets.previousSecretSealed : null;
  return [box.open(secrets.secretSealed), ...(previous === null ? [] : [box.open(previous)])];
}

import { generateSecret, generateURI, verify } from "otplib";

/**
 * The authenticator app's codes (RFC 6238 with the defaults every app reads: SHA-1, 6 digits, a
 * 30-second step). A code of the step before or after now is accepted too, for clocks that drift
 * and codes typed at a step's end (docs/security.md, "TOTP").
 */
const period = 30;
const toleranceSeconds = period;

/** A new secret: 160 random bits (RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return generateURI({ issuer, label, secret, period, digits: 6 });
}

/**
 * The time step the code belongs to, within ±1 step of `epochSeconds`; undefined when it is none
 * of them. Whether the step is still unused is the store's to decide, atomically.
 */
export async function totpStepOf(
  secret: string,
  code: string,
  epochSeconds = Math.floor(Date.now() / 1000),
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epoch: epochSeconds,
    period,
    epochTolerance: toleranceSeconds,
  });
  // A TOTP result names its step; the union's other member is HOTP's.
  return result.valid && "timeStep" in result ? result.timeStep : undefined;
}

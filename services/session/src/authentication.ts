import { type Authentication, FactorKind } from "@auth/proto/introspection";

/** A factor a session rests on, as the session keeps it. */
export interface Factor {
  kind: "password" | "smsCode" | "appCode" | "backupCode" | "federated" | "passkey";
  /** When it was passed, in milliseconds since the epoch. */
  at: number;
  /** Federated: the provider proved a multi-factor login, and the company's slot trusts such proof. */
  multiFactor?: boolean;
  /** Passkey: the authenticator verified the user (PIN, biometrics), so it counts for both factors. */
  userVerified?: boolean;
  /** Passkey: the credential is backed up (synced between devices). */
  backedUp?: boolean;
}

const kinds: Record<Factor["kind"], FactorKind> = {
  password: FactorKind.PASSWORD,
  smsCode: FactorKind.SMS_CODE,
  appCode: FactorKind.APP_CODE,
  backupCode: FactorKind.BACKUP_CODE,
  federated: FactorKind.FEDERATED,
  passkey: FactorKind.PASSKEY,
};

/** RFC 8176's values: a passkey is a software-secured key when synced, else a hardware-secured one. */
function amrOf(factor: Factor): string {
  switch (factor.kind) {
    case "password":
      return "pwd";
    case "smsCode":
      return "sms";
    case "appCode":
    case "backupCode":
      return "otp";
    case "federated":
      return "fed";
    case "passkey":
      return factor.backedUp ? "swk" : "hwk";
  }
}

const primary = new Set<Factor["kind"]>(["password", "federated"]);
const secondary = new Set<Factor["kind"]>(["smsCode", "appCode", "backupCode", "passkey"]);

/**
 * Level 2 (docs/decisions.md, "Passkeys"): a factor the user knows (or a provider's login) and one
 * the user has, a provider's login whose multi-factor proof the company trusts, or a user-verified
 * passkey, which is both at once; a passkey that did not verify the user is one factor.
 */
function levelOf(factors: readonly Factor[]): number {
  const multiFactor = factors.some(
    (factor) =>
      (factor.kind === "federated" && factor.multiFactor) ||
      (factor.kind === "passkey" && factor.userVerified),
  );
  const twoFactors =
    factors.some((factor) => primary.has(factor.kind)) &&
    factors.some((factor) => secondary.has(factor.kind));
  if (multiFactor || twoFactors) return 2;
  return factors.length > 0 ? 1 : 0;
}

/** How a session was authenticated, from its factors in the order passed (docs/api-contract.md, "Assurance"). */
export function authenticationOf(factors: readonly Factor[]): Authentication {
  const level = levelOf(factors);
  return {
    level,
    amr: [...new Set(factors.map(amrOf)), ...(level === 2 ? ["mfa"] : [])],
    factors: factors.map((factor) => ({
      kind: kinds[factor.kind],
      amr: amrOf(factor),
      authenticatedAt: new Date(factor.at),
      multiFactor: factor.multiFactor ?? false,
      userVerified: factor.userVerified ?? false,
    })),
    authenticatedAt:
      factors.length > 0 ? new Date(Math.max(...factors.map((factor) => factor.at))) : undefined,
  };
}

import { type Authentication, FactorKind } from "@auth/proto/introspection";

/** A factor a session rests on, as the session keeps it. */
export interface Factor {
  kind: "password" | "smsCode" | "appCode" | "backupCode" | "federated";
  /** When it was passed, in milliseconds since the epoch. */
  at: number;
  /** Federated: the provider proved a multi-factor login, and the company's slot trusts such proof. */
  multiFactor?: boolean;
}

const kinds: Record<Factor["kind"], FactorKind> = {
  password: FactorKind.PASSWORD,
  smsCode: FactorKind.SMS_CODE,
  appCode: FactorKind.APP_CODE,
  backupCode: FactorKind.BACKUP_CODE,
  federated: FactorKind.FEDERATED,
};

/** RFC 8176's values. */
const amrOf: Record<Factor["kind"], string> = {
  password: "pwd",
  smsCode: "sms",
  appCode: "otp",
  backupCode: "otp",
  federated: "fed",
};

const primary = new Set<Factor["kind"]>(["password", "federated"]);
const secondary = new Set<Factor["kind"]>(["smsCode", "appCode", "backupCode"]);

function levelOf(factors: readonly Factor[]): number {
  const trustedMultiFactor = factors.some((factor) => factor.kind === "federated" && factor.multiFactor);
  const twoFactors =
    factors.some((factor) => primary.has(factor.kind)) &&
    factors.some((factor) => secondary.has(factor.kind));
  if (trustedMultiFactor || twoFactors) return 2;
  return factors.length > 0 ? 1 : 0;
}

/** How a session was authenticated, from its factors in the order passed (docs/api-contract.md, "Assurance"). */
export function authenticationOf(factors: readonly Factor[]): Authentication {
  const level = levelOf(factors);
  return {
    level,
    amr: [...new Set(factors.map((factor) => amrOf[factor.kind])), ...(level === 2 ? ["mfa"] : [])],
    factors: factors.map((factor) => ({
      kind: kinds[factor.kind],
      amr: amrOf[factor.kind],
      authenticatedAt: new Date(factor.at),
      multiFactor: factor.multiFactor ?? false,
    })),
    authenticatedAt:
      factors.length > 0 ? new Date(Math.max(...factors.map((factor) => factor.at))) : undefined,
  };
}

import { type Authentication, FactorKind } from "@auth/proto/introspection";
import { z } from "zod";

const factorKindNames = {
  [FactorKind.PASSWORD]: "password",
  [FactorKind.SMS_CODE]: "sms_code",
  [FactorKind.APP_CODE]: "app_code",
  [FactorKind.BACKUP_CODE]: "backup_code",
  [FactorKind.FEDERATED]: "federated",
  [FactorKind.PASSKEY]: "passkey",
} as const;

type FactorKindName = (typeof factorKindNames)[keyof typeof factorKindNames];

const names = Object.values(factorKindNames) as [FactorKindName, ...FactorKindName[]];

const time = (description: string) => z.string().describe(`${description} (RFC 3339, UTC)`);

/** How a session was authenticated, as the API shows it (docs/api-contract.md, "Assurance"). */
export const authentication = z
  .strictObject({
    level: z
      .number()
      .int()
      .min(0)
      .max(2)
      .describe("Authentication assurance level (NIST SP 800-63B-4): 1 with one factor, 2 with two"),
    amr: z.array(z.string()).describe("RFC 8176 authentication method references, each once; mfa at level 2"),
    factors: z
      .array(
        z.strictObject({
          kind: z.enum(names),
          amr: z.string().describe("Its RFC 8176 value"),
          authenticated_at: time("When it was passed; a provider's login, when the provider says"),
          user_verified: z
            .boolean()
            .optional()
            .describe("A passkey only: the authenticator verified the user (a PIN, biometrics)"),
        }),
      )
      .describe("The factors the session rests on, in the order they were passed"),
    authenticated_at: time("When the latest factor was passed").optional(),
  })
  .describe("How the session was authenticated");

/** The session service's account of a session's authentication, as the API shows it. */
export function authenticationOf(given: Authentication | undefined): z.output<typeof authentication> {
  return {
    level: given?.level ?? 0,
    amr: given?.amr ?? [],
    factors: (given?.factors ?? []).flatMap((factor) => {
      const kind = factorKindNames[factor.kind as keyof typeof factorKindNames];
      return kind === undefined
        ? []
        : [
            {
              kind,
              amr: factor.amr,
              authenticated_at: (factor.authenticatedAt ?? new Date(0)).toISOString(),
              user_verified: factor.kind === FactorKind.PASSKEY ? factor.userVerified : undefined,
            },
          ];
    }),
    authenticated_at: given?.authenticatedAt?.toISOString(),
  };
}

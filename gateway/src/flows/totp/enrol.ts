import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { userChangingFactors } from "../../steps/factor-change.js";

const body = z.object({});

const responses = success({
  otpauth_uri: z
    .string()
    .describe("The otpauth:// URI of the new secret, for the authenticator app (as a QR code)"),
  secret: z.string().describe("The same secret in base32, for typing into the app by hand"),
});

/**
 * Beyond the spec (docs/api-contract.md, "Authenticator app"): the signed-in user starts enrolling
 * an authenticator app (TOTP), from a session whose authentication is fresh and complete
 * (steps/factor-change.ts). The new secret is pending until auth/totp/confirm proves a code of it;
 * an app enrolled before keeps working until then.
 */
export const totpEnrol = defineEndpoint({
  operation: "totp/enrol",
  summary: "Start enrolling an authenticator app (TOTP)",
  body,
  responses,
  examples: {
    request: {},
    answers: [
      {
        otpauth_uri:
          "otpauth://totp/Acme:ann%40acme.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Acme&period=30&digits=6",
        secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
      },
    ],
  },
  steps: [userChangingFactors],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await userChangingFactors(context);
  const { otpauthUri, secret } = await context.backends.identity.beginTotpEnrolment({
    companyId: context.company.id,
    userId: user.id,
  });
  return { otpauth_uri: otpauthUri, secret };
}

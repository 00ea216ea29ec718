import { AuthError } from "@auth/errors";
import { createServiceClient } from "@auth/grpc-kit";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import {
  CaptchaProvider,
  type CompanyPolicy,
  IdentityServiceService,
  UserStatus,
} from "@auth/proto/identity";

export const demoCompanyCode = "demo";

/** The demo users: one with a password, one without (SMS OTP), one with a password and 2FA. */
export const demoUsers = [
  { loginName: "alice", password: "alice-password-1", phone: "+12015550101", secondFactor: false },
  { loginName: "bob", password: undefined, phone: "+12015550102", secondFactor: false },
  { loginName: "carol", password: "carol-password-1", phone: "+12015550103", secondFactor: true },
] as const;

/** DESIGN.md's defaults (zero means default), with the dev captcha: it accepts `dev-captcha-pass`. */
const demoPolicy = (recoveryPage: string): CompanyPolicy => ({
  twoFactorRoles: [],
  defaultPhoneRegion: "US",
  loginIdKindsByRole: {},
  captchaAfterFailures: 0,
  lockoutAfterFailures: 0,
  failureWindowSeconds: 0,
  preauthSessionSeconds: 0,
  authorizedSessionSeconds: 0,
  captcha: { provider: CaptchaProvider.DEV, secret: "" },
  recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: recoveryPage },
});

/** Every demo user can recover access by this question too. */
export const demoControlQuestion = { question: "What is the name of the demo company?", answer: "Demo" };

export const demoDisclaimer = {
  code: "terms",
  title: "Terms of use",
  description: "The rules for using the demo company's services.",
  link: "https://example.com/demo/terms",
};

async function ignoreExisting(call: Promise<unknown>): Promise<void> {
  await call.catch((error: unknown) => {
    if (!(error instanceof AuthError && error.code === "resource.exists")) throw error;
  });
}

/**
 * Creates the demo company, its users, a disclaimer and the API key through the services' gRPC
 * APIs, as an operator would. Safe to run again: what exists is left as it is.
 */
export interface SeedTarget {
  addresses: { identity: string; disclaimer: string };
  /** The operator's credential: the seed uses the same administrative API as authctl. */
  adminToken: string;
}

export async function seedDemo(target: SeedTarget, apiKey: string, recoveryPage: string): Promise<void> {
  const options = { deadlineMs: 10_000, adminToken: target.adminToken };
  const identity = createServiceClient(IdentityServiceService, target.addresses.identity, options);
  const disclaimer = createServiceClient(DisclaimerServiceService, target.addresses.disclaimer, options);
  try {
    const existing = await identity.getCompany({ code: demoCompanyCode }).catch((error: unknown) => {
      if (error instanceof AuthError && error.code === "resource.notfound") return undefined;
      throw error;
    });
    const company =
      existing?.company ??
      (
        await identity.createCompany({
          code: demoCompanyCode,
          name: "Demo Company",
          policy: demoPolicy(recoveryPage),
        })
      ).company;
    if (!company) throw new Error("identity returned no company");

    await ignoreExisting(identity.createApiKey({ companyId: company.id, apiKey, label: "demo" }));
    for (const user of demoUsers) {
      await ignoreExisting(
        identity.createUser({
          companyId: company.id,
          role: "customer",
          profileMnemocode: `DEMO-${user.loginName.toUpperCase()}`,
          loginName: user.loginName,
          phone: user.phone,
          email: `${user.loginName}@demo.example`,
          password: user.password,
          status: UserStatus.ACTIVE,
          secondFactorRequired: user.secondFactor,
          passwordChangeRequired: false,
          controlQuestion: demoControlQuestion.question,
          controlAnswer: demoControlQuestion.answer,
        }),
      );
    }
    await ignoreExisting(disclaimer.createDisclaimer({ companyId: company.id, ...demoDisclaimer }));
  } finally {
    identity.close();
    disclaimer.close();
  }
}

import { isDeepStrictEqual } from "node:util";
import { AuthError } from "@auth/errors";
import { companyPolicy, createServiceClient, type GrpcTransport } from "@auth/grpc-kit";
import { pageRoutes } from "@auth/login-page";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import {
  CaptchaProvider,
  type CompanyPolicy,
  IdentityServiceService,
  type PasskeySettings,
  UserStatus,
} from "@auth/proto/identity";

export const demoCompanyCode = "demo";

/**
 * The demo users: one with a password, one without (SMS OTP), one with a password and 2FA, and one
 * who must choose a new password at the next login.
 */
export const demoUsers = [
  {
    loginName: "alice",
    password: "alice-password-1",
    phone: "+12015550101",
    secondFactor: false,
    mustChangePassword: false,
  },
  {
    loginName: "bob",
    password: undefined,
    phone: "+12015550102",
    secondFactor: false,
    mustChangePassword: false,
  },
  {
    loginName: "carol",
    password: "carol-password-1",
    phone: "+12015550103",
    secondFactor: true,
    mustChangePassword: false,
  },
  {
    loginName: "dave",
    password: "dave-password-1",
    phone: "+12015550104",
    secondFactor: false,
    mustChangePassword: true,
  },
] as const;

/**
 * What follows the login page of a start: the recovery e-mails link to it, and its origin is the
 * relying party of the company's passkeys, which may replace the password (docs/decisions.md,
 * "Passkeys"). The page is opened by its host name: an RP ID is never an IP address.
 */
function followingThePage(loginPage: string): { linkBase: string; passkeys: PasskeySettings } {
  const page = new URL(loginPage);
  return {
    linkBase: `${page.origin}${pageRoutes.recoveryLink}`,
    passkeys: { rpId: page.hostname, origins: [page.origin], allowPasswordless: true },
  };
}

/**
 * The policy defaults (zero means default: docs/api-contract.md, "Company policy defaults"), with
 * the dev captcha: it accepts `dev-captcha-pass`. No password regex: no composition rule, only
 * the rules every company has (docs/security.md, "Passwords").
 */
function demoPolicy(loginPage: string): CompanyPolicy {
  const { linkBase, passkeys } = followingThePage(loginPage);
  return companyPolicy({
    defaultPhoneRegion: "US",
    captcha: { provider: CaptchaProvider.DEV, secret: "" },
    recovery: { order: [], disabled: [], disabledByRole: {}, linkBase },
    passkeys,
  });
}

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

export interface SeedTarget {
  addresses: { identity: string; disclaimer: string };
  /** The operator's credentials: the seed uses the same administrative API as authctl. */
  adminToken: string;
  transportOf(holder: "operator"): GrpcTransport;
}

/**
 * Creates the demo company, its users, a disclaimer and the API key through the services' gRPC
 * APIs, as an operator would. Safe to run again: what exists is left as it is, but for the recovery
 * link and the passkeys' relying party, which follow the login page of this start (its origin,
 * `http://localhost:<port>`).
 */
export async function seedDemo(target: SeedTarget, apiKey: string, loginPage: string): Promise<void> {
  const options = {
    deadlineMs: 10_000,
    adminToken: target.adminToken,
    transport: target.transportOf("operator"),
  };
  const identity = createServiceClient(IdentityServiceService, target.addresses.identity, {
    ...options,
    server: "identity",
  });
  const disclaimer = createServiceClient(DisclaimerServiceService, target.addresses.disclaimer, {
    ...options,
    server: "disclaimer",
  });
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
          policy: demoPolicy(loginPage),
        })
      ).company;
    if (!company?.policy) throw new Error("identity returned no company");
    const { recovery, passkeys } = company.policy;
    const wanted = followingThePage(loginPage);
    if (
      recovery &&
      (recovery.linkBase !== wanted.linkBase || !isDeepStrictEqual(passkeys, wanted.passkeys))
    ) {
      await identity.updateCompany({
        companyId: company.id,
        policy: {
          ...company.policy,
          recovery: { ...recovery, linkBase: wanted.linkBase },
          passkeys: wanted.passkeys,
        },
      });
    }

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
          passwordChangeRequired: user.mustChangePassword,
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

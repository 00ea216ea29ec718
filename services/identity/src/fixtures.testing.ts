import { randomBytes, randomInt } from "node:crypto";
import { companyPolicy, type ServiceClient } from "@auth/grpc-kit/client";
import {
  CaptchaProvider,
  type CompanyPolicy,
  type IdentityServiceService,
  type OAuthProviderSettings,
  ProviderKind,
  type User,
  UserStatus,
} from "@auth/proto/identity";

// `@auth/identity/fixtures`: companies, users and an OAuth provider for tests that reach identity
// over gRPC, without the service's server side that `@auth/identity/testing` loads to run it in
// the test's process.

export { TestOAuth2Provider } from "./oauth/oauth2-provider.testing.js";

type Admin = Pick<
  ServiceClient<typeof IdentityServiceService>,
  "createCompany" | "createApiKey" | "createUser"
>;

/**
 * A company of its own for a test, with an API key, through the identity service's admin API: the
 * policy's defaults unless overridden, the dev captcha, and rate limits no test of one address
 * reaches (the rate-limit tests set their own).
 */
export async function seedCompany(identity: Admin, overrides: Partial<CompanyPolicy> = {}) {
  const code = `t${randomBytes(5).toString("hex")}`;
  const policy = companyPolicy({
    // Tests make many requests from one address; the rate-limit tests set their own limits.
    rateLimitPerAddressPerMinute: 1_000_000,
    rateLimitPerLoginIdPerMinute: 1_000_000,
    captcha: { provider: CaptchaProvider.DEV, secret: "" },
    ...overrides,
  });
  const { company } = await identity.createCompany({ code, name: `Test ${code}`, policy });
  if (!company?.policy) throw new Error("no company");
  const { apiKey } = await identity.createApiKey({ companyId: company.id, label: "tests" });
  return { id: company.id, code, apiKey, policy: company.policy };
}

export interface UserOptions {
  password?: string | null;
  status?: UserStatus;
  role?: string;
  secondFactorRequired?: boolean;
  passwordChangeRequired?: boolean;
  phone?: string | null;
  email?: string | null;
  controlQuestion?: string;
  controlAnswer?: string;
}

export interface TestUser {
  id: string;
  loginName: string;
  email: string;
  phone: string;
  password: string | undefined;
  profileMnemocode: string;
  user: User;
}

const areaCodes = ["201", "202", "212", "213", "305", "312", "415", "617", "702", "713"];

/** A random valid US number (80 million of them), so that tests never read each other's SMS. */
export function randomPhone(): string {
  const area = areaCodes[randomInt(areaCodes.length)];
  const exchange = String(randomInt(200, 1000)).replace(/11$/, "55");
  return `+1${area}${exchange}${String(randomInt(0, 10_000)).padStart(4, "0")}`;
}

/** An active customer with a login name, phone, e-mail and password, unless the options say otherwise. */
export async function seedUser(
  identity: Admin,
  companyId: string,
  options: UserOptions = {},
): Promise<TestUser> {
  const name = `user${randomBytes(4).toString("hex")}`;
  const password =
    options.password === null ? undefined : (options.password ?? `pw-${randomBytes(6).toString("hex")}`);
  const phone = options.phone === null ? undefined : (options.phone ?? randomPhone());
  const { user } = await identity.createUser({
    companyId,
    role: options.role ?? "customer",
    profileMnemocode: `P-${name}`,
    loginName: name,
    phone,
    email: options.email === null ? undefined : (options.email ?? `${name}@example.com`),
    password,
    status: options.status ?? UserStatus.ACTIVE,
    secondFactorRequired: options.secondFactorRequired ?? false,
    passwordChangeRequired: options.passwordChangeRequired ?? false,
    controlQuestion: options.controlQuestion,
    controlAnswer: options.controlAnswer,
  });
  if (!user) throw new Error("no user");
  return {
    id: user.id,
    loginName: name,
    email: `${name}@example.com`,
    phone: phone ?? "",
    password,
    profileMnemocode: `P-${name}`,
    user,
  };
}

/** An OAuth provider's whole settings for the wire: what a test does not set is empty. */
export function providerSettings(
  settings: Partial<OAuthProviderSettings> & { slot: number },
): OAuthProviderSettings {
  return {
    kind: ProviderKind.OIDC,
    name: "",
    issuer: "",
    authorizationEndpoint: "",
    tokenEndpoint: "",
    userinfoEndpoint: "",
    clientId: "",
    clientSecret: "",
    redirectUris: [],
    scopes: [],
    subjectClaim: "",
    trustsProviderMfa: false,
    mfaAcrValues: [],
    maxAgeSeconds: 0,
    ...settings,
  };
}

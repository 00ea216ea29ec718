import { randomBytes } from "node:crypto";
import { companyPolicy, createServiceClient, smsLimitsOutOfTheWay, smsSettings } from "@auth/grpc-kit";
import { CaptchaProvider, IdentityServiceService, UserStatus } from "@auth/proto/identity";
import type { RunningSuite } from "@auth/suite";

export interface BenchCompany {
  id: string;
  code: string;
  apiKey: string;
}

export interface BenchUser {
  loginName: string;
  password: string;
  phone: string;
}

/**
 * A company created through the admin API: with thresholds out of the way of the load, or with the
 * default budget of passwords (a captcha after 3 failures, auth.restricted after 10) for bursts.
 */
export async function createBenchCompany(
  suite: RunningSuite,
  budget: "out of the way" | "the default" = "out of the way",
): Promise<BenchCompany> {
  const identity = createServiceClient(IdentityServiceService, suite.addresses.identity, {
    deadlineMs: 30_000,
    adminToken: suite.adminToken,
    transport: suite.transportOf("operator"),
    server: "identity",
  });
  try {
    const code = `bench${randomBytes(3).toString("hex")}`;
    const { company } = await identity.createCompany({
      code,
      name: "Benchmark",
      policy: companyPolicy({
        defaultPhoneRegion: "US",
        ...(budget === "out of the way" ? { captchaAfterFailures: 1_000, lockoutAfterFailures: 10_000 } : {}),
        rateLimitPerAddressPerMinute: 1_000_000,
        rateLimitPerLoginIdPerMinute: 1_000_000,
        captcha: { provider: CaptchaProvider.DEV, secret: "" },
        // 1,500 codes to one prefix (+1 212), entered only after all went out: a pumping's shape.
        sms: smsSettings({ limits: smsLimitsOutOfTheWay }),
      }),
    });
    const { apiKey } = await identity.createApiKey({ companyId: company?.id ?? "", label: "bench" });
    return { id: company?.id ?? "", code, apiKey };
  } finally {
    identity.close();
  }
}

/** `count` users, with a password or (passwordless) only a phone, created a few at a time. */
export async function createBenchUsers(
  suite: RunningSuite,
  companyId: string,
  count: number,
  kind: "password" | "phone",
): Promise<BenchUser[]> {
  const identity = createServiceClient(IdentityServiceService, suite.addresses.identity, {
    deadlineMs: 30_000,
    adminToken: suite.adminToken,
    transport: suite.transportOf("operator"),
    server: "identity",
  });
  const users: BenchUser[] = [];
  try {
    const prefix = randomBytes(3).toString("hex");
    for (let start = 0; start < count; start += 20) {
      const batch = Array.from({ length: Math.min(20, count - start) }, (_, offset) => {
        const n = start + offset;
        return {
          loginName: `${kind}-${prefix}-${n}`,
          password: `bench-password-${n}`,
          // Unique within the company: the exchange 2xx for password users, 5xx for phone-only ones.
          phone: `+1212${(kind === "password" ? 2_000_000 : 5_000_000) + n}`,
        };
      });
      await Promise.all(
        batch.map((user, offset) =>
          identity.createUser({
            companyId,
            role: "customer",
            profileMnemocode: `B-${prefix}-${kind}-${start + offset}`,
            loginName: user.loginName,
            phone: user.phone,
            password: kind === "password" ? user.password : undefined,
            status: UserStatus.ACTIVE,
            secondFactorRequired: false,
            passwordChangeRequired: false,
          }),
        ),
      );
      users.push(...batch);
    }
  } finally {
    identity.close();
  }
  return users;
}

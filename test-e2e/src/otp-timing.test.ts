import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, expectSuccess } from "./support/api.js";
import { createCompany, createUser, operatorOf, type TestCompany } from "./support/fixtures.js";
import { lastOtp, smsTo } from "./support/outbox.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * OTPs live this long in this file's suite: long enough for a renew and a check on a loaded
 * machine, short enough to wait out in the test of their expiry. They may be resent after 1 s.
 */
const otpLifetimeSeconds = 8;

/** OTP rules that take time, in a suite whose OTPs live a few seconds and may be resent after 1 s. */
describe("OTP lifetime, resending and limits", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let company: TestCompany;

  beforeAll(async () => {
    own = await startOwnSuite({
      otp: { OTP_LIFETIME_SECONDS: String(otpLifetimeSeconds), OTP_RESEND_COOLDOWN_SECONDS: "1" },
    });
    suite = own.suite;
    company = await createCompany({}, operatorOf(suite));
  });
  afterAll(async () => {
    await own?.stop();
  });

  const send = (operation: string, token: string, body?: Record<string, unknown>) =>
    call(company.code, operation, { apiKey: company.apiKey, token, body, gatewayUrl: suite.gatewayUrl });
  async function otpSession() {
    const user = await createUser(company, { password: null });
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      gatewayUrl: suite.gatewayUrl,
      body: { login_id: user.loginName },
    });
    return { user, token: String(login.body.session_token) };
  }
  const otpOf = (phone: string) => lastOtp(company.id, phone, suite.smsOutboxFile);

  describe("auth/renewotp", () => {
    it("sends a new OTP, answers the masked phone, and keeps the token", async () => {
      const { user, token } = await otpSession();
      await sleep(1_100);
      const response = await send("renewotp", token);
      expectSuccess(response, ["user_phone"]);
      expect(response.body.user_phone).toBe(`+1********${user.phone.slice(-2)}`);
      expect(smsTo(company.id, user.phone, suite.smsOutboxFile)).toHaveLength(2);
      expect((await send("checkotp", token, { otp: otpOf(user.phone) })).body.session_state).toBe(
        "authorized",
      );
    });

    it("lets the user retry after a wrong OTP (spec 4.3 rule 1)", async () => {
      const { user, token } = await otpSession();
      const otp = otpOf(user.phone);
      await send("checkotp", token, { otp: otp === "000000" ? "111111" : "000000" });
      await sleep(1_100);
      await send("renewotp", token);
      expect((await send("checkotp", token, { otp: otpOf(user.phone) })).body.session_state).toBe(
        "authorized",
      );
    });

    it("sends at most 5 OTPs per session, the first included", async () => {
      const { token } = await otpSession();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        await sleep(1_050);
        statuses.push((await send("renewotp", token)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const refused = await send("renewotp", token);
      expectError(refused, 429, "request.ratelimit.exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  describe("auth/recovery/renewotp", () => {
    it("sends a new recovery OTP after the cooldown and answers only the envelope", async () => {
      const recoverer = await createCompany({}, operatorOf(suite));
      const user = await createUser(recoverer);
      const recover = await call(recoverer.code, "recovery/recover", {
        apiKey: recoverer.apiKey,
        gatewayUrl: suite.gatewayUrl,
        body: { login_id: user.loginName, captcha_response: "dev-captcha-pass", method: "PHONE" },
      });
      await sleep(1_100);
      const response = await call(recoverer.code, "recovery/renewotp", {
        apiKey: recoverer.apiKey,
        gatewayUrl: suite.gatewayUrl,
        token: String(recover.body.session_token),
      });
      expectSuccess(response, []);
      expect(smsTo(recoverer.id, user.phone, suite.smsOutboxFile)).toHaveLength(2);
    });
  });

  describe("auth/checkotp", () => {
    it("refuses an expired OTP with auth.otp.invalid", async () => {
      const { user, token } = await otpSession();
      const otp = otpOf(user.phone);
      await sleep(otpLifetimeSeconds * 1000 + 100);
      expectError(await send("checkotp", token, { otp }), 401, "auth.otp.invalid");
    });
  });
});

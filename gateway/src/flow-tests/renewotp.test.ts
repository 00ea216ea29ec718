import { smsSettings } from "@auth/grpc-kit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  lastOtp,
  smsLanguages,
  smsTo,
  startLogin,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

describe("auth/renewotp", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany();
  });

  it("answers auth.session.invalid with 409 outside state checkotp", async () => {
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    expectError(
      await call(company.code, "renewotp", { apiKey: company.apiKey, token }),
      409,
      "auth.session.invalid",
    );
  });

  it("refuses a new OTP within 30 seconds of the last with request.ratelimit.exceeded, 429 and Retry-After", async () => {
    const user = await createUser(company, { password: null });
    const token = await startLogin(company, user.loginName);
    const response = await call(company.code, "renewotp", { apiKey: company.apiKey, token });
    expectError(response, 429, "request.ratelimit.exceeded");
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
  });

  it("sends a new OTP once 30 seconds have passed, to the masked phone, and the new OTP passes", async () => {
    const user = await createUser(company, { password: null });
    const token = await startLogin(company, user.loginName);
    suite().clock.advance(30_000);
    const renewed = await call(company.code, "renewotp", { apiKey: company.apiKey, token });
    expectSuccess(renewed, ["user_phone"]);
    expect(renewed.body.user_phone).toBe(`+1********${user.phone.slice(-2)}`);
    expect(smsTo(company.id, user.phone)).toHaveLength(2);
    const checked = await call(company.code, "checkotp", {
      apiKey: company.apiKey,
      token,
      body: { otp: lastOtp(company.id, user.phone) },
    });
    expect(checked.body.session_state).toBe("authorized");
  });

  it("has the new SMS worded in the language the request asks for, whatever the login's was (docs/decisions.md, Languages)", async () => {
    const user = await createUser(company, { password: null });
    const token = await startLogin(company, user.loginName);
    suite().clock.advance(30_000);
    await call(company.code, "renewotp", {
      apiKey: company.apiKey,
      token,
      body: { language: "fr" },
      headers: { "accept-language": "de" },
    });
    expect(smsLanguages(company, user)).toEqual(["en", "fr"]);
  });
});

describe("a code the company's limits against SMS pumping refuse", () => {
  it("is request.ratelimit.exceeded, 429, with Retry-After an hour for a number outside the regions allowed, and no SMS", async () => {
    const company = await createCompany({ sms: smsSettings({ limits: { allowedRegions: ["GB"] } }) });
    const user = await createUser(company, { password: null });
    const response = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName },
    });
    expectError(response, 429, "request.ratelimit.exceeded");
    expect(response.headers.get("retry-after")).toBe("3600");
    expect(smsTo(company.id, user.phone)).toEqual([]);
  });

  it("is request.ratelimit.exceeded, 429, with Retry-After the hour's rest once the region's budget is spent", async () => {
    const company = await createCompany({ sms: smsSettings({ limits: { perRegionPerHour: 2 } }) });
    const users = await Promise.all([1, 2, 3].map(() => createUser(company, { password: null })));
    const answers = [];
    for (const user of users) {
      answers.push(
        await call(company.code, "login", { apiKey: company.apiKey, body: { login_id: user.loginName } }),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expectError(answers[2] as (typeof answers)[number], 429, "request.ratelimit.exceeded");
    const retryAfter = Number(answers[2]?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
  });
});

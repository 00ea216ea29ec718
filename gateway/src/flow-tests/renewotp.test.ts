import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  expectError,
  startLogin,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

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
});

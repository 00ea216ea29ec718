import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  passwordStep,
  startLogin,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

describe("auth/logout", () => {
  let company: TestCompany;
  const logout = (token: string) => call(company.code, "logout", { apiKey: company.apiKey, token });

  beforeAll(async () => {
    company = await createCompany();
  });

  it("invalidates an authorized token", async () => {
    const user = await createUser(company);
    const token = String((await passwordStep(company, user)).body.session_token);
    expectSuccess(await logout(token), []);
    expectError(await logout(token), 401, "auth.token.invalid");
  });

  it("invalidates a token in a pre-authorization state", async () => {
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    expectSuccess(await logout(token), []);
    const after = await call(company.code, "checkpassword", {
      apiKey: company.apiKey,
      token,
      body: { password: user.password },
    });
    expectError(after, 401, "auth.token.invalid");
  });

  it("answers auth.token.invalid for an unknown token", async () => {
    expectError(await logout("A".repeat(64)), 401, "auth.token.invalid");
    expectError(await logout("short"), 401, "auth.token.invalid");
  });

  it("ignores a body", async () => {
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    const response = await call(company.code, "logout", {
      apiKey: company.apiKey,
      token,
      body: { anything: 1 },
    });
    expect(response.status).toBe(200);
  });
});

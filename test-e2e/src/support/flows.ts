import { expect } from "vitest";
import { call } from "./api.js";
import type { TestCompany, TestUser } from "./fixtures.js";

/** auth/login, expecting a session token. */
export async function startLogin(company: TestCompany, loginId: string): Promise<string> {
  const response = await call(company.code, "login", { apiKey: company.apiKey, body: { login_id: loginId } });
  expect(response.body.status, JSON.stringify(response.body)).toBe("success");
  return String(response.body.session_token);
}

/** auth/login then auth/checkpassword with the right password. */
export async function passwordStep(
  company: TestCompany,
  user: TestUser,
  extra: Record<string, unknown> = {},
) {
  const token = await startLogin(company, user.loginName);
  return call(company.code, "checkpassword", {
    apiKey: company.apiKey,
    token,
    body: { password: user.password, ...extra },
  });
}

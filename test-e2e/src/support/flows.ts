import { expect } from "vitest";
import { call } from "./api.js";
import type { TestCompany, TestUser } from "./fixtures.js";

/** auth/login, expecting a session token. */
export async function startLogin(
  company: TestCompany,
  loginId: string,
  gatewayUrl?: string,
): Promise<string> {
  const response = await call(company.code, "login", {
    apiKey: company.apiKey,
    gatewayUrl,
    body: { login_id: loginId },
  });
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

/** auth/recovery/recover by control question (the dev captcha), expecting recovery-checkquestion. */
export async function recoverByQuestion(
  company: TestCompany,
  loginId: string,
  gatewayUrl?: string,
): Promise<string> {
  const response = await call(company.code, "recovery/recover", {
    apiKey: company.apiKey,
    gatewayUrl,
    body: { login_id: loginId, captcha_response: "dev-captcha-pass", method: "QUESTION" },
  });
  expect(response.body.session_state, JSON.stringify(response.body)).toBe("recovery-checkquestion");
  return String(response.body.session_token);
}

/** recoverByQuestion, then the right answer: a session in recovery-setpassword. */
export async function recoverToSetpassword(
  company: TestCompany,
  loginId: string,
  answer: string,
  gatewayUrl?: string,
): Promise<string> {
  const response = await call(company.code, "recovery/checkquestion", {
    apiKey: company.apiKey,
    gatewayUrl,
    token: await recoverByQuestion(company, loginId, gatewayUrl),
    body: { control_answer: answer },
  });
  expect(response.body.session_state, JSON.stringify(response.body)).toBe("recovery-setpassword");
  return String(response.body.session_token);
}

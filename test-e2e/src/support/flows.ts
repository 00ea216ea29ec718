import { loginSteps } from "@auth/testing/api";
import { expect } from "vitest";
import { call } from "./api.js";
import type { TestCompany } from "./fixtures.js";

const steps = (gatewayUrl?: string) =>
  loginSteps((code, operation, options) => call(code, operation, { ...options, gatewayUrl }));

/** auth/login, expecting a session token. */
export const startLogin = (company: TestCompany, loginId: string, gatewayUrl?: string): Promise<string> =>
  steps(gatewayUrl).startLogin(company, loginId);

export const { passwordStep } = steps();

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

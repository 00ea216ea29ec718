import type { TestUser, UserOptions } from "@auth/identity/testing";
import type { CompanyPolicy, UserStatus } from "@auth/proto/identity";
import { type Answer, ApiDocument, type ApiResponse, loginSteps } from "@auth/testing/api";
import { SoftAuthenticator, type SoftAuthenticatorOptions } from "@auth/testing/soft-authenticator";
import { generate } from "otplib";
import { afterAll, beforeAll, expect } from "vitest";
import {
  type CallOptions,
  type InProcessSuite,
  type InProcessSuiteOptions,
  startInProcessSuite,
  type TestCompany,
} from "./in-process-suite.js";

export { expectError, expectSuccess } from "@auth/testing/api";
export type { TestCompany, TestUser, UserOptions };

/**
 * The flow tests' vocabulary, over the in-process suite of the test file (useInProcessSuite): the
 * same words as test-e2e's support, so that a test reads the same in either place.
 */

let current: InProcessSuite | undefined;
/** The answers call() got in this test file (each file runs with modules of its own). */
const answers: Answer[] = [];

function suite(): InProcessSuite {
  if (!current) throw new Error("call useInProcessSuite() in the test file first");
  return current;
}

/**
 * Starts the in-process suite before the file's tests and stops it after them; returns it. Each
 * answer the file got through call() must be one the gateway's OpenAPI document describes, as in
 * test-e2e, so that the document cannot drift from the API.
 */
export function useInProcessSuite(options: InProcessSuiteOptions = {}): () => InProcessSuite {
  beforeAll(async () => {
    current = await startInProcessSuite(options);
  });
  afterAll(async () => {
    if (current && answers.length > 0) {
      const document = await ApiDocument.served(current.gatewayUrl);
      expect(answers.flatMap((answer) => document.problemsOf(answer))).toEqual([]);
    }
    await current?.stop();
    current = undefined;
  });
  return suite;
}

/** A company of its own for a test, with an API key. */
export const createCompany = (overrides: Partial<CompanyPolicy> = {}) => suite().createCompany(overrides);

export const createUser = (company: TestCompany, options: UserOptions = {}) => company.createUser(options);

export const createDisclaimer = (company: TestCompany, code: string) => company.createDisclaimer(code);

/** The security events the disclaimer service recorded, in commit order. */
export const disclaimerEvents = () => suite().disclaimerEvents();

export const generateBackupCodes = (company: TestCompany, user: TestUser) => company.backupCodes(user);

export const updateCompany = (
  company: TestCompany,
  changes: { suspended?: boolean; policy?: Partial<CompanyPolicy> },
) => company.update(changes);

export const updateUserStatus = (company: TestCompany, user: TestUser, status: UserStatus) =>
  company.updateUserStatus(user, status);

export const updateUserAuthentication = (
  company: TestCompany,
  user: TestUser,
  changes: { phone?: string; secondFactorRequired?: boolean; password?: string },
) => company.updateUserAuthentication(user, changes);

/** POST (or the options' method) /{company}/v2/auth/{operation} of the company with this code, with the options' API key. */
export async function call(code: string, operation: string, options: CallOptions = {}): Promise<ApiResponse> {
  const answer = await suite().call(code, operation, options);
  answers.push({ operation, method: options.method ?? "POST", ...answer });
  return answer;
}

/** How many secrets of a kind the services have compared so far: what the budgets let through. */
export const compared = (kind: Parameters<InProcessSuite["compared"]>[0]) => suite().compared(kind);

/** How many calls of a method (its name in the service definition) the services have answered so far. */
export const served = (method: string) => suite().served(method);

/** The authenticator app's code for now, or for a step later (±1 step is accepted). */
export const totpCode = (secret: string, stepsLater = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsLater * 30 });

/** A code the app never shows around now (not within ±1 step). */
export async function wrongTotpCode(secret: string): Promise<string> {
  const near = await Promise.all([-1, 0, 1, 2].map((steps) => totpCode(secret, steps)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!near.includes(code)) return code;
  }
}

/** Signs the user in with the password and enrols an authenticator app; its secret. */
export async function enrolAuthenticator(company: TestCompany, user: TestUser): Promise<string> {
  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
  const token = String(signedIn.body.session_token);
  const secret = String((await post("totp/enrol", {}, token)).body.secret);
  const confirmed = await post("totp/confirm", { code: await totpCode(secret) }, token);
  if (confirmed.body.status !== "success")
    throw new Error(`enrolment failed: ${JSON.stringify(confirmed.body)}`);
  return secret;
}

/** The company's relying party in the passkey tests: the embedded demo's (docs/decisions.md, "Passkeys"). */
export const passkeyOrigin = "http://localhost:8081";
export const passkeySettings = { rpId: "localhost", origins: [passkeyOrigin], allowPasswordless: true };

/** A software authenticator at the login page's origin; user-verifying and device-bound unless told. */
export const newAuthenticator = (options: Omit<SoftAuthenticatorOptions, "origin"> = {}) =>
  new SoftAuthenticator({ origin: passkeyOrigin, ...options });

/**
 * Adds a passkey of the authenticator to the user from the authorized session of this token
 * (auth/passkeys/enrol, then auth/passkeys/confirm); confirm's answer.
 */
export async function addPasskey(
  company: TestCompany,
  token: string,
  authenticator: SoftAuthenticator,
  name?: string,
): Promise<ApiResponse> {
  const post = (operation: string, body: Record<string, unknown>) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  const enrolled = await post("passkeys/enrol", {});
  if (enrolled.body.status !== "success") throw new Error(`enrol failed: ${JSON.stringify(enrolled.body)}`);
  const options = enrolled.body.options as Parameters<SoftAuthenticator["register"]>[0];
  return post("passkeys/confirm", { credential: authenticator.register(options), name });
}

/** Signs the user in with the password (a user without a second factor) and adds a passkey; its authorized token. */
export async function enrolPasskey(
  company: TestCompany,
  user: TestUser,
  authenticator: SoftAuthenticator,
): Promise<string> {
  const signedIn = await call(company.code, "checkcredentials", {
    apiKey: company.apiKey,
    body: { login_id: user.loginName, password: user.password },
  });
  if (signedIn.body.session_state !== "authorized")
    throw new Error(`sign-in failed: ${JSON.stringify(signedIn.body)}`);
  const token = String(signedIn.body.session_token);
  const confirmed = await addPasskey(company, token, authenticator);
  if (confirmed.body.status !== "success")
    throw new Error(`confirm failed: ${JSON.stringify(confirmed.body)}`);
  return token;
}

/** identity's notices e-mailed to this address of the company (their subjects), oldest first. */
export const noticesTo = (companyId: string, email: string) => suite().noticesTo(companyId, email);

/** The SMS texts sent to this phone of the company, oldest first. */
export const smsTo = (companyId: string, phone: string) => suite().smsTo(companyId, phone);

/** The languages the gateway asked the SMS codes to this user in, oldest first. */
export const smsLanguages = (company: TestCompany, user: TestUser) =>
  suite().smsLanguages(company.id, user.id);

/** The languages the gateway asked the recovery e-mails to this user in, oldest first. */
export const mailLanguages = (company: TestCompany, user: TestUser) =>
  suite().mailLanguages(company.id, user.id);

/** The code in the newest SMS to this phone. */
export function lastOtp(companyId: string, phone: string): string {
  const otp = /\b(\d{6})\b/.exec(smsTo(companyId, phone).at(-1) ?? "")?.[1];
  if (!otp) throw new Error(`no OTP sent to ${phone}`);
  return otp;
}

/** The recovery e-mails sent to this address of the company, oldest first. */
export const mailTo = (companyId: string, email: string) => suite().mailTo(companyId, email);

/** The token of the link in a recovery e-mail. */
export function linkToken(text: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  const token = link && new URL(link).searchParams.get("token");
  if (!token) throw new Error(`no link with a token in: ${text}`);
  return token;
}

export const { startLogin, passwordStep } = loginSteps(call);

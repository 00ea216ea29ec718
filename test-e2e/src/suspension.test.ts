import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { TestOAuth2Provider } from "@auth/identity/fixtures";
import { UserStatus } from "@auth/proto/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, expectSuccess } from "./support/api.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  linkOAuthIdentity,
  setOAuthProvider,
  type TestCompany,
  type TestUser,
  updateCompany,
  updateUserStatus,
} from "./support/fixtures.js";
import { recoverToSetpassword, startLogin } from "./support/flows.js";
import { lastOtp, linkToken, mailTo, smsTo } from "./support/outbox.js";

/**
 * docs/decisions.md, "Suspension", and spec 4.1 to 4.13 on the user's status: suspension and user
 * status are checked in every flow that starts or advances a session or sends a message. While a
 * company is suspended every endpoint but logout answers 403 before its flow asks any service for
 * anything (no session moves, no SMS or e-mail, no OAuth provider is called, no secret is spent);
 * a user who is no longer active gets no further in a session that began while they were.
 *
 * Each test of a suspension has a company of its own: all test files share one suite, and the
 * shared gateway reads companies afresh on every request (API_KEY_CACHE_SECONDS=0).
 */

const captcha = "dev-captcha-pass";
const linkBase = "https://app.example.com/recover";
const redirectUri = "https://app.example.com/oauth/callback";
const oauthSlot = 2;
const question = { controlQuestion: "Name of your first pet?", controlAnswer: "Rex the Dog" };

/** Each status but active, with the code it answers (spec 4.1 rules 2 to 4): name, code, status. */
const statuses = [
  ["restricted", "auth.user.restricted", UserStatus.RESTRICTED],
  ["closed", "auth.user.closed", UserStatus.CLOSED],
  ["denied", "auth.user.denied", UserStatus.DENIED],
] as const;
type StatusName = (typeof statuses)[number][0];

const renewals = ["renewotp", "recovery/renewotp"] as const;
type Renewal = (typeof renewals)[number];

let provider: TestOAuth2Provider;

const post = (company: TestCompany, operation: string, body: Record<string, unknown> = {}, token?: string) =>
  call(company.code, operation, { apiKey: company.apiKey, body, token });

/** A new company whose users may recover access by phone, e-mail link and control question. */
const newCompany = () =>
  createCompany({ recovery: { order: [], disabled: [], disabledByRole: {}, linkBase } });

/** A new company with the test's plain OAuth 2.0 provider in its slot 2, and a disclaimer when asked. */
async function newOAuthCompany(options: { disclaimer?: boolean } = {}): Promise<TestCompany> {
  const company = await newCompany();
  await setOAuthProvider(company, provider.slotSettings(oauthSlot, [redirectUri]));
  if (options.disclaimer) await createDisclaimer(company, "terms");
  return company;
}

/** What the dev outboxes delivered to the user so far: SMS to the phone, e-mails to the address. */
const messagesTo = (company: TestCompany, user: TestUser) => ({
  sms: smsTo(company.id, user.phone).length,
  mail: mailTo(company.id, user.email).length,
});

/** auth/checkcredentials with the right password, expecting a session in this state. */
async function credentialsToken(company: TestCompany, user: TestUser, state: string): Promise<string> {
  const response = await post(company, "checkcredentials", {
    login_id: user.loginName,
    password: user.password,
  });
  expect(response.body.session_state, JSON.stringify(response.body)).toBe(state);
  return String(response.body.session_token);
}

/** auth/recovery/recover by phone (state recovery-checkotp) or control question (recovery-checkquestion). */
async function recoveryToken(company: TestCompany, user: TestUser, method: "PHONE" | "QUESTION") {
  const response = await post(company, "recovery/recover", {
    login_id: user.loginName,
    captcha_response: captcha,
    method,
  });
  expect(response.body.verification, JSON.stringify(response.body)).toBe(method);
  return String(response.body.session_token);
}

/** The token of the recovery link the user was just e-mailed. */
async function mailedLinkToken(company: TestCompany, user: TestUser): Promise<string> {
  const response = await post(company, "recovery/recover", {
    login_id: user.loginName,
    captcha_response: captcha,
    method: "MAIL",
  });
  expect(response.body.verification, JSON.stringify(response.body)).toBe("MAIL");
  return linkToken(mailTo(company.id, user.email).at(-1)?.text ?? "");
}

/** An authorization code the provider issued for an account linked to the user. */
async function oauthCode(company: TestCompany, user: TestUser): Promise<string> {
  const account = randomInt(1, 2 ** 31);
  await linkOAuthIdentity(company, user, oauthSlot, String(account));
  return provider.issueCode(account, redirectUri);
}

/** A session in acceptdisclaimers: an OAuth login of a company with a disclaimer to accept. */
async function acceptdisclaimersToken(company: TestCompany, user: TestUser): Promise<string> {
  const response = await post(company, "oauth", {
    provider_id: oauthSlot,
    code: await oauthCode(company, user),
    redirect_uri: redirectUri,
  });
  expect(response.body.session_state, JSON.stringify(response.body)).toBe("acceptdisclaimers");
  return String(response.body.session_token);
}

/** A session of a new user of a new company, waiting for the OTP it has just been sent. */
interface WaitingForOtp {
  company: TestCompany;
  user: TestUser;
  token: string;
}

async function waitingForOtp(renewal: Renewal): Promise<WaitingForOtp> {
  const company = await newCompany();
  const user = await createUser(company, { password: null });
  const token =
    renewal === "renewotp"
      ? await startLogin(company, user.loginName)
      : await recoveryToken(company, user, "PHONE");
  expect(smsTo(company.id, user.phone)).toHaveLength(1);
  return { company, user, token };
}

/**
 * Waits until every OTP sent so far may be renewed: the resend cooldown (5 s in the shared suite)
 * of a probe session that starts now has ended, so the cooldowns of all the sessions started before
 * it have too. Until then the probe's renewal is refused (429) and sends nothing.
 */
async function resendCooldownsOver(): Promise<void> {
  const company = await newCompany();
  const probe = await createUser(company, { password: null });
  const token = await startLogin(company, probe.loginName);
  const deadline = Date.now() + 150_000;
  for (;;) {
    const renewal = await post(company, "renewotp", {}, token);
    if (renewal.status === 200) return;
    expectError(renewal, 429, "request.ratelimit.exceeded");
    if (Date.now() > deadline) throw new Error("the probe's resend cooldown never ended");
    await sleep(1_000);
  }
}

/**
 * The sessions of the renewotp and recovery/renewotp tests, started ahead: were their first OTP's
 * resend cooldown still running, a refused renewal would send nothing anyway, and "no SMS went out"
 * would prove nothing.
 */
let waiting: Record<Renewal, Record<"suspended" | StatusName, WaitingForOtp>>;

beforeAll(async () => {
  provider = await TestOAuth2Provider.start();
  const sessionsFor = async (renewal: Renewal) => {
    const [suspended, restricted, closed, denied] = await Promise.all(
      [1, 2, 3, 4].map(() => waitingForOtp(renewal)),
    );
    return { suspended, restricted, closed, denied } as Record<"suspended" | StatusName, WaitingForOtp>;
  };
  const [login, recovery] = await Promise.all(renewals.map(sessionsFor));
  waiting = { renewotp: login, "recovery/renewotp": recovery } as typeof waiting;
  await resendCooldownsOver();
});
afterAll(async () => {
  await provider?.stop();
});

describe("a suspended company", () => {
  const suspend = (company: TestCompany) => updateCompany(company, { suspended: true });
  const resume = (company: TestCompany) => updateCompany(company, { suspended: false });

  it("login answers auth.restricted with 403 and sends no OTP to a user without a password", async () => {
    const company = await newCompany();
    const user = await createUser(company, { password: null });
    const withPassword = await createUser(company);
    await suspend(company);
    expectError(await post(company, "login", { login_id: user.loginName }), 403, "auth.restricted");
    expectError(await post(company, "login", { login_id: withPassword.loginName }), 403, "auth.restricted");
    expect(smsTo(company.id, user.phone)).toEqual([]);

    await resume(company);
    const login = await post(company, "login", { login_id: user.loginName });
    expect(login.body.session_state, JSON.stringify(login.body)).toBe("checkotp");
    expect(smsTo(company.id, user.phone)).toHaveLength(1);
  });

  it("checkpassword answers auth.restricted with 403 to the right password, sends no OTP, and the password may be checked after the resumption", async () => {
    const company = await newCompany();
    const user = await createUser(company, { secondFactorRequired: true });
    const token = await startLogin(company, user.loginName);
    await suspend(company);
    expectError(
      await post(company, "checkpassword", { password: user.password }, token),
      403,
      "auth.restricted",
    );
    expect(smsTo(company.id, user.phone)).toEqual([]);

    await resume(company);
    const checked = await post(company, "checkpassword", { password: user.password }, token);
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("checkotp");
    expect(smsTo(company.id, user.phone)).toHaveLength(1);
  });

  it("checkotp answers auth.restricted with 403 to the right OTP and does not burn it", async () => {
    const company = await newCompany();
    const user = await createUser(company, { password: null });
    const token = await startLogin(company, user.loginName);
    const otp = lastOtp(company.id, user.phone);
    await suspend(company);
    expectError(await post(company, "checkotp", { otp }, token), 403, "auth.restricted");

    await resume(company);
    const checked = await post(company, "checkotp", { otp }, token);
    expect(checked.body, JSON.stringify(checked.body)).toMatchObject({
      session_state: "authorized",
      profile_mnemocode: user.profileMnemocode,
    });
  });

  it("renewotp answers auth.user.restricted with 403 and sends no OTP", async () => {
    const { company, user, token } = waiting.renewotp.suspended;
    await suspend(company);
    expectError(await post(company, "renewotp", {}, token), 403, "auth.user.restricted");
    expect(smsTo(company.id, user.phone)).toHaveLength(1);

    // Resumed, the renewal goes out: the refused one was not held back by the resend cooldown.
    await resume(company);
    expectSuccess(await post(company, "renewotp", {}, token), ["user_phone"]);
    expect(smsTo(company.id, user.phone)).toHaveLength(2);
  });

  it("setpassword in state setpassword answers auth.user.restricted with 403 and sets no password", async () => {
    const company = await newCompany();
    const user = await createUser(company, { passwordChangeRequired: true });
    const token = await credentialsToken(company, user, "setpassword");
    await suspend(company);
    expectError(
      await post(company, "setpassword", { new_password: "brand-new-password-2" }, token),
      403,
      "auth.user.restricted",
    );

    // Had the refused call set it, the same password would now be refused as the current one (422).
    await resume(company);
    const set = await post(company, "setpassword", { new_password: "brand-new-password-2" }, token);
    expectSuccess(set, ["session_token", "session_state", "profile_mnemocode"]);
    expect(set.body.session_state).toBe("authorized");
  });

  it("setpassword in state recovery-setpassword answers auth.user.restricted with 403, sets no password and keeps the recovery session", async () => {
    const company = await newCompany();
    const user = await createUser(company, question);
    const token = await recoverToSetpassword(company, user.loginName, question.controlAnswer);
    await suspend(company);
    expectError(
      await post(company, "setpassword", { new_password: "recovered-password-2" }, token),
      403,
      "auth.user.restricted",
    );

    await resume(company);
    expectSuccess(await post(company, "setpassword", { new_password: "recovered-password-2" }, token), []);
    const login = await post(company, "checkcredentials", {
      login_id: user.loginName,
      password: "recovered-password-2",
    });
    expect(login.body.session_state, JSON.stringify(login.body)).toBe("authorized");
  });

  it("checkcredentials answers auth.restricted with 403 to the right credentials and sends no OTP", async () => {
    const company = await newCompany();
    const user = await createUser(company, { secondFactorRequired: true });
    await suspend(company);
    expectError(
      await post(company, "checkcredentials", { login_id: user.loginName, password: user.password }),
      403,
      "auth.restricted",
    );
    expect(smsTo(company.id, user.phone)).toEqual([]);

    await resume(company);
    await credentialsToken(company, user, "checkotp");
    expect(smsTo(company.id, user.phone)).toHaveLength(1);
  });

  it("oauth answers auth.user.restricted with 403 without calling the provider: the code still logs in after the resumption", async () => {
    const company = await newOAuthCompany();
    const user = await createUser(company);
    const code = await oauthCode(company, user);
    const body = { provider_id: oauthSlot, code, redirect_uri: redirectUri };
    await suspend(company);
    expectError(await post(company, "oauth", body), 403, "auth.user.restricted");
    expect(provider.codes.has(code)).toBe(true);

    await resume(company);
    const login = await post(company, "oauth", body);
    expect(login.body, JSON.stringify(login.body)).toMatchObject({
      session_state: "authorized",
      profile_mnemocode: user.profileMnemocode,
    });
  });

  it("acceptdisclaimers answers auth.restricted with 403 to all the codes", async () => {
    const company = await newOAuthCompany({ disclaimer: true });
    const user = await createUser(company);
    const token = await acceptdisclaimersToken(company, user);
    await suspend(company);
    expectError(
      await post(company, "acceptdisclaimers", { accept_disclaimers: ["terms"] }, token),
      403,
      "auth.restricted",
    );

    await resume(company);
    const accepted = await post(company, "acceptdisclaimers", { accept_disclaimers: ["terms"] }, token);
    expect(accepted.body.session_state, JSON.stringify(accepted.body)).toBe("authorized");
  });

  it.each([
    ["PHONE", { verification: "PHONE", session_state: "recovery-checkotp" }, { sms: 1, mail: 0 }],
    ["MAIL", { verification: "MAIL" }, { sms: 0, mail: 1 }],
    ["QUESTION", { verification: "QUESTION", session_state: "recovery-checkquestion" }, { sms: 0, mail: 0 }],
  ])(
    "recovery/recover by %s answers auth.user.restricted with 403, starts nothing and sends no message",
    async (method, resumed, sent) => {
      const company = await newCompany();
      const user = await createUser(company, question);
      const body = { login_id: user.loginName, captcha_response: captcha, method };
      await suspend(company);
      expectError(await post(company, "recovery/recover", body), 403, "auth.user.restricted");
      expect(messagesTo(company, user)).toEqual({ sms: 0, mail: 0 });

      await resume(company);
      const started = await post(company, "recovery/recover", body);
      expect(started.body, JSON.stringify(started.body)).toMatchObject(resumed);
      expect(messagesTo(company, user)).toEqual(sent);
    },
  );

  it("recovery/checkotp answers auth.user.restricted with 403 to the right OTP and does not burn it", async () => {
    const company = await newCompany();
    const user = await createUser(company);
    const token = await recoveryToken(company, user, "PHONE");
    const otp = lastOtp(company.id, user.phone);
    await suspend(company);
    expectError(await post(company, "recovery/checkotp", { otp }, token), 403, "auth.user.restricted");

    await resume(company);
    const checked = await post(company, "recovery/checkotp", { otp }, token);
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("recovery-setpassword");
  });

  it("recovery/renewotp answers auth.user.restricted with 403 and sends no OTP", async () => {
    const { company, user, token } = waiting["recovery/renewotp"].suspended;
    await suspend(company);
    expectError(await post(company, "recovery/renewotp", {}, token), 403, "auth.user.restricted");
    expect(smsTo(company.id, user.phone)).toHaveLength(1);

    // Resumed, the renewal goes out: the refused one was not held back by the resend cooldown.
    await resume(company);
    expectSuccess(await post(company, "recovery/renewotp", {}, token), []);
    expect(smsTo(company.id, user.phone)).toHaveLength(2);
  });

  it("recovery/checkquestion answers auth.user.restricted with 403 to the right answer", async () => {
    const company = await newCompany();
    const user = await createUser(company, question);
    const token = await recoveryToken(company, user, "QUESTION");
    const body = { control_answer: question.controlAnswer };
    await suspend(company);
    expectError(await post(company, "recovery/checkquestion", body, token), 403, "auth.user.restricted");

    await resume(company);
    const checked = await post(company, "recovery/checkquestion", body, token);
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("recovery-setpassword");
  });

  it("recovery/checklink answers auth.user.restricted with 403 and leaves the link to be followed after the resumption", async () => {
    const company = await newCompany();
    const user = await createUser(company);
    const link = await mailedLinkToken(company, user);
    await suspend(company);
    expectError(await post(company, "recovery/checklink", { token: link }), 403, "auth.user.restricted");

    await resume(company);
    const followed = await post(company, "recovery/checklink", { token: link });
    expect(followed.body.session_state, JSON.stringify(followed.body)).toBe("recovery-setpassword");
  });

  it("logout still ends sessions, authorized or not", async () => {
    const company = await newCompany();
    const user = await createUser(company);
    const authorized = await credentialsToken(company, user, "authorized");
    const atPassword = await startLogin(company, user.loginName);
    await suspend(company);
    for (const token of [authorized, atPassword]) {
      expectSuccess(await post(company, "logout", {}, token), []);
      expectError(await post(company, "logout", {}, token), 401, "auth.token.invalid");
    }

    await resume(company);
    expectError(
      await post(company, "checkpassword", { password: user.password }, atPassword),
      401,
      "auth.token.invalid",
    );
  });
});

/**
 * spec 4.1 to 4.13, "restricted, closed or denied users get no further", in a session that began
 * while the user was active (an administrator changed the status since): each step answers the
 * status's code with 403 even to the right secret, and sends nothing. login, checkcredentials, oauth
 * and recovery/recover for a user who is not active at the start: oauth.test.ts and, in process,
 * gateway/src/flow-tests (login, checkcredentials, recovery); here, that no message goes out.
 */
describe("a user who is not active", () => {
  let company: TestCompany;
  let withTerms: TestCompany;
  beforeAll(async () => {
    [company, withTerms] = await Promise.all([newCompany(), newOAuthCompany({ disclaimer: true })]);
  });

  it.each(statuses)(
    "login: a %s user without a password gets %s with 403 and no OTP",
    async (_, code, status) => {
      const user = await createUser(company, { password: null, status });
      expectError(await post(company, "login", { login_id: user.loginName }), 403, code);
      expect(smsTo(company.id, user.phone)).toEqual([]);
    },
  );

  it.each(statuses)(
    "recovery/recover: a %s user gets %s with 403, and neither an SMS nor an e-mail",
    async (_, code, status) => {
      const user = await createUser(company, { ...question, status });
      for (const method of ["PHONE", "MAIL", "QUESTION"]) {
        const body = { login_id: user.loginName, captcha_response: captcha, method };
        expectError(await post(company, "recovery/recover", body), 403, code);
      }
      expect(messagesTo(company, user)).toEqual({ sms: 0, mail: 0 });
    },
  );

  it.each(statuses)(
    "checkpassword: a user %s since the login gets %s with 403 to the right password, and no OTP",
    async (_, code, status) => {
      const user = await createUser(company, { secondFactorRequired: true });
      const token = await startLogin(company, user.loginName);
      await updateUserStatus(company, user, status);
      expectError(await post(company, "checkpassword", { password: user.password }, token), 403, code);
      expect(smsTo(company.id, user.phone)).toEqual([]);
    },
  );

  it.each(statuses)(
    "checkotp: a user %s since the OTP was sent gets %s with 403 to the right OTP",
    async (_, code, status) => {
      const user = await createUser(company, { password: null });
      const token = await startLogin(company, user.loginName);
      await updateUserStatus(company, user, status);
      expectError(
        await post(company, "checkotp", { otp: lastOtp(company.id, user.phone) }, token),
        403,
        code,
      );
    },
  );

  it.each(statuses)(
    "renewotp: a user %s since the OTP was sent gets %s with 403 and no new OTP",
    async (name, code, status) => {
      const { company: own, user, token } = waiting.renewotp[name];
      await updateUserStatus(own, user, status);
      expectError(await post(own, "renewotp", {}, token), 403, code);
      expect(smsTo(own.id, user.phone)).toHaveLength(1);
      // Active again, the user may renew: the refused renewal was not held back by the cooldown.
      await updateUserStatus(own, user, UserStatus.ACTIVE);
      expectSuccess(await post(own, "renewotp", {}, token), ["user_phone"]);
      expect(smsTo(own.id, user.phone)).toHaveLength(2);
    },
  );

  it.each(statuses)(
    "setpassword in state setpassword: a user %s since the login gets %s with 403",
    async (_, code, status) => {
      const user = await createUser(company, { passwordChangeRequired: true });
      const token = await credentialsToken(company, user, "setpassword");
      await updateUserStatus(company, user, status);
      expectError(
        await post(company, "setpassword", { new_password: "brand-new-password-2" }, token),
        403,
        code,
      );
    },
  );

  it.each(statuses)(
    "setpassword in state recovery-setpassword: a user %s since the recovery began gets %s with 403",
    async (_, code, status) => {
      const user = await createUser(company, question);
      const token = await recoverToSetpassword(company, user.loginName, question.controlAnswer);
      await updateUserStatus(company, user, status);
      expectError(
        await post(company, "setpassword", { new_password: "recovered-password-2" }, token),
        403,
        code,
      );
    },
  );

  it.each(statuses)(
    "acceptdisclaimers: a user %s since the OAuth login gets %s with 403",
    async (_, code, status) => {
      const user = await createUser(withTerms);
      const token = await acceptdisclaimersToken(withTerms, user);
      await updateUserStatus(withTerms, user, status);
      expectError(
        await post(withTerms, "acceptdisclaimers", { accept_disclaimers: ["terms"] }, token),
        403,
        code,
      );
    },
  );

  it.each(statuses)(
    "recovery/checkotp: a user %s since the recovery began gets %s with 403 to the right OTP",
    async (_, code, status) => {
      const user = await createUser(company);
      const token = await recoveryToken(company, user, "PHONE");
      await updateUserStatus(company, user, status);
      const otp = lastOtp(company.id, user.phone);
      expectError(await post(company, "recovery/checkotp", { otp }, token), 403, code);
    },
  );

  it.each(statuses)(
    "recovery/renewotp: a user %s since the recovery began gets %s with 403 and no new OTP",
    async (name, code, status) => {
      const { company: own, user, token } = waiting["recovery/renewotp"][name];
      await updateUserStatus(own, user, status);
      expectError(await post(own, "recovery/renewotp", {}, token), 403, code);
      expect(smsTo(own.id, user.phone)).toHaveLength(1);
      // Active again, the user may renew: the refused renewal was not held back by the cooldown.
      await updateUserStatus(own, user, UserStatus.ACTIVE);
      expectSuccess(await post(own, "recovery/renewotp", {}, token), []);
      expect(smsTo(own.id, user.phone)).toHaveLength(2);
    },
  );

  it.each(statuses)(
    "recovery/checkquestion: a user %s since the recovery began gets %s with 403 to the right answer",
    async (_, code, status) => {
      const user = await createUser(company, question);
      const token = await recoveryToken(company, user, "QUESTION");
      await updateUserStatus(company, user, status);
      expectError(
        await post(company, "recovery/checkquestion", { control_answer: question.controlAnswer }, token),
        403,
        code,
      );
    },
  );

  it.each(statuses)(
    "recovery/checklink: a user %s since the link was sent gets %s with 403",
    async (_, code, status) => {
      const user = await createUser(company);
      const link = await mailedLinkToken(company, user);
      await updateUserStatus(company, user, status);
      expectError(await post(company, "recovery/checklink", { token: link }), 403, code);
    },
  );
});

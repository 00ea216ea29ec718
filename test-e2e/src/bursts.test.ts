import { randomBytes, randomInt } from "node:crypto";
import type { RunningSuite } from "@auth/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/api.js";
import {
  createCompany,
  createUser,
  generateBackupCodes,
  operatorOf,
  type TestCompany,
} from "./support/fixtures.js";
import { recoverByQuestion } from "./support/flows.js";
import { lastOtp, linkToken, mailTo } from "./support/outbox.js";
import { startOwnSuite } from "./support/own-suite.js";
import { enrolAuthenticator, totpCode } from "./support/totp.js";

const captcha = "dev-captcha-pass";
const burst = 50;

/**
 * Bursts of parallel guesses (docs/security.md, "Guesses per hour"): the session service reserves
 * every check of a secret before it is compared, in one atomic step, so that a burst gets no more
 * checks than the budget has, counted per user across login IDs and sessions. The secrets compared
 * are counted where they are compared (`auth_secrets_compared_total` of identity and otp): these
 * tests count what really happened. On the embedded stores, and on real PostgreSQL and Redis when
 * the environment names them (as in CI).
 */
const storeKinds: Array<[string, boolean]> = [
  ["the embedded stores", false],
  ...(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL
    ? ([["PostgreSQL and Redis", true]] as Array<[string, boolean]>)
    : []),
];

describe.each(storeKinds)("bursts of guesses on %s", (_, realStores) => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let company: TestCompany;

  beforeAll(async () => {
    own = await startOwnSuite({}, { realStores, metrics: true });
    suite = own.suite;
    // The default policy (captcha after 3, lock-out after 10), without the rate limits in the way.
    company = await createCompany(
      {
        recovery: {
          order: [],
          disabled: [],
          disabledByRole: {},
          linkBase: "https://login.acme.example/recover",
        },
      },
      operatorOf(suite),
    );
  });
  afterAll(async () => {
    await own?.stop();
  });

  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, gatewayUrl: suite.gatewayUrl, body, token });
  /** How many secrets of a kind identity or otp has compared so far. */
  async function compared(
    kind: "password" | "backup_code" | "control_answer" | "otp" | "totp",
  ): Promise<number> {
    const url = kind === "otp" ? suite.metricsUrls.otp : suite.metricsUrls.identity;
    const text = await (await fetch(url ?? "")).text();
    return Number(new RegExp(`auth_secrets_compared_total\\{kind="${kind}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  }
  /** The answers of a burst, by status and code. */
  const tally = (answers: ApiResponse[]) =>
    answers.reduce<Record<string, number>>((counts, answer) => {
      const key = answer.body.status === "success" ? "success" : String(answer.body.error_code);
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {});
  /** A burst of requests, one of which (at a random place) carries the right secret. */
  const withRightOne = <T>(wrong: () => T, right: () => T) => {
    const at = randomInt(burst);
    return Array.from({ length: burst }, (_, index) => (index === at ? right() : wrong()));
  };
  const wrongPassword = () => `wrong-${randomBytes(6).toString("hex")}`;

  it("checkcredentials without a captcha: 3 passwords compared of 50 at once, the rest asked for a captcha", async () => {
    const user = await createUser(company);
    const before = await compared("password");
    const answers = await Promise.all(
      Array.from({ length: burst }, () =>
        post("checkcredentials", { login_id: user.loginName, password: wrongPassword() }),
      ),
    );
    expect(tally(answers)).toEqual({ "auth.credentials.invalid": 3, "auth.captcha.missing": burst - 3 });
    expect((await compared("password")) - before).toBe(3);

    // The right password, anywhere in the next burst, answers as the wrong ones do and is not compared.
    const next = withRightOne(
      () => ({ login_id: user.loginName, password: wrongPassword() }),
      () => ({ login_id: user.loginName, password: user.password }),
    );
    const late = await Promise.all(next.map((body) => post("checkcredentials", body)));
    expect(tally(late)).toEqual({ "auth.captcha.missing": burst });
    expect((await compared("password")) - before).toBe(3);
  });

  it("checkcredentials with a captcha, over a user's login name, e-mail and phone: 10 compared in all, then locked out even for the right password", async () => {
    const user = await createUser(company);
    const loginIds = [user.loginName, user.email, user.phone];
    const before = await compared("password");
    const answers = await Promise.all(
      Array.from({ length: burst }, (_, index) =>
        post("checkcredentials", {
          login_id: loginIds[index % loginIds.length],
          password: wrongPassword(),
          captcha_response: captcha,
        }),
      ),
    );
    expect(tally(answers)).toEqual({ "auth.credentials.invalid": 10, "auth.restricted": burst - 10 });
    expect((await compared("password")) - before).toBe(10);
    const right = await post("checkcredentials", {
      login_id: user.email,
      password: user.password,
      captcha_response: captcha,
    });
    expect(right.body.error_code).toBe("auth.restricted");
    expect((await compared("password")) - before).toBe(10);
  });

  it("checkpassword over many sessions of one user: the same budget, and a right password after it is spent does not authorize", async () => {
    const user = await createUser(company);
    // The sessions are started one after another: the burst under test is checkpassword's.
    const tokens: string[] = [];
    for (let index = 0; index < burst; index += 1) {
      const login = await post("login", { login_id: user.loginName });
      expect(login.body.session_state, JSON.stringify(login.body)).toBe("checkpassword");
      tokens.push(String(login.body.session_token));
    }
    const before = await compared("password");
    const answers = await Promise.all(
      tokens.map((token) =>
        post("checkpassword", { password: wrongPassword(), captcha_response: captcha }, token),
      ),
    );
    expect(tally(answers)).toEqual({ "auth.password.invalid": 10, "auth.restricted": burst - 10 });
    expect((await compared("password")) - before).toBe(10);
    const late = await post("login", { login_id: user.loginName });
    expect(late.body.error_code).toBe("auth.restricted");
  });

  it("backup codes: 10 compared of 50 at once, and the right one after them is refused", async () => {
    const user = await createUser(company, { secondFactorRequired: true });
    const codes = await generateBackupCodes(company, user);
    const login = await post("login", { login_id: user.loginName });
    const atOtp = await post("checkpassword", { password: user.password }, String(login.body.session_token));
    expect(atOtp.body.session_state).toBe("checkotp");
    const token = String(atOtp.body.session_token);
    const before = await compared("backup_code");
    const answers = await Promise.all(
      Array.from({ length: burst }, () => post("checkotp", { backup_code: "AAAA-AAAA-AAAA" }, token)),
    );
    expect((await compared("backup_code")) - before).toBe(10);
    expect(tally(answers)).toEqual({ "auth.backupcode.invalid": 10, "auth.restricted": burst - 10 });
    expect((await post("checkotp", { backup_code: codes[0] }, token)).body.error_code).toBe(
      "auth.restricted",
    );
    expect((await compared("backup_code")) - before).toBe(10);
  });

  it("OTPs: of 50 at one session, the code is compared once, and only the first to reach it can succeed", async () => {
    const user = await createUser(company, { password: null });
    const started = await post("login", { login_id: user.loginName });
    const token = String(started.body.session_token);
    const otp = lastOtp(company.id, user.phone, suite.smsOutboxFile);
    const before = await compared("otp");
    const answers = await Promise.all(
      withRightOne(
        () => post("checkotp", { otp: otp === "000000" ? "111111" : "000000" }, token),
        () => post("checkotp", { otp }, token),
      ),
    );
    // One attempt per code (docs/security.md, "Guesses per hour"): the first check burns it, right or wrong.
    expect((await compared("otp")) - before).toBe(1);
    const counts = tally(answers);
    expect(counts.success ?? 0).toBeLessThanOrEqual(1);
    // Checks after the first find no code; those past the budget are refused; those after a right
    // one find the session moved on.
    expect(
      Object.keys(counts).every((code) =>
        ["success", "auth.otp.invalid", "auth.restricted", "auth.token.invalid"].includes(code),
      ),
    ).toBe(true);
  });

  it("TOTP codes: 10 compared of 50 wrong ones at once, and the right one after them is refused", async () => {
    const user = await createUser(company);
    const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    const secret = await enrolAuthenticator(post, String(signedIn.body.session_token));
    const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(atOtp.body.session_state).toBe("checkotp");
    const token = String(atOtp.body.session_token);
    const right = await totpCode(secret, 1);
    const wrong = right === "000000" ? "111111" : "000000";
    const before = await compared("totp");
    const answers = await Promise.all(
      Array.from({ length: burst }, () => post("checkotp", { otp: wrong }, token)),
    );
    expect((await compared("totp")) - before).toBe(10);
    expect(tally(answers)).toEqual({ "auth.otp.invalid": 10, "auth.restricted": burst - 10 });
    expect((await post("checkotp", { otp: right }, token)).body.error_code).toBe("auth.restricted");
    expect((await compared("totp")) - before).toBe(10);
  });

  it("control answers: 3 compared of 12 wrong ones at once in one recovery, which then ends", async () => {
    const user = await createUser(company, { controlQuestion: "First pet?", controlAnswer: "Rex" });
    const token = await recoverByQuestion(company, user.loginName, suite.gatewayUrl);
    const before = await compared("control_answer");
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        post("recovery/checkquestion", { control_answer: `Dog${index}` }, token),
      ),
    );
    expect((await compared("control_answer")) - before).toBe(3);
    const counts = tally(answers);
    // Past the third, an answer is refused as wrong; one that comes after the session ended finds no session.
    expect((counts["auth.controlanswer.invalid"] ?? 0) + (counts["auth.token.invalid"] ?? 0)).toBe(12);
    expect(counts["auth.controlanswer.invalid"]).toBeGreaterThanOrEqual(3);
    expect((await post("recovery/checkquestion", { control_answer: "Rex" }, token)).body.error_code).toBe(
      "auth.token.invalid",
    );
  });

  it("control answers: with the right one anywhere in a burst of 12, never more than 3 compared, and it never gets an odd code", async () => {
    for (let round = 0; round < 3; round += 1) {
      const user = await createUser(company, { controlQuestion: "First pet?", controlAnswer: "Rex" });
      const token = await recoverByQuestion(company, user.loginName, suite.gatewayUrl);
      const before = await compared("control_answer");
      const right = randomInt(12);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          post("recovery/checkquestion", { control_answer: index === right ? "Rex" : `Dog${index}` }, token),
        ),
      );
      expect((await compared("control_answer")) - before).toBeLessThanOrEqual(3);
      const counts = tally(answers);
      expect(counts.success ?? 0).toBeLessThanOrEqual(1);
      const ofTheRightOne = answers[right]?.body;
      // Success, or the same refusal the wrong ones get: nothing tells which answer was right.
      expect(["success", "auth.controlanswer.invalid", "auth.token.invalid"]).toContain(
        ofTheRightOne?.status === "success" ? "success" : String(ofTheRightOne?.error_code),
      );
      for (const code of Object.keys(counts))
        expect(["success", "auth.controlanswer.invalid", "auth.token.invalid"]).toContain(code);
    }
  });

  it("recovery link tokens: of 50 redemptions of one link at once, one session is started", async () => {
    const user = await createUser(company);
    const recover = await post("recovery/recover", {
      login_id: user.loginName,
      captcha_response: captcha,
      method: "MAIL",
    });
    expect(recover.body.verification, JSON.stringify(recover.body)).toBe("MAIL");
    const token = linkToken(mailTo(company.id, user.email, suite.mailOutboxFile).at(-1)?.text ?? "");
    const answers = await Promise.all(
      Array.from({ length: burst }, () => post("recovery/checklink", { token })),
    );
    expect(tally(answers)).toEqual({ success: 1, "auth.token.invalid": burst - 1 });
  });
});

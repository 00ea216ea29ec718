import { randomBytes, randomInt } from "node:crypto";
import {
  companyLimits,
  createServiceClient,
  type ServiceClient,
  smsLimitsOutOfTheWay,
  smsSettings,
} from "@auth/grpc-kit";
import {
  CaptchaVerdict,
  CheckOutcome,
  CheckResult,
  SecretKind,
  SessionServiceService,
} from "@auth/proto/session";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/api.js";
import {
  createCompany,
  createUser,
  generateBackupCodes,
  operatorOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { recoverByQuestion } from "./support/flows.js";
import { lastOtp, linkToken, mailTo } from "./support/outbox.js";
import { enrolAuthenticator, totpCode, wrongTotpCode } from "./support/totp.js";

const captcha = "dev-captcha-pass";
const burst = 50;

/**
 * Bursts of parallel guesses (docs/security.md, "Guesses per hour at one user"): the session service
 * reserves every check of a secret before it is compared, in one atomic step, so that a burst gets
 * no more checks than the user's budget of that kind of secret has, counted per user across login
 * IDs and sessions; and a session checks one secret at a time, so that the requests of a burst with
 * one token that find a check under way answer auth.token.invalid and spend nothing. The secrets
 * compared are counted where they are compared (`auth_secrets_compared_total` of identity and otp):
 * these tests count what really happened. On the embedded stores, and on real PostgreSQL and Redis
 * when the environment names them (as in CI).
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
  /** The session service as the gateway calls it. */
  let session: ServiceClient<typeof SessionServiceService>;

  beforeAll(async () => {
    // As many SMS a user as the tests ask for: the SMS codes' burst is bounded by their budget, not
    // by the cap on sends (brute-force.test.ts measures the cap).
    own = await startOwnSuite(
      { otp: { OTP_SENDS_PER_USER_PER_HOUR: "1000" } },
      { embeddedStores: realStores ? undefined : "all", metrics: true },
    );
    suite = own.suite;
    session = createServiceClient(SessionServiceService, suite.addresses.session, {
      deadlineMs: 20_000,
      // identity's: it reserves every password check (docs/security.md, "The limits a caller sends").
      transport: suite.transportOf("identity"),
      server: "session",
    });
    // The default policy (captcha after 3, lock-out after 10), without the rate limits in the way.
    company = await createCompany(
      {
        recovery: {
          order: [],
          disabled: [],
          disabledByRole: {},
          linkBase: "https://login.acme.example/recover",
        },
        // The 51 codes of the SMS codes' burst go to one number and are never entered: the breaker
        // of its prefix would stop them (docs/decisions.md, "SMS pumping").
        sms: smsSettings({ limits: smsLimitsOutOfTheWay }),
      },
      operatorOf(suite),
    );
  });
  afterAll(async () => {
    session?.close();
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

  /**
   * A burst's sessions of one user, started one after another by `start`, each waiting for its
   * secret; and one more, started last, for a right secret after the burst.
   */
  async function sessionsForABurst(start: () => Promise<string>) {
    const tokens: string[] = [];
    for (let index = 0; index < burst; index += 1) tokens.push(await start());
    return { tokens, another: await start() };
  }
  /** A login of the user with the right password: the token of its session at checkotp. */
  async function atCheckotp(user: TestUser): Promise<string> {
    const step = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(step.body.session_state, JSON.stringify(step.body)).toBe("checkotp");
    return String(step.body.session_token);
  }

  describe("a burst over many sessions of one user gets the budget of its kind of secret, and no more", () => {
    it("backup codes: of 50 wrong ones at once, each in a session of its own, 10 are compared, and a right one in another session after them is refused", async () => {
      // Backup codes alone (no phone: no SMS goes out with each login).
      const user = await createUser(company, { secondFactorRequired: true, phone: null });
      const codes = await generateBackupCodes(company, user);
      const { tokens, another } = await sessionsForABurst(() => atCheckotp(user));
      const before = await compared("backup_code");
      const answers = await Promise.all(
        tokens.map((token) => post("checkotp", { backup_code: "AAAA-AAAA-AAAA" }, token)),
      );
      expect(tally(answers)).toEqual({ "auth.backupcode.invalid": 10, "auth.restricted": burst - 10 });
      expect((await compared("backup_code")) - before).toBe(10);
      expect((await post("checkotp", { backup_code: codes[0] }, another)).body.error_code).toBe(
        "auth.restricted",
      );
      expect((await compared("backup_code")) - before).toBe(10);
    });

    it("authenticator app codes: of 50 wrong ones at once, each in a session of its own, 10 are compared, and the right one in another session after them is refused", async () => {
      const user = await createUser(company);
      const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      const secret = await enrolAuthenticator(post, String(signedIn.body.session_token));
      const { tokens, another } = await sessionsForABurst(() => atCheckotp(user));
      const wrong = await wrongTotpCode(secret);
      const before = await compared("totp");
      const answers = await Promise.all(tokens.map((token) => post("checkotp", { otp: wrong }, token)));
      expect(tally(answers)).toEqual({ "auth.otp.invalid": 10, "auth.restricted": burst - 10 });
      expect((await compared("totp")) - before).toBe(10);
      expect((await post("checkotp", { otp: await totpCode(secret, 1) }, another)).body.error_code).toBe(
        "auth.restricted",
      );
      expect((await compared("totp")) - before).toBe(10);
    });

    it("SMS codes: of 50 wrong ones at once, each in a session of its own with a code of its own, 10 are compared, and the right code of another session after them is refused", async () => {
      const user = await createUser(company, { secondFactorRequired: true });
      /** Each session's code, read from the SMS its login sent. */
      const codes: string[] = [];
      const { tokens, another } = await sessionsForABurst(async () => {
        const token = await atCheckotp(user);
        codes.push(lastOtp(company.id, user.phone, suite.smsOutboxFile));
        return token;
      });
      const before = await compared("otp");
      const answers = await Promise.all(
        tokens.map((token, index) =>
          post("checkotp", { otp: codes[index] === "000000" ? "111111" : "000000" }, token),
        ),
      );
      expect(tally(answers)).toEqual({ "auth.otp.invalid": 10, "auth.restricted": burst - 10 });
      expect((await compared("otp")) - before).toBe(10);
      expect((await post("checkotp", { otp: codes[burst] }, another)).body.error_code).toBe(
        "auth.restricted",
      );
      expect((await compared("otp")) - before).toBe(10);
    });

    it("control answers: of 50 wrong ones at once, each in a recovery of its own, 10 are compared, and the right one in another recovery after them is refused as a wrong one", async () => {
      const user = await createUser(company, { controlQuestion: "First pet?", controlAnswer: "Rex" });
      const { tokens, another } = await sessionsForABurst(() =>
        recoverByQuestion(company, user.loginName, suite.gatewayUrl),
      );
      const before = await compared("control_answer");
      const answers = await Promise.all(
        tokens.map((token, index) =>
          post("recovery/checkquestion", { control_answer: `Dog${index}` }, token),
        ),
      );
      // A recovery step has no auth.restricted (spec 4.6): a refused answer is told as a wrong one.
      expect(tally(answers)).toEqual({ "auth.controlanswer.invalid": burst });
      expect((await compared("control_answer")) - before).toBe(10);
      expect((await post("recovery/checkquestion", { control_answer: "Rex" }, another)).body.error_code).toBe(
        "auth.controlanswer.invalid",
      );
      expect((await compared("control_answer")) - before).toBe(10);
    });
  });

  describe("a session checks one secret at a time", () => {
    /** The user's next 4 wrong passwords without a captcha: 3 are compared, then one is asked. */
    async function expectNoPasswordFailureCounted(user: TestUser) {
      const answers: string[] = [];
      for (let guess = 0; guess < 4; guess += 1) {
        const response = await post("checkcredentials", { login_id: user.email, password: wrongPassword() });
        answers.push(String(response.body.error_code));
      }
      expect(answers).toEqual([...Array(3).fill("auth.credentials.invalid"), "auth.captcha.missing"]);
    }

    it("while a check of a session is under way, every other request with its token answers auth.token.invalid, compares nothing and spends nothing, the right password included", async () => {
      const user = await createUser(company);
      const token = String((await post("login", { login_id: user.loginName })).body.session_token);
      // A check under way in the session, reserved as identity reserves one before it compares the password.
      const held = await session.reserveSecretCheck({
        companyId: company.id,
        subject: { userId: user.id },
        kind: SecretKind.PASSWORD,
        captcha: CaptchaVerdict.UNSPECIFIED,
        limits: companyLimits(company.policy),
        sessionToken: token,
      });
      expect(held.outcome).toBe(CheckOutcome.ALLOWED);
      const before = await compared("password");
      const answers = await Promise.all(
        withRightOne(
          () => ({ password: wrongPassword() }),
          () => ({ password: user.password }),
        ).map((body) => post("checkpassword", body, token)),
      );
      expect(tally(answers)).toEqual({ "auth.token.invalid": burst });
      expect((await compared("password")) - before).toBe(0);
      // The check is given back, never compared: no failure counted, by it or by the burst.
      await session.reportSecretCheck({
        companyId: company.id,
        checkId: held.checkId,
        result: CheckResult.UNCHECKED,
      });
      await expectNoPasswordFailureCounted(user);
      // And the session checks its next secret: the right password authorizes.
      const right = await post(
        "checkpassword",
        { password: user.password, captcha_response: captcha },
        token,
      );
      expect(right.body.session_state, JSON.stringify(right.body)).toBe("authorized");
    });

    it("of 50 wrong passwords at once on one token, each is compared in a turn of its own or answers auth.token.invalid (auth.restricted once the budget's 10 are compared), and only those compared are spent", async () => {
      const user = await createUser(company);
      const token = String((await post("login", { login_id: user.loginName })).body.session_token);
      const before = await compared("password");
      const answers = await Promise.all(
        Array.from({ length: burst }, () =>
          post("checkpassword", { password: wrongPassword(), captcha_response: captcha }, token),
        ),
      );
      const counts = tally(answers);
      const spent = (await compared("password")) - before;
      console.log(`50 wrong passwords at once on one token: ${JSON.stringify(counts)}, ${spent} compared`);
      expect(spent).toBeGreaterThanOrEqual(1);
      // The gateway works on two requests of the session's login ID at a time (docs/operations.md,
      // "A burst at one user"): many come one after another, each compared in the session's turn,
      // until the budget refuses.
      const {
        "auth.password.invalid": wrong,
        "auth.token.invalid": busy = 0,
        "auth.restricted": restricted = 0,
        ...others
      } = counts;
      expect(others).toEqual({});
      expect(wrong).toBe(spent);
      expect(spent + busy + restricted).toBe(burst);
      if (restricted > 0) expect(spent).toBe(10);
      // The budget of passwords lost those alone: the rest of its 10 are compared, then auth.restricted.
      let compare = 0;
      for (;;) {
        const response = await post("checkcredentials", {
          login_id: user.loginName,
          password: wrongPassword(),
          captcha_response: captcha,
        });
        if (response.body.error_code === "auth.restricted") break;
        expect(response.body.error_code).toBe("auth.credentials.invalid");
        compare += 1;
        expect(compare).toBeLessThanOrEqual(10);
      }
      expect(compare).toBe(10 - spent);
    });

    it("of 5 right passwords at once on one token, 1 authorizes and 4 answer auth.token.invalid, and none counts as a failure", async () => {
      const user = await createUser(company);
      const token = String((await post("login", { login_id: user.loginName })).body.session_token);
      const before = await compared("password");
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => post("checkpassword", { password: user.password }, token)),
      );
      expect(tally(answers)).toEqual({ success: 1, "auth.token.invalid": 4 });
      // The winner's password was compared; a loser that took the session's turn after the winner's
      // check had its right password compared too, and lost the move.
      const spent = (await compared("password")) - before;
      console.log(`5 right passwords at once on one token: ${spent} compared`);
      expect(spent).toBeGreaterThanOrEqual(1);
      expect(spent).toBeLessThanOrEqual(5);
      await expectNoPasswordFailureCounted(user);
    });
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

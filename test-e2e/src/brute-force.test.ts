import { randomBytes, randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/api.js";
import {
  createCompany,
  createUser,
  generateBackupCodes,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { startLogin } from "./support/flows.js";
import { lastOtp } from "./support/outbox.js";
import { enrolAuthenticator, totpCode, wrongTotpCode } from "./support/totp.js";

/**
 * Scripted guessing of every secret at one user, through all of the user's login IDs, with the
 * default company policy: each kind of secret (password, SMS code, app code, backup code, control
 * answer) has a budget of its own per user, 10 failures in a 15-minute window, which no other kind's
 * right answer clears; a captcha after 3 wrong passwords; at most 10 OTP SMS per user and hour. Each
 * describe measures what the attacker gets and computes the guesses per hour, which must be the
 * figure docs/security.md states in its row of the kind ("Guesses per hour at one user").
 */
const documented = new Map(
  [
    ...readFileSync(new URL("../../docs/security.md", import.meta.url), "utf8").matchAll(
      /^\| (.+?) \| (\d[\d,]*) \|/gm,
    ),
  ].map(([, secret, figure]) => [secret, Number(figure?.replaceAll(",", ""))]),
);

/** The guesses per hour docs/security.md states in the row of this name. */
function documentedFigure(row: string): number {
  const figure = documented.get(row);
  if (figure === undefined)
    throw new Error(`docs/security.md has no row "${row}" in its table of guesses per hour at one user`);
  return figure;
}

const captcha = "dev-captcha-pass";
const hour = 3_600;

/** A guess the attacker got: the service checked the secret and said it was wrong. */
const wrongAnswers = new Set([
  "auth.password.invalid",
  "auth.credentials.invalid",
  "auth.otp.invalid",
  "auth.backupcode.invalid",
  "auth.controlanswer.invalid",
  "auth.token.invalid",
]);

/** When the first failed guess went out and when its answer came: the lock-out's window opened in between. */
interface FirstGuess {
  sent: number;
  answered: number;
}

/**
 * Guesses until the service stops checking (`auth.restricted`, or the `stop` code); returns how many
 * were checked, the first guess (to go on from), and the bounds of the lock-out's window in seconds,
 * from the Retry-After of the last answer and the moments of the first and last guesses: however
 * slow the machine, the true window lies between them.
 */
async function guessUntilStopped(
  guess: () => Promise<ApiResponse>,
  stop = "auth.restricted",
  first?: FirstGuess,
) {
  let opened = first;
  let checked = 0;
  for (;;) {
    const sent = Date.now();
    const response = await guess();
    const answered = Date.now();
    opened ??= { sent, answered };
    const code = String(response.body.error_code);
    if (code === stop) {
      // The window ends Retry-After seconds (rounded up) after the server answered, between sent and answered.
      const retryAfter = Number(response.headers.get("retry-after"));
      const window = {
        atLeast: (sent + (retryAfter - 1) * 1000 - opened.answered) / 1000,
        atMost: (answered + retryAfter * 1000 - opened.sent) / 1000,
      };
      return { checked, first: opened, window };
    }
    expect(wrongAnswers, JSON.stringify(response.body)).toContain(code);
    checked += 1;
    expect(checked, "the service never stopped the guessing").toBeLessThan(100);
  }
}

/** A guess in the backup codes' format: 12 characters of Crockford's base32 (60 bits). */
const randomBackupCode = () =>
  Array.from({ length: 3 }, () =>
    Array.from({ length: 4 }, () => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[randomInt(32)]).join(""),
  ).join("-");

/** The lock-out's window is `seconds` long, within the bounds the guessing measured. */
function expectWindowOf(seconds: number, window: { atLeast: number; atMost: number }) {
  expect(window.atLeast, JSON.stringify(window)).toBeLessThanOrEqual(seconds);
  expect(window.atMost, JSON.stringify(window)).toBeGreaterThanOrEqual(seconds);
}

/** Guesses in the busiest hour: a fixed window opens at the first failure, so an hour holds ceil(3600 / window) of them. */
const perHour = (perWindow: number, windowSeconds: number) => perWindow * Math.ceil(hour / windowSeconds);

describe("brute force at one user (the default policy)", () => {
  let company: TestCompany;
  beforeAll(async () => {
    // The gateway's default rate limits, which the fixtures otherwise lift for tests.
    company = await createCompany({ rateLimitPerAddressPerMinute: 0, rateLimitPerLoginIdPerMinute: 0 });
  });
  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  /**
   * Requests from a client address of their own (a documentation address, through the loopback
   * proxy the gateway trusts): the rounds of a second factor take two requests a guess, which must
   * not meet the address's rate limit that the other tests' requests count toward.
   */
  const from = (address: string) => (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, {
      apiKey: company.apiKey,
      body,
      token,
      headers: { "x-forwarded-for": address },
    });
  type Post = ReturnType<typeof from>;

  /** A user with an authenticator app (enrolled through a session of the password), and its secret. */
  async function withAnApp(post: Post): Promise<{ user: TestUser; secret: string }> {
    const user = await createUser(company);
    const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(signedIn.body.session_state, JSON.stringify(signedIn.body)).toBe("authorized");
    return { user, secret: await enrolAuthenticator(post, String(signedIn.body.session_token)) };
  }

  /**
   * The rounds at a second factor: the right password through the next of the user's login
   * IDs (a known password), then one answer at checkotp in that new session.
   */
  function roundsOf(post: Post, user: TestUser) {
    let sent = 0;
    return async (answer: Record<string, string>) => {
      const loginId = [user.loginName, user.email, user.phone][sent++ % 3];
      const step = await post("checkcredentials", { login_id: loginId, password: user.password });
      expect(step.body.session_state, JSON.stringify(step.body)).toBe("checkotp");
      return post("checkotp", answer, String(step.body.session_token));
    };
  }

  describe("passwords", () => {
    it("get 3 guesses without a captcha, 10 in all per 15 minutes, then auth.restricted: 40 an hour, whichever login ID", async () => {
      const user = await createUser(company);
      // Each guess through the next of the user's login IDs: they share one budget.
      let sent = 0;
      const nextLoginId = () => [user.loginName, user.email, user.phone][sent++ % 3];
      const withoutCaptcha = await guessUntilStopped(
        () => post("checkcredentials", { login_id: nextLoginId(), password: randomBytes(8).toString("hex") }),
        "auth.captcha.missing",
      );
      expect(withoutCaptcha.checked).toBe(3);
      const { checked, window } = await guessUntilStopped(
        () =>
          post("checkcredentials", {
            login_id: nextLoginId(),
            password: randomBytes(8).toString("hex"),
            captcha_response: captcha,
          }),
        "auth.restricted",
        withoutCaptcha.first,
      );
      expect(withoutCaptcha.checked + checked).toBe(10);
      expectWindowOf(900, window);
      // The right password is refused too until the window passes.
      const right = await post("checkcredentials", {
        login_id: user.loginName,
        password: user.password,
        captcha_response: captcha,
      });
      expect(right.body.error_code).toBe("auth.restricted");
      expect(perHour(10, 900)).toBe(documentedFigure("password"));
    });

    it("share the budget between checkpassword and checkcredentials, and between sessions", async () => {
      const user = await createUser(company);
      let guesses = 0;
      for (;;) {
        const token = await startLoginOrStop(user);
        if (!token) break;
        const response = await post("checkpassword", { password: "wrong", captcha_response: captcha }, token);
        if (response.body.error_code === "auth.restricted") break;
        guesses += 1;
        const other = await post("checkcredentials", {
          login_id: user.loginName,
          password: "wrong",
          captcha_response: captcha,
        });
        if (other.body.error_code === "auth.restricted") break;
        guesses += 1;
      }
      expect(guesses).toBe(10);
    });
  });

  /** auth/login, or undefined once the login ID is locked out. */
  async function startLoginOrStop(user: TestUser): Promise<string | undefined> {
    const response = await post("login", { login_id: user.loginName });
    if (response.body.error_code === "auth.restricted") return undefined;
    return String(response.body.session_token);
  }

  describe("SMS one-time passwords", () => {
    it("get one guess per code: a wrong guess burns it, and the right code fails after it", async () => {
      const user = await createUser(company, { password: null });
      const token = await startLogin(company, user.loginName);
      const code = lastOtp(company.id, user.phone);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
      expect((await post("checkotp", { otp: wrong }, token)).body.error_code).toBe("auth.otp.invalid");
      expect((await post("checkotp", { otp: code }, token)).body.error_code).toBe("auth.otp.invalid");
    });

    it("get 10 codes an hour per user whatever the lock-out allows, so 10 guesses of 1 in 1,000,000", async () => {
      const lenient = await createCompany({ lockoutAfterFailures: 1_000 });
      const user = await createUser(lenient, { password: null });
      let guesses = 0;
      for (;;) {
        const login = await call(lenient.code, "login", {
          apiKey: lenient.apiKey,
          body: { login_id: user.loginName },
        });
        if (login.body.error_code === "request.ratelimit.exceeded") {
          expect(Number(login.headers.get("retry-after"))).toBeGreaterThan(0);
          break;
        }
        const guess = await call(lenient.code, "checkotp", {
          apiKey: lenient.apiKey,
          token: String(login.body.session_token),
          body: { otp: String(randomInt(1_000_000)).padStart(6, "0") },
        });
        expect(guess.body.error_code).toBe("auth.otp.invalid");
        guesses += 1;
        expect(guesses).toBeLessThanOrEqual(10);
      }
      expect(guesses).toBe(10);
      expect(guesses).toBe(documentedFigure("SMS one-time password"));
    });
  });

  describe("authenticator app codes", () => {
    it("get 10 guesses per 15 minutes however many right passwords come between, then auth.restricted even for the right code: 40 an hour", async () => {
      const post = from("192.0.2.31");
      const { user, secret } = await withAnApp(post);
      const round = roundsOf(post, user);
      const wrong = await wrongTotpCode(secret);
      const { checked, window } = await guessUntilStopped(() => round({ otp: wrong }));
      expect(checked).toBe(10);
      expectWindowOf(900, window);
      // A right password reopens nothing: the app's right code, after one, is refused too.
      const right = await round({ otp: await totpCode(secret, 1) });
      expect(right.body.error_code, JSON.stringify(right.body)).toBe("auth.restricted");
      expect(perHour(checked, 900)).toBe(documentedFigure("authenticator app code"));
    });
  });

  describe("backup codes", () => {
    it("get 10 guesses per 15 minutes however many right passwords come between, then auth.restricted even for a right code: 40 an hour of 10 codes in 2^60", async () => {
      const post = from("192.0.2.32");
      // The case: the backup codes of a user with an app (whose logins send no SMS).
      const { user } = await withAnApp(post);
      const codes = await generateBackupCodes(company, user);
      expect(codes).toHaveLength(10);
      const round = roundsOf(post, user);
      const { checked, window } = await guessUntilStopped(() => round({ backup_code: randomBackupCode() }));
      expect(checked).toBe(10);
      expectWindowOf(900, window);
      const right = await round({ backup_code: codes[0] as string });
      expect(right.body.error_code, JSON.stringify(right.body)).toBe("auth.restricted");
      expect(perHour(checked, 900)).toBe(documentedFigure("backup code"));
    });
  });

  describe("the kinds of secret", () => {
    it("keep budgets of their own: 10 wrong app codes lock the app's codes out and leave the password's budget whole, without a captcha", async () => {
      const post = from("192.0.2.33");
      const { user, secret } = await withAnApp(post);
      const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      expect(atOtp.body.session_state, JSON.stringify(atOtp.body)).toBe("checkotp");
      const token = String(atOtp.body.session_token);
      const wrong = await wrongTotpCode(secret);
      const codes: string[] = [];
      for (let guess = 0; guess < 11; guess += 1)
        codes.push(String((await post("checkotp", { otp: wrong }, token)).body.error_code));
      expect(codes).toEqual([...Array(10).fill("auth.otp.invalid"), "auth.restricted"]);
      // The password's budget is whole: 3 wrong passwords are compared without a captcha, then one is asked.
      const passwords: string[] = [];
      for (let guess = 0; guess < 4; guess += 1) {
        const response = await post("checkcredentials", { login_id: user.email, password: `wrong ${guess}` });
        passwords.push(String(response.body.error_code));
      }
      expect(passwords).toEqual([...Array(3).fill("auth.credentials.invalid"), "auth.captcha.missing"]);
      // The right password still leads to checkotp, where the app's codes stay refused.
      const again = await post("checkcredentials", {
        login_id: user.phone,
        password: user.password,
        captcha_response: captcha,
      });
      expect(again.body.session_state, JSON.stringify(again.body)).toBe("checkotp");
      const right = await post(
        "checkotp",
        { otp: await totpCode(secret, 1) },
        String(again.body.session_token),
      );
      expect(right.body.error_code).toBe("auth.restricted");
    });
  });

  describe("control answers", () => {
    let recoveries = 0;
    /** A recovery through the next of the user's login IDs. */
    const recover = (user: TestUser) =>
      post("recovery/recover", {
        login_id: [user.loginName, user.email, user.phone][recoveries++ % 3],
        method: "QUESTION",
        captcha_response: captcha,
      });

    it("get 3 guesses per recovery session, each session a solved captcha, and 10 per 15 minutes in all: 40 an hour", async () => {
      const user = await createUser(company, { controlQuestion: "First pet?", controlAnswer: "Rex" });
      let guesses = 0;
      let sessions = 0;
      for (;;) {
        const started = await recover(user);
        sessions += 1;
        const token = String(started.body.session_token);
        let answered = 0;
        for (; answered < 3; answered += 1) {
          const response = await post(
            "recovery/checkquestion",
            { control_answer: `guess ${guesses}` },
            token,
          );
          expect(response.body.error_code).toBe("auth.controlanswer.invalid");
          guesses += 1;
          if (guesses === 10) break;
        }
        if (guesses === 10) break;
        // The third wrong answer ends the session.
        expect((await post("recovery/checkquestion", { control_answer: "Rex" }, token)).body.error_code).toBe(
          "auth.token.invalid",
        );
      }
      expect(sessions).toBe(4);
      // The user's control answers are locked out now: even the right one is not checked.
      const started = await recover(user);
      expect(
        (await post("recovery/checkquestion", { control_answer: "Rex" }, String(started.body.session_token)))
          .body.error_code,
      ).toBe("auth.controlanswer.invalid");
      expect(perHour(10, 900)).toBe(documentedFigure("control answer"));
    });
  });

  describe("recovery link tokens", () => {
    it("are 256 random bits: every guess is auth.token.invalid, and an address gets 120 a minute, 7,200 an hour", async () => {
      const address = { "x-forwarded-for": "192.0.2.77" };
      let guesses = 0;
      for (;;) {
        const response = await call(company.code, "recovery/checklink", {
          apiKey: company.apiKey,
          body: { token: randomBytes(32).toString("base64url") },
          headers: address,
        });
        if (response.body.error_code === "request.ratelimit.exceeded") break;
        expect(response.body.error_code).toBe("auth.token.invalid");
        guesses += 1;
        expect(guesses).toBeLessThanOrEqual(1_000);
      }
      expect(guesses * 60).toBe(documentedFigure("recovery link token (per client address)"));
    });
  });
});
